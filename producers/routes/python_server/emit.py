"""From interpreted Python apps to route-decl facts, registration order and counted gaps.

Each app that receives requests (one nothing mounts) is one order group. Its
entries are walked in registration order, into included routers and mounted
apps at the place they were added, so `order.index` counts registrations the
way Starlette's router tries them: the first route whose path and method
match answers. Registrations under a condition get no order. A router no app
includes is read under an unknown prefix (`pathAnchor: "base"`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from tsograph.exchange.limitations import Place as LinePlace
from tsograph.exchange.limitations import counted
from tsograph.exchange.scopes import static_template_problem
from tsograph.exchange.templates import canonicalize
from tsograph.producers.routes.node.paths.model import PathVariant
from tsograph.producers.routes.python_server.interpreter_values import Entry
from tsograph.producers.routes.python_server.interpreter_values import Include
from tsograph.producers.routes.python_server.interpreter_values import Mount
from tsograph.producers.routes.python_server.interpreter_values import Place
from tsograph.producers.routes.python_server.interpreter_values import Route
from tsograph.producers.routes.python_server.interpreter_values import Router
from tsograph.producers.routes.route_gaps import RouteGaps
from tsograph.producers.routes.route_gaps import breakdown_line
from tsograph.producers.routes.route_gaps import conditional_line
from tsograph.producers.routes.route_gaps import missing_usrs_line
from tsograph.producers.routes.route_gaps import order_and_prefix_lines
from tsograph.producers.routes.route_gaps import other_methods_line
from tsograph.producers.routes.route_gaps import prefix_scope
from tsograph.producers.routes.route_gaps import provided_line
from tsograph.producers.routes.route_gaps import route_decl
from tsograph.producers.routes.route_scan import Limitations
from tsograph.producers.values.python.strings import UNKNOWN_TEXT
from tsograph.producers.values.python.strings import Text
from tsograph.producers.values.python.strings import text

# Mounted file servers and framework pages: they answer GET and HEAD only.
STATIC_FILES = frozenset({"StaticFiles", "a static folder", "frontend files"})
GET_ONLY = frozenset({*STATIC_FILES, "FastAPI's OpenAPI and documentation pages"})
# The contract's methods, and ANY for a view that answers every method.
CONTRACT_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "ANY"})

# A framework's reading of a full path: the templates it serves.
PathRule = Callable[[str], list[PathVariant]]


@dataclass
class Output(RouteGaps):
    coverage: Counter[str] = field(default_factory=Counter)
    coverage_at: set[LinePlace] = field(default_factory=set)
    websockets: list[str] = field(default_factory=list)
    websockets_unscoped: int = 0
    late: int = 0
    late_at: set[LinePlace] = field(default_factory=set)
    provided: list[tuple[str, str | None]] = field(default_factory=list)


class Joins:
    """How a framework joins prefixes: FastAPI and Starlette concatenate them.

    A state is what the walk carries into included routers and mounted apps.
    """

    def start(self, anchored: bool) -> Any:
        return [text("") if anchored else UNKNOWN_TEXT]

    def enter(self, state: Any, entry: Include | Mount) -> Any:
        return [*state, entry.prefix if entry.prefix is not None else text("")]

    def parts(self, state: Any, path: Text) -> list[Text]:
        """The prefixes and the route's own path, last (see `_joined`)."""
        return [*state, path]


@dataclass
class Emitter:
    service: str | None
    tests: set[str]
    path_rule: PathRule
    joins: Joins = field(default_factory=Joins)
    # First-match routers give their facts a registration order; Werkzeug does not.
    ordered: bool = True
    out: Output = field(default_factory=Output)

    def group(self, root: Router, anchored: bool) -> None:
        index = 0
        for entry, state, conditional in self._flatten(
            root.entries, self.joins.start(anchored), False, {id(root)}
        ):
            index += self._entry(root, entry, state, conditional, index)

    def _flatten(
        self, entries: list[Entry], state: Any, conditional: bool, seen: set[int]
    ) -> list[tuple[Entry, Any, bool]]:
        found: list[tuple[Entry, Any, bool]] = []
        for entry in entries:
            below = conditional or entry.conditional
            if isinstance(entry, (Include, Mount)) and entry.child is not None:
                child = entry.child
                if id(child) in seen:
                    continue  # included into itself: the frameworks refuse it
                # Includes are live (fastapi 0.165.0): the router's entries as they end up.
                found.extend(
                    self._flatten(
                        child.entries, self.joins.enter(state, entry), below, seen | {id(child)}
                    )
                )
            else:
                found.append((entry, state, below))
        return found

    def _entry(self, root: Router, entry: Entry, state: Any, conditional: bool, index: int) -> int:
        at = (entry.place.path, entry.place.line)
        if isinstance(entry, (Mount, Include)):
            self._provided(entry, self.joins.parts(state, entry.prefix or text("")))
            return 0
        if not isinstance(entry, Route):
            return 0
        parts = self.joins.parts(state, entry.path)
        known, raw = _joined(parts)
        if entry.options.get("late"):
            self.out.late += 1
            self.out.late_at.add(at)
        if entry.websocket:
            if known and raw is not None and raw.startswith("/") and "{" not in raw:
                self.out.websockets.append(canonicalize(raw).channel)
            else:
                self.out.websockets_unscoped += 1
            return 0
        if raw is None:
            variants = [_unproven(parts, known)]
            self.out.coverage["unresolved-route-path"] += 1
            self.out.coverage_at.add(at)
        elif known and not raw.startswith("/"):
            # Starlette matches paths that start with `/`: this route never answers.
            self.out.coverage["path-without-leading-slash"] += 1
            self.out.coverage_at.add(at)
            return 0
        else:
            variants = self.path_rule(raw if raw.startswith("/") else "/" + raw)
        if not known:
            self.out.unresolved += 1
            self.out.unresolved_at.add(at)
            self.out.unresolved_suffixes.extend(v.template for v in variants if not v.dynamic)
        if entry.handler.usr is None:
            self.out.missing_usrs.add(entry.handler.qualified)
        methods = [method for method in entry.methods if method in CONTRACT_METHODS]
        for method in entry.methods:
            if method not in CONTRACT_METHODS:
                self.out.other_methods[method] += 1
        if not entry.methods:
            self.out.coverage["unproven-methods"] += 1
            self.out.coverage_at.add(at)
        if conditional:
            self.out.unordered["conditional-registration"] += 1
            self.out.unordered_at.add(at)
            self.out.conditional.extend(v.template for v in variants if not v.dynamic)
        for variant in variants:
            for method in methods:
                fact = self._fact(method, variant, entry, known)
                if self.ordered and not conditional:
                    fact["order"] = {"group": root.name, "index": index}
                self.out.facts.append(fact)
        # An index counts the registrations that have facts, so the group has no gaps.
        return 0 if conditional or not methods or not self.ordered else 1

    def provide(self, name: str, prefix: Text) -> None:
        """Routes a framework adds under `prefix` that are no facts of their own."""
        self._provided(Mount(Place("", 0, 0), False, prefix, None, name), [prefix, text("")])

    def _provided(self, mount: Mount | Include, parts: list[Text]) -> None:
        known, raw = _joined(parts)
        scope = None
        if known and raw is not None:
            channel = canonicalize(raw.rstrip("/") or "/")
            if not channel.dynamic and static_template_problem(channel.channel) is None:
                scope = channel.channel
        name = mount.name if isinstance(mount, Mount) else "an included router"
        self.out.provided.append((name, scope))

    def _fact(self, method: str, variant: PathVariant, route: Route, known: bool) -> dict[str, Any]:
        handler = (route.handler.qualified, route.handler.usr)
        test = route.place.path in self.tests
        fact = route_decl(method, variant, route.place, handler, known, self.service, test)
        # Starlette redirects the other trailing-slash form (redirect_slashes) or answers
        # 404, and so does Werkzeug with strict_slashes (its default): the written form is
        # the one served. Werkzeug with strict_slashes=False answers both.
        slashes = route.options.get("strict_slashes", True)
        if slashes is not None:
            fact["trailingSlash"] = "strict" if slashes else "optional"
        return fact


def _joined(parts: list[Text]) -> tuple[bool, str | None]:
    """Whether every prefix is proven, and the path below the last unproven prefix.

    The last part is the route's own path: when it is not proven whole, the path is None.
    """
    *prefixes, path = parts
    if path.known is None:
        return all(prefix.known is not None for prefix in prefixes), None
    pieces = [piece for prefix in prefixes for piece in prefix.pieces]
    cut = max((i for i, piece in enumerate(pieces) if piece is None), default=-1)
    tail = "".join(piece for piece in pieces[cut + 1 :] if piece is not None)
    return cut < 0, tail + path.known


def _unproven(parts: list[Text], known: bool) -> PathVariant:
    """A route path that could not be proven: anything under the proven head."""
    head: list[str] = []
    for part in parts:
        for piece in part.pieces:
            if piece is None:
                break
            head.append(piece)
        else:
            continue
        break
    literal = "".join(head) if known else ""
    literal = literal.rpartition("/")[0] if "/" in literal else ""
    # A parameter (`{id}` in Starlette, `<int:id>` in Django and Flask, DRF's lookup) ends
    # the scope: its segment is no literal text.
    for opener in ("{", "<"):
        if opener in literal:
            literal = literal.partition(opener)[0].rpartition("/")[0]
    scope = None
    if literal.strip("/"):
        base = canonicalize(literal)
        if not base.dynamic and "{" not in base.channel:
            scope = base.channel
    return PathVariant((scope or "") + "/{**}", True, dynamic_scope=scope)


def limitation_lines(out: Output, framework: str) -> tuple[list[str], list[dict[str, Any]]]:
    lines = Limitations()
    add = lines.add
    order_and_prefix_lines(out, lines, "a prefix or router")
    conditional_line(out, lines)
    breakdown_line(
        lines,
        "route-coverage:",
        out.coverage,
        "registration(s) could not be read whole",
        places=out.coverage_at,
    )
    other_methods_line(out, lines)
    if out.websockets or out.websockets_unscoped:
        channels = sorted(set(out.websockets))
        add(
            counted(
                "route-coverage:",
                len(out.websockets) + out.websockets_unscoped,
                "WebSocket endpoint(s) answer an upgrade request and are not HTTP routes",
            ),
            None
            if out.websockets_unscoped
            else {"templatePrefixes": channels, "methods": ["GET"]}
            if prefix_scope(channels) is not None
            else None,
        )
    if out.late:
        add(
            counted(
                "route-coverage:",
                out.late,
                f"route(s) were added to a router after it was included; {framework} "
                "0.136.0 and older do not serve them",
                places=out.late_at,
            )
        )
    for name, prefix in sorted(set(out.provided), key=lambda item: (item[0], item[1] or "")):
        where = prefix or "an unresolved prefix"
        if name in GET_ONLY:
            what = f"static files ({name})" if name in STATIC_FILES else name
            provided_line(lines, f"{what} are served under {where}", prefix, files=True)
        else:
            provided_line(lines, f"{name} may answer under {where}", prefix, files=False)
    missing_usrs_line(out, lines, "are not proven project functions")
    return lines.lines, lines.scopes

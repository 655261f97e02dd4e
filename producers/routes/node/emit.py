"""From interpreted routers to route-decl facts, registration order and scoped limitations.

Each app that receives requests is one order group. Its entries are walked
in registration order, into mounted routers at the place they were mounted,
so `order.index` counts registrations the way a first-match router tries
them. Registrations that may not answer in that order (a handler with a
`next` parameter, a condition, another module's top level, an exclusive Koa
router) get no order and are counted under `route-dispatch-order-unknown:`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from tsograph.exchange.limitations import counted
from tsograph.exchange.scopes import static_template_problem
from tsograph.exchange.templates import canonicalize
from tsograph.producers.routes.node.collisions import Candidate
from tsograph.producers.routes.node.collisions import resolve
from tsograph.producers.routes.node.paths import Dialect
from tsograph.producers.routes.node.paths import PathVariant
from tsograph.producers.routes.node.paths import express_route_paths
from tsograph.producers.routes.node.paths import fastify_plugin_prefix
from tsograph.producers.routes.node.paths import fastify_route_paths
from tsograph.producers.routes.node.paths import join_prefix
from tsograph.producers.routes.node.paths import koa_join_prefix
from tsograph.producers.routes.node.paths import strict_variants
from tsograph.producers.routes.node.paths import translate
from tsograph.producers.routes.node.runtime_values import Context
from tsograph.producers.routes.node.runtime_values import Entry
from tsograph.producers.routes.node.runtime_values import Handler
from tsograph.producers.routes.node.runtime_values import Mount
from tsograph.producers.routes.node.runtime_values import Route
from tsograph.producers.routes.node.runtime_values import RouterValue
from tsograph.producers.routes.node.runtime_values import Served
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

# Methods a route-decl can carry: the contract's, and ALL for `all()`/`use()` (written ANY).
CONTRACT_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "ALL"})
FIRST_MATCH = frozenset({"express", "hono", "koa", "koa-app", "nest-express"})
SPECIFICITY = frozenset({"fastify", "nest-fastify", "nest-sorted"})


@dataclass(frozen=True)
class Versions:
    express: int | None
    koa_router: int | None
    nest_express: int | None = None  # the Express major @nestjs/platform-express brings
    fastify: int | None = None


def dialect_of(framework: str, versions: Versions) -> Dialect:
    # Express 4.22.3 uses path-to-regexp 0.1.13, Express 5.2.1 path-to-regexp 8;
    # @koa/router 13.1.1 uses path-to-regexp 6, 14+ (15.7.0) path-to-regexp 8.
    if framework == "express":
        return "path-to-regexp-0.1" if versions.express == 4 else "path-to-regexp-8"
    if framework in ("koa", "koa-app"):
        if versions.koa_router is not None and versions.koa_router <= 13:
            return "path-to-regexp-6"
        return "path-to-regexp-8"
    if framework == "hono":
        return "hono"
    if framework in ("nest-express", "nest-sorted"):
        return "path-to-regexp-0.1" if versions.nest_express == 4 else "path-to-regexp-8"
    return "find-my-way"


@dataclass
class _Level:
    prefix: str | None
    router: RouterValue


@dataclass
class Output(RouteGaps):
    unmodeled: set[str] = field(default_factory=set)
    coverage: Counter[str] = field(default_factory=Counter)
    provided: list[tuple[str, str, str | None]] = field(default_factory=list)
    first_match: bool = False
    other_templates: list[str] = field(default_factory=list)
    skipped: int = 0  # registrations under a router whose framework major is not modelled
    collisions: Counter[str] = field(default_factory=Counter)  # facts left out, by reason


@dataclass
class Emitter:
    versions: Versions
    service: str | None
    tests: set[str]
    # Router frameworks on a major no rule table models: their registrations give no facts.
    skipped: frozenset[str] = frozenset()
    out: Output = field(default_factory=Output)
    candidates: list[Candidate] = field(default_factory=list)

    def group(self, root: RouterValue, anchored: bool) -> None:
        entries = list(self._flatten(root.entries, [_Level("" if anchored else None, root)], set()))
        if root.framework in FIRST_MATCH:
            self.out.first_match = True
        # A function mounted last on the app answers whatever nothing else did: the 404 handler.
        # Only one mounted on the app itself counts, not one inside a router.
        last = entries[-1] if entries else None
        if (
            last is not None
            and isinstance(last[0], Served)
            and last[0].kind == "open"
            and last[0].prefix in ("/", "*", "")
            and len(last[1]) == 1
        ):
            entries.pop()
        index = 0
        for entry, levels in entries:
            if any(level.router.framework in self.skipped for level in levels):
                self.out.skipped += 1
                continue
            if isinstance(entry, Route):
                index += self._route(root, entry, levels, index)
            else:
                index += self._served(root, entry, levels, index)

    def controller(self, name: str, routes: list[Route], home: RouterValue, anchored: bool) -> None:
        """One NestJS controller: its own order group, routes in method order."""
        root = RouterValue(home.framework, "app", name, "")
        if root.framework in FIRST_MATCH:
            self.out.first_match = True
        levels = [_Level("" if anchored else None, home)]
        index = 0
        for route in routes:
            index += self._route(root, route, levels, index)

    def _flatten(
        self, entries: list[Entry], levels: list[_Level], seen: set[int]
    ) -> list[tuple[Route | Served, list[_Level]]]:
        found: list[tuple[Route | Served, list[_Level]]] = []
        for entry in entries:
            if isinstance(entry, Mount):
                child = entry.child
                if id(child) in seen:
                    continue  # a router mounted inside itself
                own = [_Level(entry.prefix, child)]
                if child.prefix and child.framework == "koa":
                    own.append(_Level(child.prefix, child))
                children = entry.snapshot if entry.snapshot is not None else child.entries
                found.extend(self._flatten(children, [*levels, *own], seen | {id(child)}))
            else:
                found.append((entry, levels))
        return found

    def _raw_paths(self, levels: list[_Level], path: str) -> tuple[tuple[str, ...], bool]:
        """The raw paths a route has under its mounts, and whether every prefix was known.

        Under an unknown prefix, the paths are those below it (the templateSuffixes).
        """
        known = all(level.prefix is not None for level in levels)
        inner = levels
        while any(level.prefix is None for level in inner):
            cut = max(i for i, level in enumerate(inner) if level.prefix is None)
            inner = inner[cut + 1 :]
        prefixes = [level.prefix or "" for level in inner]
        home = levels[-1].router
        framework = home.framework
        if framework in ("fastify", "nest-fastify"):
            prefix = ""
            for plugin_prefix in prefixes:
                prefix = fastify_plugin_prefix(
                    prefix, plugin_prefix, fastify_major=self.versions.fastify or 5
                )
            return fastify_route_paths(prefix, path, ignore_trailing_slash=not home.strict), known
        if framework in ("express", "nest-express", "nest-sorted"):
            # Nested mounts trim their prefixes one after another, like one mount at all of
            # them joined (Express 4.22.3 / 5.2.1 router trim_prefix).
            major = self.versions.express if framework == "express" else self.versions.nest_express
            mount = "".join(prefix.rstrip("/") for prefix in prefixes)
            paths = express_route_paths(mount, path, express_major=major or 5, strict=home.strict)
            return paths, known
        joined = path
        for level, prefix in zip(reversed(inner), reversed(prefixes), strict=True):
            if not prefix:
                continue
            if framework == "hono":
                joined = join_prefix("hono", prefix, joined)
            else:
                joined = koa_join_prefix(prefix, joined, strict=level.router.strict)
        return (joined,), known

    def _route(self, root: RouterValue, route: Route, levels: list[_Level], index: int) -> int:
        handler = route.handler
        if handler is None:
            return 0
        home = levels[-1].router
        dialect = dialect_of(home.framework, self.versions)
        reasons = self._unordered_reasons(route.context, handler, levels, route.unordered)
        ordered = root.framework in FIRST_MATCH and not reasons
        if route.path is None:
            self.out.coverage["unresolved-route-path"] += 1
        raws, known = self._raw_paths(levels, route.path if route.path is not None else "")
        found: dict[PathVariant, str] = {}  # each template and the registered path it is from
        for raw in raws:
            for variant in (
                _served_variants(
                    list(translate(dialect, raw, router_major=self._router_major(home))), home
                )
                if route.path is not None
                else (_unproven(raw),)
            ):
                found.setdefault(variant, raw)
        variants = list(found)
        if not variants:
            return 0
        at = (route.place.path, route.place.line)
        if not known:
            self.out.unresolved += 1
            self.out.unresolved_at.add(at)
        if root.framework in FIRST_MATCH and reasons:
            self.out.unordered.update(reasons)
            self.out.unordered_at.add(at)
        self._note_handler(handler, route.place.path)
        methods = [method for method in route.methods if method in CONTRACT_METHODS]
        for method in route.methods:
            if method not in CONTRACT_METHODS:
                self.out.other_methods[method] += 1
                self.out.other_templates.extend(v.template for v in variants if not v.dynamic)
        if not methods:
            return 0
        for variant in variants:
            if route.context.conditional and not variant.dynamic:
                self.out.conditional.append(variant.template)
            if not known and not variant.dynamic:
                self.out.unresolved_suffixes.append(variant.template)
            for method in methods:
                fact = self._fact(method, variant, route, handler, home, levels, known)
                if ordered:
                    fact["order"] = {"group": root.name, "index": index}
                self.out.facts.append(fact)
                if home.framework in SPECIFICITY and not variant.dynamic and "narrowed" not in fact:
                    major = self._router_major(home) or 9 if dialect == "find-my-way" else None
                    # The app that receives requests: a root router, or a NestJS application.
                    group = id(levels[0].router)
                    self.candidates.append(Candidate(fact, group, found[variant], major))
        return 1 if ordered else 0

    def finish(self) -> None:
        """Leave out the facts a specificity router never reaches (see `collisions`)."""
        dropped, reasons = resolve(self.candidates)
        self.out.facts = [fact for fact in self.out.facts if id(fact) not in dropped]
        self.out.collisions.update(reasons)

    def package_served(self, app: RouterValue, served: Served) -> None:
        """What a package serves on an application whose own registrations are not read as
        routes (a NestJS application given to SwaggerModule.setup): a framework-provided
        line, never a fact."""
        self._served(app, served, [_Level("", app)], 0)

    def _served(self, root: RouterValue, served: Served, levels: list[_Level], index: int) -> int:
        home = levels[-1].router
        if home.framework == "hono" and served.kind == "open" and served.handler is not None:
            # Hono 4.13.12 use(path, fn) adds an ALL route on the pattern `path` (`/x` is
            # only `/x`, `/x/*` is `/x` and below), not a prefix.
            route = Route(("ALL",), served.prefix, served.handler, served.place, served.context)
            return self._route(root, route, levels, index)
        prefix_levels = [*levels, _Level(served.prefix, home)]
        known = all(level.prefix is not None for level in prefix_levels)
        # Below the last unknown prefix the rest is proven (pathAnchor "base"); an unknown
        # prefix of its own leaves nothing proven.
        cut = max((i for i, level in enumerate(prefix_levels) if level.prefix is None), default=-1)
        raw = "".join(
            (level.prefix or "").rstrip("/")
            for level in prefix_levels[cut + 1 :]
            if level.prefix != "*"
        )
        base = canonicalize(_literal_prefix(raw) or "/") if served.prefix is not None else None
        if served.kind != "open" or served.handler is None:
            scope_prefix = None
            if (
                known
                and base is not None
                and not base.dynamic
                and static_template_problem(base.channel) is None
            ):
                scope_prefix = base.channel
            self.out.provided.append((served.kind, served.name or "middleware", scope_prefix))
            return 0
        handler = served.handler
        reasons = self._unordered_reasons(served.context, handler, levels, ())
        ordered = root.framework in FIRST_MATCH and not reasons
        at = (served.place.path, served.place.line)
        if root.framework in FIRST_MATCH and reasons:
            self.out.unordered.update(reasons)
            self.out.unordered_at.add(at)
        self._note_handler(handler, served.place.path)
        channel = "" if base is None or base.channel == "/" else base.channel
        if base is not None and _literal_prefix(raw) != raw:
            # A pattern in the mount path: only its literal head is proven.
            variants = [PathVariant(channel + "/{**}", dynamic=True, dynamic_scope=channel or None)]
        else:
            variants = [PathVariant(channel + "/{**}", dynamic=base is None)]
            if handler.usr is not None:
                variants.append(PathVariant(channel or "/", catch_all_prefix=True))
        if not known:
            self.out.unresolved += 1
            self.out.unresolved_at.add(at)
        route = Route(("ALL",), None, handler, served.place, served.context)
        for variant in variants:
            fact = self._fact("ALL", variant, route, handler, home, levels, known)
            if ordered:
                fact["order"] = {"group": root.name, "index": index}
            self.out.facts.append(fact)
        return 1 if ordered else 0

    def _router_major(self, home: RouterValue) -> int | None:
        # find-my-way 8 (Fastify 4) and 9 (Fastify 5) differ; other dialects have one table.
        if home.framework == "fastify" and self.versions.fastify is not None:
            return 9 if self.versions.fastify >= 5 else 8
        return None

    def _unordered_reasons(
        self, context: Context, handler: Handler, levels: list[_Level], extra: tuple[str, ...]
    ) -> list[str]:
        reasons = list(extra)
        if handler.passes_on:
            reasons.append("handler-can-pass-on")
        if context.conditional:
            reasons.append("conditional-registration")
        if context.out_of_module:
            reasons.append("registration-from-another-module")
        if any(level.router.exclusive for level in levels):
            reasons.append("exclusive-koa-router")
        return reasons

    def _note_handler(self, handler: Handler, where: str) -> None:
        if handler.usr is None:
            self.out.missing_usrs.add(handler.qualified)
        elif handler.unmodeled:
            self.out.unmodeled.add(where)

    def _fact(
        self,
        method: str,
        variant: PathVariant,
        route: Route,
        handler: Handler,
        home: RouterValue,
        levels: list[_Level],
        known: bool,
    ) -> dict[str, Any]:
        # An unmodeled inline handler keeps the enclosing node's id (see `_note_handler`).
        fact = route_decl(
            "ANY" if method == "ALL" else method,
            variant,
            route.place,
            (handler.qualified, handler.usr),
            known,
            self.service,
            route.place.path in self.tests,
        )
        if variant.catch_all_prefix and "usr" in fact["symbol"]:
            fact["catchAllPrefix"] = True
        matcher = _trailing_slash_router(home, levels)
        if matcher is None:
            if variant.trailing_slash_strict:
                fact["trailingSlash"] = "strict"
        elif matcher.options_known or variant.trailing_slash_strict:
            strict = matcher.strict or variant.trailing_slash_strict
            fact["trailingSlash"] = "strict" if strict else "optional"
        if _case_insensitive(home, levels):
            fact["caseInsensitive"] = True
        if route.narrowed or any(level.router.narrowed for level in levels):
            fact["narrowed"] = True
        return fact


def _trailing_slash_router(home: RouterValue, levels: list[_Level]) -> RouterValue | None:
    """The router whose `strict` option decides whether a trailing `/` is ignored.

    Hono's app that receives the request reads the path (hono@4.13.19 hono-base.js:
    `this.getPath = strict ?? true ? getPath : getPathNoStrict` in the constructor, used
    by `#dispatch`), and `route(path, sub)` copies the sub-app's routes into that app's
    router: a sub-app's own `strict` never counts (run: a default sub-app mounted on
    `new Hono({ strict: false })` answers `/x/`; a `strict: false` one on a default app
    does not). An app mounted where nothing proves is received by an app out of view
    (None). Express, Koa and Fastify routers match with their own options.
    """
    if home.framework != "hono":
        return home
    receiving = levels[0]
    return receiving.router if receiving.prefix is not None else None


def _served_variants(variants: list[PathVariant], home: RouterValue) -> list[PathVariant]:
    """Drop the templates a router option makes unreachable.

    Fastify with `ignoreTrailingSlash` strips the request's trailing `/` before
    matching (find-my-way 8.2.2 / 9.10.2), so an empty parameter or catch-all
    after a `/` never matches: the oracle saw 404 for `/api/things/` on
    `/api/things/:id` (Fastify 4.29.1). A strict path-to-regexp router (@koa/router
    `strict`, Express `strict routing`) has no optional trailing delimiter, so the
    `x//` form of a `x/` template is not served (@koa/router 13.1.1: 404).
    """
    if home.strict and home.framework in ("express", "koa"):
        variants = strict_variants(variants)
    if home.framework == "fastify" and not home.strict:
        return [v for v in variants if v.template == "/" or not v.template.endswith("/")]
    return variants


_PATTERN_CHARACTERS = frozenset("*:?()[]{}+")


def _literal_prefix(raw: str) -> str:
    """The segments of a mount pattern before the first one a router reads as a pattern.

    A use() path is a route pattern in every modelled router (Hono `/x/*`, Express
    `/users/:id`), so only its literal head bounds what the middleware answers.
    """
    segments = raw.split("/")
    for index, segment in enumerate(segments):
        if _PATTERN_CHARACTERS & set(segment):
            return "/".join(segments[:index])
    return raw


def _case_insensitive(home: RouterValue, levels: list[_Level]) -> bool:
    # Express matches mount prefixes with the mounting router's setting (checked on
    # Express 4.22.3 / 5.2.1: a case-sensitive router under `/st` still answers `/ST/s`),
    # so only a chain of insensitive routers proves it. Hono is always case-sensitive.
    if home.framework == "hono":
        return False
    if home.framework == "fastify":
        return not home.case_sensitive
    return all(not level.router.case_sensitive for level in levels)


def _unproven(prefix: str) -> PathVariant:
    """A path the interpreter could not prove: anything under the known prefix."""
    base = canonicalize(prefix.rstrip("/") or "/")
    scope = None
    if prefix.strip("/") and not base.dynamic and "{" not in base.channel:
        scope = base.channel
    channel = "" if base.channel == "/" else base.channel
    return PathVariant(channel + "/{**}", dynamic=True, dynamic_scope=scope)


def limitation_lines(out: Output) -> tuple[list[str], list[dict[str, Any]]]:
    """The limitation lines of the scan's gaps, with the scopes that bound them."""
    lines = Limitations()
    add = lines.add
    order_and_prefix_lines(out, lines, "a mount prefix or router")
    breakdown_line(
        lines,
        "route-coverage:",
        out.collisions,
        "route fact(s) answer the same method and path as another registration of "
        "their router and are left out",
    )
    conditional_line(out, lines)
    other_methods_line(out, lines, prefix_scope(sorted(set(out.other_templates))))
    for kind, name, prefix in sorted(
        set(out.provided), key=lambda item: (item[0], item[1], item[2] or "")
    ):
        where = prefix or "an unresolved prefix"
        if kind == "static":
            provided_line(
                lines, f"static files are served under {where} ({name})", prefix, files=True
            )
        else:
            line = f"package middleware or plugin {name} may answer under {where}"
            provided_line(lines, line, prefix, files=False)
    missing_usrs_line(out, lines, "come from outside the project")
    if out.unmodeled:
        add(
            counted(
                "framework-dispatch-unmodeled:",
                len(out.unmodeled),
                "inline handler(s) have no graph node of their own; facts name the enclosing code",
                names=out.unmodeled,
            )
        )
    return lines.lines, lines.scopes

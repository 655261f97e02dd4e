"""One built graph, held in the form questions read: numbered symbols and per-symbol edge lists.

The command line builds (or loads from the cache) one graph per run; the MCP
server builds one at the first question and holds it for the session. Both
read it through this class, so one question about one build gets one answer.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

import orjson

from tsograph.producers.graph.indexed import IndexedGraph
from tsograph.producers.graph.model import EVIDENCE_ORDER
from tsograph.producers.graph.model import EdgeSite
from tsograph.producers.graph.model import Graph
from tsograph.producers.graph.model import Relation
from tsograph.producers.graph.model import Site
from tsograph.producers.graph.model import TypeDeclaration

# Limitation prefixes that say nothing about whether a list is complete: calls
# linked by flow or candidates (their edges are listed with their tier), and
# calls into packages, which never reach a project symbol.
NOT_GAPS = ("bound-dispatch:", "candidate-dispatch:", "missing-dependencies:")
# Gaps after which the build itself is partial: files or configs it did not read whole.
PARTIAL = (
    "parse-errors:",
    "graph-config:",
    "scan-truncated:",
    "skipped-symlinks:",
    "oversized-sources:",
    "unreadable-sources:",
)


def edge_id(source: str, target: str, evidence: str) -> str:
    """A stable name of an edge: its two ends and its tier, as URL-safe base64 of JSON."""
    payload = orjson.dumps([source, target, evidence])
    return "e." + base64.urlsafe_b64encode(payload).decode("ascii").rstrip("=")


def parse_edge_id(text: str) -> tuple[str, str, str] | None:
    if not text.startswith("e."):
        return None
    body = text[2:]
    try:
        value = orjson.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    except (ValueError, orjson.JSONDecodeError):
        return None
    if (
        isinstance(value, list)
        and len(value) == 3
        and all(isinstance(part, str) for part in value)
        and value[2] in EVIDENCE_ORDER
    ):
        return value[0], value[1], value[2]
    return None


def declaration_name(node_id: str) -> str:
    """The declaration path of an id (`src/a.ts#Repo.save` -> `Repo.save`)."""
    return node_id.partition("#")[2]


def short_name(node_id: str) -> str:
    """The last segment of the declaration path (`Repo.save` -> `save`)."""
    return declaration_name(node_id).rpartition(".")[2]


@dataclass
class HeldGraph:
    graph: IndexedGraph
    limitations: list[str]
    mode_limitations: Mapping[str, list[str]] | None
    statistics: Mapping[str, int]
    build: str  # the graph revision
    mode: str  # "built" or "cached"
    root: Path | None  # the source root, for packages (None: no files to read)
    project: Path | None = None  # the --project folder, for route labels
    project_rel: str = ""
    # Per symbol number: the numbers of the edges into it and out of it.
    incoming: list[list[int]] = field(default_factory=list)
    outgoing: list[list[int]] = field(default_factory=list)
    later_edits: Callable[[], bool] = lambda: False
    # Per edge number: its call sites (in the order of graph.edges).
    sites: list[tuple[EdgeSite, ...]] = field(default_factory=list)
    # The relations by the id at each end, and the declared types by id.
    relations_in: dict[str, list[Relation]] = field(default_factory=dict)
    relations_out: dict[str, list[Relation]] = field(default_factory=dict)
    types: dict[str, TypeDeclaration] = field(default_factory=dict)
    platform: str = "js"
    # The kept build this is (its folder name; "" when not kept) and what it read.
    kept_name: str = ""
    read_set: dict[str, Any] = field(default_factory=dict)
    # Things the reader should know about how this build was reached (a kept build refused).
    notices: list[str] = field(default_factory=list)
    _routes: dict[str, tuple[str, ...]] | None = None

    @classmethod
    def of(
        cls,
        graph: Graph,
        build: str,
        mode: str,
        root: Path | None,
        project: Path | None = None,
        project_rel: str = "",
    ) -> HeldGraph:
        indexed = IndexedGraph.from_graph(graph)
        incoming: list[list[int]] = [[] for _ in indexed.ids]
        outgoing: list[list[int]] = [[] for _ in indexed.ids]
        for number, (source, target) in enumerate(
            zip(indexed.sources, indexed.targets, strict=True)
        ):
            outgoing[source].append(number)
            incoming[target].append(number)
        relations_in: dict[str, list[Relation]] = {}
        relations_out: dict[str, list[Relation]] = {}
        for relation in graph.relations:
            relations_in.setdefault(relation.target, []).append(relation)
            relations_out.setdefault(relation.source, []).append(relation)
        return cls(
            indexed,
            list(graph.limitations),
            graph.mode_limitations,
            dict(graph.statistics),
            build,
            mode,
            root,
            project,
            project_rel,
            incoming,
            outgoing,
            sites=[edge.sites for edge in graph.edges],
            relations_in=relations_in,
            relations_out=relations_out,
            types={declared.id: declared for declared in graph.types},
            platform=graph.platform,
        )

    def tier(self, edge: int) -> str:
        return EVIDENCE_ORDER[self.graph.ranks[edge]]

    def location(self, number: int) -> Mapping[str, Any]:
        return self.graph.locations[number] or {}

    def type_symbol(self, type_id: str) -> dict[str, Any]:
        """An interface or type alias as answers show a symbol (it is no graph node)."""
        declared = self.types[type_id]
        path, line, column = declared.site
        return {
            "id": type_id,
            "name": declaration_name(type_id),
            "kind": declared.kind,
            "file": path,
            "line": line,
            "column": column,
        }

    def any_symbol(self, symbol_id: str) -> dict[str, Any]:
        """A node or a declared type by id; an id that is neither is shown by its parts."""
        number = self.graph.index.get(symbol_id)
        if number is not None and self.graph.is_node(number):
            return self.symbol(number)
        if symbol_id in self.types:
            return self.type_symbol(symbol_id)
        return {"id": symbol_id, "name": declaration_name(symbol_id), "kind": None}

    def symbol(self, number: int) -> dict[str, Any]:
        """A symbol as answers show it."""
        node_id = self.graph.ids[number]
        location = self.location(number)
        record: dict[str, Any] = {
            "id": node_id,
            "name": declaration_name(node_id),
            "kind": self.graph.kinds[number],
            "file": location.get("path", node_id.partition("#")[0]),
            "line": location.get("line"),
            "column": location.get("column"),
        }
        entries = self.graph.entries.get(number)
        if entries:
            record["entries"] = sorted(entries)
        return record

    def edge_item(self, edge: int, depth: int) -> dict[str, Any]:
        graph = self.graph
        source, target = graph.sources[edge], graph.targets[edge]
        tier = self.tier(edge)
        return {
            "edge": edge_id(graph.ids[source], graph.ids[target], tier),
            "from": graph.ids[source],
            "to": graph.ids[target],
            "fromName": declaration_name(graph.ids[source]),
            "toName": declaration_name(graph.ids[target]),
            "fromAt": _at(self.location(source)),
            "toAt": _at(self.location(target)),
            "kinds": sorted(graph.edge_kinds[edge]),
            "tier": tier,
            "depth": depth,
            # The first call site, and every one: one edge stands for each call of the
            # same target in the same declaration.
            "site": _edge_place(self.sites[edge][0]) if self.sites and self.sites[edge] else None,
            "sites": [_edge_place(site) for site in self.sites[edge]] if self.sites else [],
        }

    def gap_lines(self, mode: str) -> list[str]:
        lines = (
            self.mode_limitations[mode] if self.mode_limitations is not None else self.limitations
        )
        return [line for line in lines if not line.startswith(NOT_GAPS) and _count(line) != 0]

    def status(self) -> str:
        return "partial" if any(line.startswith(PARTIAL) for line in self.limitations) else "ok"

    def set_routes(self, labels: Mapping[str, list[str]]) -> None:
        """The route labels read when the build was made (a kept build holds them)."""
        self._routes = {key: tuple(found) for key, found in labels.items()}

    def routes(self) -> dict[str, tuple[str, ...]]:
        """`METHOD /path` labels per route handler id, read once per held build."""
        if self._routes is None:
            from tsograph.producers.diagrams.route_labels import route_labels

            self._routes = (
                {} if self.project is None else route_labels(self.project, self.project_rel)
            )
        return self._routes


def _place(site: Site) -> dict[str, Any]:
    return {"file": site[0], "line": site[1], "column": site[2]}


def _edge_place(site: EdgeSite) -> dict[str, Any]:
    return {"file": site[0], "line": site[1], "column": site[2], "kind": site[3]}


def relation_site(relation: Relation) -> dict[str, Any]:
    return _place(relation.site)


def _at(location: Mapping[str, Any]) -> str | None:
    if "path" not in location:
        return None
    return f"{location['path']}:{location.get('line')}:{location.get('column')}"


def _count(line: str) -> int | None:
    """The count a `prefix: N text` limitation line states."""
    parts = line.split(" ", 2)
    if len(parts) >= 2 and parts[1].isdigit():
        return int(parts[1])
    return None


def causes(lines: list[str]) -> dict[str, int]:
    found: dict[str, int] = {}
    for line in lines:
        count = _count(line)
        if count is not None:
            prefix = line.split(" ", 1)[0].rstrip(":")
            found[prefix] = found.get(prefix, 0) + count
    return dict(sorted(found.items()))

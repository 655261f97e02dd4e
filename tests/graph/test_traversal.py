"""The multi-source traversal against a naive per-root algorithm, and its documented edge cases."""

from __future__ import annotations

import os
from collections import deque
from typing import Any

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from tsograph.producers.graph import traversal
from tsograph.producers.graph.model import EVIDENCE_ORDER
from tsograph.producers.graph.model import MODE_TIERS
from tsograph.producers.graph.model import Edge
from tsograph.producers.graph.model import Graph
from tsograph.producers.graph.model import Node
from tsograph.producers.graph.traversal import traverse

LOCATION = {"path": "a.ts", "line": 1, "column": 1}


def make_graph(node_count: int, edges: list[tuple[int, int, str, str]], prefix: str = "") -> Graph:
    """Nodes `<prefix>n00`, `<prefix>n01`, …; a prefix such as `a.ts#` makes them symbol ids."""
    names = [f"{prefix}n{i:02d}" for i in range(node_count)]
    nodes = {name: Node(name, "function", LOCATION) for name in names}
    return Graph(nodes, [Edge(names[a], names[b], (kind,), tier) for a, b, tier, kind in edges])


def bfs(adjacency: dict[str, set[str]], start: str, limit: int) -> dict[str, int]:
    distance = {start: 0}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        if distance[node] == limit:
            continue
        for nxt in sorted(adjacency.get(node, ())):
            if nxt not in distance:
                distance[nxt] = distance[node] + 1
                queue.append(nxt)
    return distance


def naive(graph: Graph, roots: list[str], direction: str, mode: str, depth: int) -> dict[str, Any]:
    """One BFS per root and per tier: the definition, without any cleverness."""

    def adjacency(tiers: tuple[str, ...]) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for e in graph.edges:
            if e.evidence in tiers:
                a, b = (e.target, e.source) if direction == "dependents" else (e.source, e.target)
                out.setdefault(a, set()).add(b)
        return out

    tiers = MODE_TIERS[mode]
    full = adjacency(tiers)
    per_root = [bfs(full, root, depth) for root in roots]
    per_tier = [
        [bfs(adjacency(tiers[: k + 1]), r, depth) for r in roots] for k in range(len(tiers))
    ]
    result: dict[str, Any] = {}
    for node in graph.nodes:
        reaching = {i: d[node] for i, d in enumerate(per_root) if node in d and roots[i] != node}
        if not reaching:
            continue
        best = min(reaching.values())
        nearest = min(i for i, d in reaching.items() if d == best)
        via = min(
            p
            for p in graph.nodes
            if node in full.get(p, set()) and per_root[nearest].get(p) == best - 1
        )
        strongest = [min(k for k in range(len(tiers)) if node in per_tier[k][i]) for i in reaching]
        result[node] = {
            "depth": best,
            "via": via,
            "roots": sorted(reaching),
            "evidence": EVIDENCE_ORDER[max(strongest)],
        }
    return result


edge_lists = st.lists(
    st.tuples(
        st.integers(0, 11),
        st.integers(0, 11),
        st.sampled_from(EVIDENCE_ORDER),
        st.sampled_from(["call", "new", "jsx"]),
    ),
    max_size=40,
)


# 300 examples in CI; TSOGRAPH_TRAVERSAL_EXAMPLES=5000 for the thorough run by hand.
@settings(max_examples=int(os.environ.get("TSOGRAPH_TRAVERSAL_EXAMPLES", "300")), deadline=None)
@given(
    edge_lists,
    st.lists(st.integers(0, 11), min_size=1, max_size=5),
    st.sampled_from(["dependencies", "dependents"]),
    st.sampled_from(["direct", "bound", "candidates"]),
    st.integers(1, 5),
)
def test_matches_the_per_root_algorithm(
    edges: list[tuple[int, int, str, str]],
    root_numbers: list[int],
    direction: str,
    mode: str,
    depth: int,
) -> None:
    graph = make_graph(12, edges)
    roots = list(dict.fromkeys(f"n{i:02d}" for i in root_numbers))
    got = traverse(graph, roots, direction=direction, mode=mode, max_depth=depth)
    expected = naive(graph, roots, direction, mode, depth)
    assert {item["symbol"]["usr"] for item in got.reached} == set(expected)
    for item in got.reached:
        want = expected[item["symbol"]["usr"]]
        assert item["depth"] == want["depth"]
        assert item["via"] == want["via"]
        assert item["roots"] == want["roots"]
        assert item["evidence"] == want["evidence"]
    order = [(item["depth"], item["symbol"]["usr"]) for item in got.reached]
    assert order == sorted(order)


def chain(tiers: list[str]) -> Graph:
    return make_graph(len(tiers) + 1, [(i, i + 1, t, "call") for i, t in enumerate(tiers)])


def test_depth_budget_cuts_and_says_so() -> None:
    graph = chain(["direct"] * 5)
    cut = traverse(graph, ["n00"], direction="dependencies", mode="direct", max_depth=2)
    assert [item["symbol"]["usr"] for item in cut.reached] == ["n01", "n02"]
    assert cut.truncation_reasons == {"depth"}
    whole = traverse(graph, ["n00"], direction="dependencies", mode="direct", max_depth=5)
    assert whole.truncation_reasons == set()


def test_max_reached_keeps_the_first_by_depth_and_id() -> None:
    graph = make_graph(5, [(0, i, "direct", "call") for i in range(1, 5)])
    cut = traverse(graph, ["n00"], direction="dependencies", mode="direct", max_reached=2)
    assert [item["symbol"]["usr"] for item in cut.reached] == ["n01", "n02"]
    assert cut.truncation_reasons == {"max-reached"}


def test_modes_select_tiers_and_evidence_is_per_root_lower_bound() -> None:
    graph = make_graph(
        4,
        [
            (0, 1, "direct", "call"),
            (1, 2, "bound", "call"),
            (2, 3, "candidate", "call"),
            (3, 2, "direct", "call"),
        ],
    )
    direct = traverse(graph, ["n00"], direction="dependencies", mode="direct")
    assert [i["symbol"]["usr"] for i in direct.reached] == ["n01"]
    bound = traverse(graph, ["n00"], direction="dependencies", mode="bound")
    assert [(i["symbol"]["usr"], i["evidence"]) for i in bound.reached] == [
        ("n01", "direct"),
        ("n02", "bound"),
    ]
    both = traverse(graph, ["n00", "n03"], direction="dependencies", mode="candidates")
    evidence = {i["symbol"]["usr"]: i["evidence"] for i in both.reached}
    # n02 is reached by n03 directly but by n00 only through a bound edge.
    assert evidence == {"n01": "direct", "n02": "bound", "n03": "candidate"}


def test_root_reached_from_another_root_is_listed_without_its_own_index() -> None:
    graph = make_graph(
        3, [(0, 1, "direct", "call"), (1, 2, "direct", "call"), (2, 1, "direct", "call")]
    )
    result = traverse(graph, ["n00", "n01"], direction="dependencies", mode="direct")
    listed = {i["symbol"]["usr"]: i for i in result.reached}
    assert listed["n01"]["roots"] == [0] and listed["n01"]["via"] == "n00"
    assert listed["n02"]["roots"] == [0, 1]
    alone = traverse(graph, ["n01"], direction="dependencies", mode="direct")
    assert [i["symbol"]["usr"] for i in alone.reached] == ["n02"]


def test_impact_walks_edges_backwards() -> None:
    graph = chain(["direct", "direct"])
    result = traverse(graph, ["n02"], direction="dependents", mode="direct")
    assert [(i["symbol"]["usr"], i["via"]) for i in result.reached] == [
        ("n01", "n02"),
        ("n00", "n01"),
    ]


def test_missing_roots_are_kept_in_place_and_reported() -> None:
    graph = chain(["direct"])
    result = traverse(
        graph,
        ["x.ts#nope", "n00", "n00", "s.prisma#model:Job"],
        direction="dependencies",
        mode="direct",
    )
    assert [root["id"] for root in result.roots] == ["x.ts#nope", "n00", "s.prisma#model:Job"]
    assert "symbol" not in result.roots[0] and "symbol" in result.roots[1]
    assert result.missing_roots == ["x.ts#nope", "s.prisma#model:Job"]
    assert result.truncation_reasons == {"root-not-found"}
    assert result.limitations == [
        "root-not-found: 2 root id(s) are not graph nodes and were not traversed "
        "(declaration-ids: 1, unknown-ids: 1)"
    ]
    # Roots are indexed in first-seen order, so n00 keeps index 1.
    assert result.reached[0]["roots"] == [1]


def test_many_roots_keep_the_smallest_64_indices() -> None:
    count = 70
    edges = [(i, count, "direct", "call") for i in range(count)] + [
        (count, count + 1, "direct", "call")
    ]
    graph = make_graph(count + 2, edges)
    roots = [f"n{i:02d}" for i in range(count)]
    result = traverse(graph, roots, direction="dependencies", mode="direct")
    for item in result.reached:
        assert item["roots"] == list(range(64))
        assert item.get("rootsTruncated") is True
    assert result.truncation_reasons == set()


def test_unresolved_counts_are_per_mode_and_capped() -> None:
    graph = chain(["direct"])
    graph.nodes["n01"] = Node("n01", "function", LOCATION, (), {"direct": 3, "bound": 2_000_000})
    graph.nodes["n00"] = Node("n00", "function", LOCATION, ("page",), {"direct": 1})
    direct = traverse(graph, ["n00"], direction="dependencies", mode="direct")
    assert direct.roots[0]["unresolvedCalls"] == 1
    assert direct.reached[0]["unresolvedCalls"] == 3
    assert any(line.startswith("non-http-entries: 1 ") for line in direct.limitations)
    bound = traverse(graph, ["n00"], direction="dependencies", mode="bound")
    assert "unresolvedCalls" not in bound.roots[0]
    assert bound.reached[0]["unresolvedCalls"] == 1_000_000
    assert any(line.startswith("unresolved-calls-capped: 1 ") for line in bound.limitations)


def test_evidence_falls_back_to_a_lower_bound_when_bits_would_be_too_many(
    monkeypatch: Any,
) -> None:
    graph = make_graph(
        4, [(0, 1, "direct", "call"), (1, 2, "bound", "call"), (0, 2, "direct", "call")]
    )
    monkeypatch.setattr(traversal, "EXACT_EVIDENCE_BYTES", 0)
    result = traverse(graph, ["n00"], direction="dependencies", mode="bound")
    evidence = {i["symbol"]["usr"]: i["evidence"] for i in result.reached}
    # Exact evidence for n02 is direct; the fallback may only understate it.
    assert evidence == {"n01": "direct", "n02": "bound"}
    assert any(line.startswith("evidence-approximated: 2 ") for line in result.limitations)


@settings(max_examples=int(os.environ.get("TSOGRAPH_TRAVERSAL_EXAMPLES", "300")), deadline=None)
@given(
    edge_lists,
    st.lists(st.integers(0, 11), min_size=1, max_size=8),
    st.sampled_from(["dependencies", "dependents"]),
    st.sampled_from(["direct", "bound", "candidates"]),
    st.one_of(st.integers(1, 8), st.just(128)),
)
def test_condensed_passes_match_the_level_pass_and_the_definition(
    edges: list[tuple[int, int, str, str]],
    root_numbers: list[int],
    direction: str,
    mode: str,
    depth: int,
) -> None:
    """The component and two-nearest passes, forced on with few roots, change nothing."""
    graph = make_graph(12, edges)
    roots = list(dict.fromkeys(f"n{i:02d}" for i in root_numbers))
    level = traverse(graph, roots, direction=direction, mode=mode, max_depth=depth)
    default = traversal.CONDENSED_MIN_ROOTS
    traversal.CONDENSED_MIN_ROOTS = 1
    try:
        condensed = traverse(graph, roots, direction=direction, mode=mode, max_depth=depth)
    finally:
        traversal.CONDENSED_MIN_ROOTS = default
    assert condensed == level
    expected = naive(graph, roots, direction, mode, depth)
    assert {item["symbol"]["usr"]: item["via"] for item in condensed.reached} == {
        usr: want["via"] for usr, want in expected.items()
    }

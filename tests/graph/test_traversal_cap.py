"""The 65-index cap against the per-root definition, with more roots than the cap.

tests/graph/test_traversal.py checks the one-pass traversal with a handful of
roots; here 66 to 100 roots meet on small graphs, so symbols hold the cap,
indices are stopped, and a root beyond the cap can be the nearest one.
"""

from __future__ import annotations

import os

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from tests.graph.test_traversal import LOCATION
from tests.graph.test_traversal import make_graph
from tests.graph.test_traversal import naive
from tsograph.producers.graph.model import EVIDENCE_ORDER
from tsograph.producers.graph.traversal import traverse

NODES = 100


def check(
    graph_edges: list[tuple[int, int, str, str]], roots: list[str], **options: str | int
) -> None:
    graph = make_graph(NODES, graph_edges)
    direction, mode, depth = options["direction"], options["mode"], options["depth"]
    assert isinstance(direction, str) and isinstance(mode, str) and isinstance(depth, int)
    got = traverse(graph, roots, direction=direction, mode=mode, max_depth=depth)
    expected = naive(graph, roots, direction, mode, depth)
    assert {item["symbol"]["usr"] for item in got.reached} == set(expected)
    for item in got.reached:
        want = expected[item["symbol"]["usr"]]
        reaching = want["roots"]
        assert item["depth"] == want["depth"]
        assert item["via"] == want["via"]
        assert item["roots"] == reaching[:64]
        assert item.get("rootsTruncated", False) == (len(reaching) > 64)
        assert item["evidence"] == want["evidence"]


# A fifth of test_traversal.py's count: each example here is a larger graph.
@settings(
    max_examples=int(os.environ.get("TSOGRAPH_TRAVERSAL_EXAMPLES", "300")) // 5, deadline=None
)
@given(
    st.lists(
        st.tuples(
            st.integers(0, NODES - 1),
            st.integers(0, NODES - 1),
            st.sampled_from(EVIDENCE_ORDER),
            st.sampled_from(["call", "new"]),
        ),
        min_size=60,
        max_size=260,
    ),
    st.permutations(range(NODES)),
    st.integers(66, NODES),
    st.sampled_from(["dependencies", "dependents"]),
    st.sampled_from(["direct", "bound", "candidates"]),
    # 128 is beyond every distance here: the condensed passes (condensed.py) run.
    st.one_of(st.integers(1, 8), st.just(128)),
)
def test_many_roots_match_the_per_root_algorithm(
    edges: list[tuple[int, int, str, str]],
    order: list[int],
    count: int,
    direction: str,
    mode: str,
    depth: int,
) -> None:
    roots = [f"n{i:02d}" for i in order[:count]]
    check(edges, roots, direction=direction, mode=mode, depth=depth)


def test_a_root_beyond_the_cap_can_be_the_nearest() -> None:
    # Roots 0..64 reach n99 in two steps through n98; root 65 calls n99 directly.
    edges = [(i, 98, "direct", "call") for i in range(65)]
    edges += [(98, 99, "direct", "call"), (65, 99, "direct", "call")]
    roots = [f"n{i:02d}" for i in range(66)]
    graph = make_graph(NODES, edges)
    got = traverse(graph, roots, direction="dependencies", mode="direct")
    item = next(i for i in got.reached if i["symbol"]["usr"] == "n99")
    assert (item["depth"], item["via"], item["roots"][:2]) == (1, "n65", [0, 1])
    assert item["rootsTruncated"] is True
    assert item["symbol"]["location"] == LOCATION


def test_a_root_holding_the_cap_with_its_own_index_sees_roots_stopped_upstream() -> None:
    # n70 is root 0; roots 1..64 and 65 reach it only through n80, which holds
    # 0..64 (0 through the cycle n70 -> n80) and stops 65: n70 still has 65
    # other roots, so its 64 listed ones are truncated.
    edges = [(i, 80, "direct", "call") for i in range(1, 66)]
    edges += [(70, 80, "direct", "call"), (80, 70, "direct", "call")]
    roots = ["n70"] + [f"n{i:02d}" for i in range(1, 66)]
    check(edges, roots, direction="dependencies", mode="direct", depth=128)
    graph = make_graph(NODES, edges)
    got = traverse(graph, roots, direction="dependencies", mode="direct")
    item = next(i for i in got.reached if i["symbol"]["usr"] == "n70")
    assert item["roots"] == list(range(1, 65)) and item["rootsTruncated"] is True

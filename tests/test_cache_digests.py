"""A kept whole result (graph, schema) is keyed by a digest of the code that made it: every
producers package that code imports must be in the digest, or a changed rule reads a
stale result."""

from __future__ import annotations

import pytest

from tests.test_import_cycles import import_graph
from tsograph.producers.graph import project_graph
from tsograph.producers.schema import result_cache

# Packages whose code decides facts; output formatting and argument reading do not.
_DECIDING = ("graph", "lang", "project", "routes", "schema", "values")


def _deciding_imports(start: str) -> set[str]:
    graph = import_graph()
    seen = {start}
    pending = [start]
    while pending:
        for target in graph[pending.pop()]:
            if target not in seen:
                seen.add(target)
                pending.append(target)
    return {
        module.split(".")[2]
        for module in seen
        if len(module.split(".")) > 3 and module.split(".")[2] in _DECIDING
    }


@pytest.mark.parametrize(
    ("result", "digested"),
    [
        ("tsograph.producers.schema.collect_all", result_cache.SCHEMA_CODE),
        ("tsograph.producers.graph.project_graph", project_graph.GRAPH_CODE),
    ],
)
def test_a_kept_result_digests_every_package_it_imports(
    result: str, digested: tuple[str, ...]
) -> None:
    # cache_namespace() covers the front-ends (lang); the rest is the result's own digest.
    assert _deciding_imports(result) <= {"lang", *digested}

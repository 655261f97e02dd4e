"""The spec's reach example, rebuilt as fixtures/graph/next-prisma.

POST /api/jobs calls withAuth (whose check parameter is filled by a package,
so its call stays unresolved in every mode) and createJob, which calls
audit. The reached symbols, their locations and the unresolved-call counts
are the ones the spec's example shows.
"""

from __future__ import annotations

from pathlib import Path

import orjson

from tests.cli_helpers import REPO
from tests.cli_helpers import tsograph
from tests.golden import assert_matches_golden
from tsograph.exchange.validation import validate

PROJECT = REPO / "fixtures" / "graph" / "next-prisma"
AT = "2026-09-27T00:00:00.000Z"
ROOT = "src/app/api/jobs/route.ts#POST"


def test_reach_from_the_route_handler(tmp_path: Path) -> None:
    result = tsograph(
        "reach", "--project", PROJECT, "--cache-dir", tmp_path, "--generated-at", AT, ROOT
    )
    assert result.code == 0, result.stderr
    document = orjson.loads(result.stdout)
    validate(document)
    assert [
        (
            item["depth"],
            item["symbol"]["usr"],
            item["symbol"]["location"]["line"],
            item["symbol"]["location"]["column"],
            item["via"],
            item["evidence"],
            item.get("unresolvedCalls"),
        )
        for item in document["reached"]
    ] == [
        (1, "src/lib/hof.ts#withAuth", 3, 17, ROOT, "direct", 1),
        (1, "src/lib/jobs.ts#createJob", 8, 23, ROOT, "direct", None),
        (2, "src/lib/audit.ts#audit", 3, 23, "src/lib/jobs.ts#createJob", "direct", None),
    ]
    assert (
        "unresolved-calls: 6 call(s) could not be linked to a project declaration and were not "
        "guessed (computed: 1, indirect: 1, interface: 1, parameter: 1, unresolved-import: 1, "
        "untyped: 1)"
    ) in document["limitations"]
    assert_matches_golden(result.stdout, PROJECT / "reach-post.json")


def test_the_handler_is_a_route_handler_entry(tmp_path: Path) -> None:
    result = tsograph("graph", "--project", PROJECT, "--cache-dir", tmp_path, "--generated-at", AT)
    assert result.code == 0, result.stderr
    marks = {
        node["id"]: node["entries"]
        for node in orjson.loads(result.stdout)["nodes"]
        if "entries" in node
    }
    assert marks == {ROOT: ["route-handler"]}

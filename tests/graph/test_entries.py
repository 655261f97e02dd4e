"""Entry points on fixtures/graph/entries: the marks per node, and reach/impact --entry-points.

The graph snapshot golden (expected.json) is compared by test_graph_golden;
here the marks are also listed by hand, so a wrong mark fails with its name.
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.cli_helpers import REPO
from tests.cli_helpers import tsograph
from tests.golden import assert_matches_golden
from tsograph.exchange.validation import validate

ENTRIES = REPO / "fixtures" / "graph" / "entries"
AT = "2026-09-27T00:00:00.000Z"

EXPECTED_MARKS = {
    "src/app/(marketing)/about/loading.tsx#default": ["page"],
    "src/app/actions.ts#createJobAction": ["server-action"],
    "src/app/actions.ts#deleteJobAction": ["server-action"],
    "src/app/api/cron/cleanup/route.ts#GET": ["route-handler", "scheduled"],
    "src/app/api/jobs/route.ts#POST": ["route-handler"],
    "src/app/api/reports/[day]/route.ts#GET": ["route-handler", "scheduled"],
    "src/app/api/reports/[day]/route.ts#POST": ["route-handler"],
    "src/app/blog/opengraph-image.tsx#Image": ["metadata-route"],
    "src/app/icon.tsx#Icon": ["metadata-route"],
    "src/app/icon.tsx#generateImageMetadata": ["metadata-route"],
    "src/app/jobs/[id]/page.tsx#JobPage": ["page"],
    "src/app/jobs/[id]/page.tsx#JobPage.save": ["server-action"],
    "src/app/jobs/[id]/page.tsx#generateStaticParams": ["page"],
    "src/app/jobs/[id]/page.tsx#helper": ["server-action"],
    "src/app/layout.tsx#RootLayout": ["page"],
    "src/app/not-found.tsx#NotFound": ["page"],
    "src/app/page.tsx#Home": ["page"],
    "src/app/page.tsx#generateMetadata": ["page"],
    "src/app/robots.ts#robots": ["metadata-route"],
    "src/app/sitemap.ts#sitemap": ["metadata-route"],
    "src/instrumentation.ts#onRequestError": ["instrumentation"],
    "src/instrumentation.ts#register": ["instrumentation"],
    "src/middleware.ts#middleware": ["middleware"],
    "src/pages/_app.tsx#App": ["page"],
    "src/pages/_app.tsx#reportWebVitals": ["page"],
    "src/pages/api/hello.ts#hello": ["route-handler"],
    "src/pages/legacy.tsx#Legacy": ["page"],
    "src/pages/legacy.tsx#getServerSideProps": ["page"],
}

QUERIES = {
    # Marked roots carry their location; reached handlers, pages and actions their marks.
    "reach-entry-points": (
        "reach",
        "--entry-points",
        "src/app/api/cron/cleanup/route.ts#GET",
        "src/app/page.tsx#Home",
        "src/middleware.ts#middleware",
        "src/lib/jobs.ts#listJobs",
    ),
    "impact-entry-points": (
        "impact",
        "--entry-points",
        "src/lib/audit.ts#audit",
        "src/lib/audit.ts#report",
    ),
    # Without the option: no symbol.entries, the non-http-entries: count all the same.
    "impact-default": ("impact", "src/lib/audit.ts#audit", "src/lib/audit.ts#report"),
}


def _run(tmp_path: Path, *args: str | Path) -> bytes:
    command, *rest = args
    result = tsograph(
        command, "--project", ENTRIES, "--cache-dir", tmp_path, "--generated-at", AT, *rest
    )
    assert result.code == 0, result.stderr
    return result.stdout


def test_each_entry_rule_marks_exactly_its_nodes(tmp_path: Path) -> None:
    snapshot = orjson.loads(_run(tmp_path, "graph"))
    marks = {node["id"]: node["entries"] for node in snapshot["nodes"] if "entries" in node}
    assert marks == EXPECTED_MARKS
    # Not marked: a private folder's page, robots.ts below the app root, test sources,
    # a function whose 'use server' is not in its prologue, middleware's config object.
    ids = {node["id"] for node in snapshot["nodes"]}
    for unmarked in (
        "src/app/_components/page.tsx#JobCard",
        "src/app/blog/robots.ts#notRobots",
        "src/app/page.test.tsx#renderHome",
        "src/app/api/jobs/route.test.ts#check",
        "src/app/jobs/[id]/page.tsx#JobPage.notAnAction",
        "src/middleware.ts#config",
    ):
        assert unmarked in ids and unmarked not in marks
    assert (
        "entry-points: 1 entry point(s) could not be marked "
        "(cron-path-without-handler: 1, vercel.json)"
    ) in snapshot["limitations"]


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_traversal_matches_golden(name: str, tmp_path: Path) -> None:
    output = _run(tmp_path, *QUERIES[name])
    validate(orjson.loads(output))
    assert_matches_golden(output, ENTRIES / f"{name}.json")


def test_entry_points_add_marks_and_root_locations_only(tmp_path: Path) -> None:
    command, option, *ids = QUERIES["reach-entry-points"]
    assert option == "--entry-points"
    plain = orjson.loads(_run(tmp_path, command, *ids))
    marked = orjson.loads(_run(tmp_path, command, option, *ids))
    assert plain["limitations"] == marked["limitations"]
    assert any(line.startswith("non-http-entries: ") for line in plain["limitations"])
    roots = {root["id"]: root["symbol"] for root in marked["roots"]}
    assert roots["src/app/page.tsx#Home"]["entries"] == ["page"]
    assert roots["src/app/page.tsx#Home"]["location"]["path"] == "src/app/page.tsx"
    # An unmarked root gets neither entries nor a location.
    assert set(roots["src/lib/jobs.ts#listJobs"]) == {"usr", "qualifiedName"}
    for document in (plain, marked):
        for root, item in zip(plain["roots"], document["roots"], strict=True):
            assert root["id"] == item["id"]
    stripped = [
        {**item, "symbol": {k: v for k, v in item["symbol"].items() if k != "entries"}}
        for item in marked["reached"]
    ]
    assert stripped == plain["reached"]
    assert not any("entries" in item["symbol"] for item in plain["reached"])


def test_saved_snapshot_keeps_the_marks(tmp_path: Path) -> None:
    snapshot = tmp_path / "graph.json"
    snapshot.write_bytes(_run(tmp_path, "graph"))
    args = QUERIES["reach-entry-points"]
    saved = tsograph(args[0], "--graph-file", snapshot, "--generated-at", AT, *args[1:])
    assert saved.code == 0, saved.stderr
    live = orjson.loads(_run(tmp_path, *args))
    assert orjson.loads(saved.stdout)["reached"] == live["reached"]
    assert orjson.loads(saved.stdout)["roots"] == live["roots"]

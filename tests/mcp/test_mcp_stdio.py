"""`tsograph mcp` as an agent runs it: a subprocess driven by the `mcp` SDK's own stdio client."""

from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import orjson
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters
from mcp.client.stdio import stdio_client

from tests.cli_helpers import REPO
from tests.cli_helpers import tsograph
from tsograph.producers.project.walk import walk
from tsograph.producers.query.questions import QUESTIONS

FIXTURE = REPO / "fixtures" / "graph" / "basics"
NEW_CALLER = "\nexport function recount() {\n  return listJobs().length;\n}\n"


def _answer(result: Any) -> tuple[dict[str, Any], bool]:
    document = orjson.loads(result.content[0].text)
    assert result.structured_content == document
    return document, result.is_error


def _without_mode(document: dict[str, Any]) -> dict[str, Any]:
    """The build mode says whether this process built or loaded the graph; the rest is equal."""
    return {**document, "graph": {**document["graph"], "mode": None}}


def test_the_server_answers_pages_refuses_and_refreshes(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURE, repo, ignore=shutil.ignore_patterns("expected.json"))
    cache = tmp_path / "cache"
    parameters = StdioServerParameters(
        command=sys.executable,
        args=["-m", "tsograph", "mcp", "--repo", str(repo), "--cache-dir", str(cache)],
        env={"PYTHONPATH": str(REPO)},
        cwd=str(tmp_path),
    )
    seen: dict[str, Any] = {}
    reports: list[tuple[float, float | None, str | None]] = []
    leases: list[Path] = []

    async def progress(done: float, total: float | None, message: str | None) -> None:
        reports.append((done, total, message))

    async def drive() -> None:
        async with (
            stdio_client(parameters) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            tools = {tool.name for tool in (await session.list_tools()).tools}
            assert tools == {f"graph_{q}" for q in QUESTIONS} | {"graph_refresh"}

            # Refused before anything is read: no build yet, so the answer names none.
            for tool, arguments in [
                ("graph_callers", {"symbol": "../outside.ts:3"}),
                ("graph_outline", {"file": "/etc"}),
                ("graph_callers", {"symbol": "listJobs", "repo": "/elsewhere"}),
            ]:
                document, failed = _answer(await session.call_tool(tool, arguments))
                assert failed and document["error"]["code"] == "outside-repository"
                assert document["graph"] is None

            document, failed = _answer(
                await session.call_tool(
                    "graph_callers", {"symbol": "listJobs"}, progress_callback=progress
                )
            )
            assert not failed
            seen["first"] = document
            leases.extend(cache.glob("builds/*/leases/*.json"))
            build = document["graph"]["build"]

            # Every question answers, or is a tool error naming why.
            for question in QUESTIONS:
                arguments = {
                    "search": {"text": "job"},
                    "symbol": {"symbol": "listJobs"},
                    "callers": {"symbol": "listJobs"},
                    "callees": {"symbol": "listJobs"},
                    "path": {"symbol": "JobList", "to": "all"},
                    "impact": {"symbol": "listJobs"},
                    "routes": {"symbol": "listJobs"},
                    "outline": {"file": "src/lib"},
                    "explain": {"id": seen["first"]["items"][0]["edge"]},
                    "implementers": {"symbol": "Repo"},
                    "references": {"symbol": "Repo"},
                    "tests": {"symbol": "listJobs"},
                    "importers": {"file": "src/lib/jobs.ts"},
                }.get(question, {})
                document, failed = _answer(await session.call_tool(f"graph_{question}", arguments))
                assert failed == (document["error"] is not None)
                seen[question] = (document, failed)

            document, failed = _answer(await session.call_tool("graph_callers", {"symbol": "save"}))
            assert not failed and len(document["candidates"]) == 2

            # Pages with a cursor make the whole list.
            whole, _ = _answer(
                await session.call_tool("graph_callers", {"symbol": "listJobs", "depth": 2})
            )
            items, cursor = [], None
            while True:
                arguments: dict[str, Any] = {"symbol": "listJobs", "depth": 2, "limit": 3}
                if cursor:
                    arguments["cursor"] = cursor
                page, failed = _answer(await session.call_tool("graph_callers", arguments))
                assert not failed
                items += page["items"]
                cursor = page["truncated"]["cursor"]
                if cursor is None:
                    break
            assert items == whole["items"] and len(items) > 3

            # An edit shows as laterEditsKnown (checked at most once a second), then refresh.
            with (repo / "src" / "lib" / "jobs.ts").open("a", encoding="utf-8") as source:
                source.write(NEW_CALLER)
            time.sleep(1.1)
            document, _ = _answer(await session.call_tool("graph_status", {}))
            assert document["graph"]["freshness"]["laterEditsKnown"] is True
            assert document["graph"]["build"] == build
            document, failed = _answer(await session.call_tool("graph_refresh", {}))
            assert not failed and document["graph"]["build"] != build
            assert document["graph"]["freshness"]["laterEditsKnown"] is False
            document, _ = _answer(await session.call_tool("graph_callers", {"symbol": "listJobs"}))
            assert "src/lib/jobs.ts#recount" in {item["from"] for item in document["items"]}

    anyio.run(drive)

    # The first build reported each parsed source, counting up to all of them.
    sources = len(walk(FIXTURE).sources)
    assert sources > 1 and [done for done, _, _ in reports] == list(range(1, sources + 1))
    assert {(total, message) for _, total, message in reports} == {(sources, "parsing sources")}
    # The server held its build with a lease while connected and let go when the client left.
    assert len(leases) == 1 and leases[0].name.split("-")[0] != str(os.getpid())
    assert not leases[0].exists()

    # The same JSON as `query --json` on the same build.
    (repo / "src" / "lib" / "jobs.ts").write_bytes((FIXTURE / "src/lib/jobs.ts").read_bytes())
    cli = tsograph("query", "callers", "listJobs", "--project", repo, "--no-cache", "--json")
    assert _without_mode(orjson.loads(cli.stdout)) == _without_mode(seen["first"])
    answered = {q for q, (_, failed) in ((q, seen[q]) for q in QUESTIONS) if not failed}
    assert answered == {
        "status",
        "capabilities",
        "search",
        "symbol",
        "callees",
        "path",
        "impact",
        "routes",
        "outline",
        "packages",
        "cycles",
        "unknowns",
        "explain",
        "callers",
        "implementers",
        "references",
        "tests",
        "importers",
    }
    # The same answers as the command line gives for the relation questions.
    for question, words in [
        ("implementers", ["Repo"]),
        ("references", ["Repo"]),
        ("importers", ["src/lib/jobs.ts"]),
    ]:
        cli = tsograph("query", question, *words, "--project", repo, "--no-cache", "--json")
        assert _without_mode(orjson.loads(cli.stdout))["items"] == seen[question][0]["items"]
    document, failed = seen["changes"]
    assert failed and document["error"]["code"] == "bad-request"  # no base named
    assert os.listdir(cache)  # the held build was kept in the graph cache

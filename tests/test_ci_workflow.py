"""The example GitHub Actions workflow, its shell steps run here on a fixture service.

GitHub runs a `shell: bash` step as `bash --noprofile --norc -eo pipefail`
with the job's and the step's env; this test does the same with each `run:`
step in order, in a copy of fixtures/graph/next-prisma (a Next.js app with a
Prisma schema). Two things differ, both outside the steps' text: the install
step is left out (it would fetch tsograph from the network; here `tsograph` on
PATH runs this checkout), and RUNNER_TEMP and GITHUB_STEP_SUMMARY point into
the test's folder. `uses:` steps (checkout, setup-python, upload-artifact) are
GitHub's own and are not run. The last step, `tsograph check`, passes on the
fixture as it is and fails the job (exit 3, a GitHub annotation) once the
checkout holds a request no route answers, or a migration that lacks a column
the code uses.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
from ruamel.yaml import YAML

from tests.cli_helpers import REPO

WORKFLOW = REPO / "examples" / "github-actions" / "tsograph.yml"
SERVICE = REPO / "fixtures" / "graph" / "next-prisma"


def _workflow() -> dict[str, Any]:
    loaded: dict[str, Any] = YAML(typ="safe").load(WORKFLOW.read_text(encoding="utf-8"))
    return loaded


def _job() -> dict[str, Any]:
    (job,) = _workflow()["jobs"].values()
    return dict(job)


def _checkout(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A copy of the fixture service as the checkout, and the environment of the job."""
    checkout = tmp_path / "checkout"
    shutil.copytree(SERVICE, checkout, ignore=shutil.ignore_patterns("expected.json", "reach-*"))
    tools = tmp_path / "bin"
    tools.mkdir()
    shim = tools / "tsograph"
    shim.write_text(
        f'#!/bin/sh\nPYTHONPATH="{REPO}" exec "{sys.executable}" -m tsograph "$@"\n',
        encoding="utf-8",
    )
    shim.chmod(shim.stat().st_mode | stat.S_IXUSR)
    (tmp_path / "runner").mkdir()
    env = {
        "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}",
        "HOME": str(tmp_path),
        "RUNNER_TEMP": str(tmp_path / "runner"),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
        **{key: str(value) for key, value in _job().get("env", {}).items()},
    }
    return checkout, env


def _step(name: str) -> dict[str, Any]:
    (found,) = [step for step in _job()["steps"] if step.get("name") == name]
    return dict(found)


def _run_steps(checkout: Path, env: dict[str, str]) -> list[subprocess.CompletedProcess[str]]:
    job = _job()
    assert job["defaults"]["run"]["shell"] == "bash"
    results = []
    for step in job["steps"]:
        if "run" not in step or step.get("id") == "install":
            continue
        results.append(_run(step, checkout, env))
    return results


def _run(
    step: dict[str, Any], checkout: Path, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    step_env = {**env, **{key: str(value) for key, value in step.get("env", {}).items()}}
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
        cwd=checkout,
        env=step_env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_the_steps_run_unchanged_on_a_service_and_pass(tmp_path: Path) -> None:
    checkout, env = _checkout(tmp_path)
    results = _run_steps(checkout, env)
    assert [r.returncode for r in results] == [0] * len(results), [r.stderr for r in results]
    out = checkout / env["OUT"]
    kinds = {
        path.name: orjson.loads(path.read_bytes())["format"] for path in sorted(out.glob("*.json"))
    }
    assert kinds == {
        "calls.json": "bridge-facts",
        "graph.json": "tsograph-graph",
        "reach.json": "language-traversal",
        "relations.json": "bridge-facts",
        "routes.json": "bridge-facts",
    }
    routes = orjson.loads((out / "routes.json").read_bytes())
    assert [(f["method"], f["channel"]) for f in routes["facts"]] == [("POST", "/api/jobs")]
    reach = orjson.loads((out / "reach.json").read_bytes())
    assert [root["id"] for root in reach["roots"]] == ["src/app/api/jobs/route.ts#POST"]
    assert reach["reached"], "the handler reaches code"
    summary = Path(env["GITHUB_STEP_SUMMARY"]).read_text(encoding="utf-8")
    assert "  POST    /api/jobs  src/app/api/jobs/route.ts:5" in summary
    assert "  jobs      id, title" in summary
    validated = results[-2].stdout.splitlines()
    assert validated == [
        f"{env['OUT']}/{name}: valid {kind} document" for name, kind in sorted(kinds.items())
    ]
    # The check step: no call goes unanswered (the app sends none), the five table and
    # column uses match the Prisma schema's declarations; no annotation, both reports in
    # the summary.
    checked = results[-1]
    assert checked.stdout == ""
    assert "0 error(s), 0 warning(s); 0 matched" in summary
    assert "0 error(s), 0 warning(s); 5 matched" in summary


def test_the_check_step_is_last_and_runs_after_validate() -> None:
    steps = [step for step in _job()["steps"] if "run" in step]
    names = [step.get("name") for step in steps]
    assert names[-2:] == ["Validate the documents", "Check the facts"]
    assert "tsograph check " in steps[-1]["run"]
    assert "tsograph check --pairs " in steps[-1]["run"]


def test_an_invalid_document_fails_the_validate_step(tmp_path: Path) -> None:
    # The step validates whatever the earlier steps left in $OUT: here the service's
    # graph as the golden snapshot holds it, with one edge pointing nowhere.
    checkout, env = _checkout(tmp_path)
    graph = checkout / env["OUT"] / "graph.json"
    graph.parent.mkdir()
    document = orjson.loads((SERVICE / "expected.json").read_bytes())
    graph.write_bytes(orjson.dumps(document))
    assert _run(_step("Validate the documents"), checkout, env).returncode == 0
    document["edges"][0]["to"] = "src/lib/gone.ts#nothing"
    graph.write_bytes(orjson.dumps(document))
    failed = _run(_step("Validate the documents"), checkout, env)
    assert failed.returncode == 2
    assert "graph.json: invalid at /edges/0/to: names no node of the graph" in failed.stderr


def test_a_request_no_route_answers_fails_the_check_step(tmp_path: Path) -> None:
    checkout, env = _checkout(tmp_path)
    (checkout / "src" / "lib" / "client.ts").write_text(
        'export async function gone() {\n  return fetch("/api/gone", { method: "POST" });\n}\n',
        encoding="utf-8",
    )
    results = _run_steps(checkout, env)
    assert [r.returncode for r in results[:-1]] == [0] * (len(results) - 1)
    assert results[-1].returncode == 3
    assert results[-1].stdout.splitlines() == [
        "::error file=src/lib/client.ts,line=2,title=route-call-without-decl::"
        "route-call-without-decl: POST /api/gone — a client call that no route declaration "
        "answers"
    ]
    summary = Path(env["GITHUB_STEP_SUMMARY"]).read_text(encoding="utf-8")
    assert "route-call-without-decl (error): 1\n  POST /api/gone  [service api]" in summary


def test_a_migration_without_a_used_column_fails_the_check_step(tmp_path: Path) -> None:
    checkout, env = _checkout(tmp_path)
    migration = checkout / "prisma" / "migrations" / "0001_init" / "migration.sql"
    migration.parent.mkdir(parents=True)
    migration.write_text(
        'CREATE TABLE "jobs" ("id" SERIAL PRIMARY KEY, "title" TEXT NOT NULL);\n'
        'CREATE TABLE "AuditLog" ("id" SERIAL PRIMARY KEY, "action" TEXT NOT NULL);\n',
        encoding="utf-8",
    )
    env |= {"MIGRATIONS": "prisma/migrations", "SQL_DIALECT": "postgres"}
    results = _run_steps(checkout, env)
    assert [r.returncode for r in results[:-1]] == [0] * (len(results) - 1)
    tables = orjson.loads((checkout / env["OUT"] / "tables.json").read_bytes())
    assert tables["platform"] == "sql"
    assert results[-1].returncode == 3
    annotations = results[-1].stdout.splitlines()
    assert [line.split("::")[1] for line in annotations] == [
        "error file=prisma/schema.prisma,line=20,title=relation-use-without-decl",
        "error file=src/lib/audit.ts,line=4,title=relation-use-without-decl",
    ]
    assert all("AuditLog.subject" in line for line in annotations)

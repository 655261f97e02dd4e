"""The example GitHub Actions workflow, its shell steps run here on a fixture service.

GitHub runs a `shell: bash` step as `bash --noprofile --norc -eo pipefail`
with the job's and the step's env; this test does the same with each `run:`
step in order, in a copy of fixtures/graph/next-prisma (a Next.js app with a
Prisma schema). Two things differ, both outside the steps' text: the install
step is left out (it would fetch tsograph from the network; here `tsograph` on
PATH runs this checkout), and RUNNER_TEMP and GITHUB_STEP_SUMMARY point into
the test's folder. `uses:` steps (checkout, setup-python, upload-artifact) are
GitHub's own and are not run.
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
    validated = results[-1].stdout.splitlines()
    assert validated == [
        f"{env['OUT']}/{name}: valid {kind} document" for name, kind in sorted(kinds.items())
    ]


def test_an_invalid_document_fails_the_last_step(tmp_path: Path) -> None:
    checkout, env = _checkout(tmp_path)
    results = _run_steps(checkout, env)
    assert results[-1].returncode == 0
    graph = checkout / env["OUT"] / "graph.json"
    document = orjson.loads(graph.read_bytes())
    document["edges"][0]["to"] = "src/lib/gone.ts#nothing"
    graph.write_bytes(orjson.dumps(document))
    last = [step for step in _job()["steps"] if "run" in step][-1]
    failed = _run(last, checkout, env)
    assert failed.returncode == 2
    assert "graph.json: invalid at /edges/0/to: names no node of the graph" in failed.stderr


def test_the_check_step_has_its_marked_place_after_validate() -> None:
    text = WORKFLOW.read_text(encoding="utf-8")
    steps = [step for step in _job()["steps"] if "run" in step]
    assert steps[-1]["run"].startswith("tsograph validate ")
    assert text.index("tsograph validate") < text.index("tsograph check: NOT WIRED YET")

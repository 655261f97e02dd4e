"""The example review workflow, its shell steps run here on a fixture git history.

As in test_ci_workflow.py: each `run:` step runs as GitHub runs it (`bash
--noprofile --norc -eo pipefail`) with the job's env, in order, in a clone
built by tests/review/history.py; the install step is left out (`tsograph` on
PATH runs this checkout) and `uses:` steps are GitHub's own. The `${{ }}` values
are what GitHub would put there: the base commit and a pull-request number.
`gh` is a stand-in on PATH that records what it was asked to post.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from tests.cli_helpers import REPO
from tests.review.history import build

WORKFLOW = REPO / "examples" / "github-actions" / "tsograph-review.yml"
GH = """#!/bin/sh
# First call (--edit-last) fails as when no comment exists yet; the second posts.
for arg in "$@"; do [ "$arg" = "--edit-last" ] && exit 1; done
printf '%s\\n' "$@" > "$GH_LOG"
while [ $# -gt 0 ]; do [ "$1" = "--body-file" ] && cp "$2" "$GH_BODY"; shift; done
"""


def _job() -> dict[str, Any]:
    loaded: dict[str, Any] = YAML(typ="safe").load(WORKFLOW.read_text(encoding="utf-8"))
    (job,) = loaded["jobs"].values()
    return dict(job)


def _tool(folder: Path, name: str, text: str) -> None:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def _run_steps(tmp_path: Path, **extra: str) -> tuple[Path, dict[str, str], list[Any]]:
    checkout = build(tmp_path / "checkout")
    base = subprocess.run(
        ["git", "-C", str(checkout), "rev-parse", "main"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    tools = tmp_path / "bin"
    tools.mkdir()
    _tool(
        tools,
        "tsograph",
        f'#!/bin/sh\nPYTHONPATH="{REPO}" exec "{sys.executable}" -m tsograph "$@"\n',
    )
    _tool(tools, "gh", GH)
    (tmp_path / "runner").mkdir()
    job = _job()
    env = {key: str(value) for key, value in job["env"].items()}
    env |= {
        "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}",
        "HOME": str(tmp_path),
        "RUNNER_TEMP": str(tmp_path / "runner"),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
        "BASE_SHA": base,
        "PR_NUMBER": "7",
        "GH_TOKEN": "unused",
        "GH_LOG": str(tmp_path / "gh.log"),
        "GH_BODY": str(tmp_path / "posted.md"),
        **extra,
    }
    results = []
    for step in job["steps"]:
        if "run" not in step or step.get("id") == "install":
            continue
        results.append(
            subprocess.run(
                ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
                cwd=checkout,
                env=env,
                capture_output=True,
                text=True,
                timeout=300,
                check=False,
            )
        )
    return checkout, env, results


def test_the_brief_is_posted_as_the_pull_request_comment(tmp_path: Path) -> None:
    checkout, env, results = _run_steps(tmp_path)
    assert [r.returncode for r in results] == [0] * len(results), [r.stderr for r in results]
    brief = (checkout / env["OUT"] / "brief.md").read_text(encoding="utf-8")
    assert brief.startswith("# What this change reaches\n")
    assert (tmp_path / "posted.md").read_text(encoding="utf-8") == brief
    assert (tmp_path / "gh.log").read_text().splitlines()[:2] == ["pr", "comment"]
    assert "7" in (tmp_path / "gh.log").read_text().splitlines()
    assert (tmp_path / "summary.md").read_text(encoding="utf-8") == brief
    assert (checkout / env["OUT"] / "index.md").is_file()


def test_a_long_brief_is_cut_at_a_line_and_says_where_the_rest_is(tmp_path: Path) -> None:
    checkout, env, results = _run_steps(tmp_path, COMMENT_BYTES="2000")
    assert [r.returncode for r in results] == [0] * len(results), [r.stderr for r in results]
    posted = (tmp_path / "posted.md").read_text(encoding="utf-8")
    brief = (checkout / env["OUT"] / "brief.md").read_text(encoding="utf-8")
    kept, _, note = posted.rpartition("\n\n")
    assert brief.startswith(kept + "\n") and len(kept) < 2000
    assert note == (
        "_The brief is cut here: the whole brief and the packet are in the tsograph-review "
        "artifact._\n"
    )

"""Every case under fixtures/routes/next/<case>/ against its golden document, byte for byte.

A case holds `project/` (the project scanned), optional `args` (extra command
line arguments, one per line), optional `links` (symbolic links to create in
the copy, one `<link> -> <target>` per line: links are never committed, so a
checkout on any file system gives the same cases) and `expected.json`. The
project is copied to a folder named after the case with fixed modification
times. Set TSOGRAPH_REGENERATE=1 to rewrite the goldens on
purpose; those tests then skip, so a regenerated run never passes silently.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.golden import assert_golden_document
from tests.golden import case_arguments
from tests.golden import golden_cases
from tests.routes.support import FIXTURES
from tests.routes.support import copy_project
from tests.routes.support import run_routes

# Node backends and the client side have golden tests of their own (tests/routes/node, client).
CASES = [f"next/{name}" for name in golden_cases(FIXTURES / "next", "project")]


def make_links(case: Path, project: Path) -> None:
    links = case / "links"
    if not links.exists():
        return
    for line in links.read_text(encoding="utf-8").splitlines():
        if line.strip():
            link, target = (part.strip() for part in line.split(" -> "))
            (project / link).parent.mkdir(parents=True, exist_ok=True)
            os.symlink(target, project / link)


def render_case(name: str, tmp_path: Path) -> bytes:
    """`tsograph routes` on a copy of the case `<FIXTURES>/<name>` (Next.js and Node cases)."""
    case = FIXTURES / name
    project = copy_project(case / "project", tmp_path / case.name)
    make_links(case, project)
    result = run_routes(project, *case_arguments(case))
    assert result.code == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("name", CASES)
def test_golden_document(name: str, tmp_path: Path) -> None:
    assert_golden_document(render_case(name, tmp_path), FIXTURES / name / "expected.json")

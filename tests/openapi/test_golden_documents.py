"""Every fixture under fixtures/openapi/<case>/ against its golden document, byte for byte.

A case holds one spec (any *.yaml or *.json but expected.json) and the
expected document. The case is copied to a folder of the same name so the
document's project is the case name, and the copy's modification time is fixed.
Set TSOGRAPH_REGENERATE=1 to rewrite the goldens on purpose; those tests then
skip, so a regenerated run never passes silently.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.golden import assert_golden_document
from tests.openapi.support import FIXTURES
from tests.openapi.support import GENERATED_AT
from tests.openapi.support import SERVICE
from tests.openapi.support import fixed_mtime
from tests.openapi.support import invoke

CASES = sorted(path.name for path in FIXTURES.iterdir() if path.is_dir())


def spec_in(case: Path) -> Path:
    specs = [
        path
        for path in case.rglob("*")
        if path.suffix in (".yaml", ".yml", ".json") and path.name != "expected.json"
    ]
    assert len(specs) == 1, f"{case.name} must hold exactly one spec, found {len(specs)}"
    return specs[0]


def render_case(name: str, tmp_path: Path) -> bytes:
    case = tmp_path / name
    shutil.copytree(FIXTURES / name, case, ignore=shutil.ignore_patterns("expected.json"))
    spec = spec_in(case)
    fixed_mtime(spec)
    result = invoke(
        "openapi",
        str(spec),
        "--service",
        SERVICE,
        "--project",
        str(case),
        "--generated-at",
        GENERATED_AT,
    )
    assert result.code == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("name", CASES)
def test_golden_document(name: str, tmp_path: Path) -> None:
    assert_golden_document(render_case(name, tmp_path), FIXTURES / name / "expected.json")

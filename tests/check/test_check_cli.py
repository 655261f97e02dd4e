"""Exit codes and one-line errors of `tsograph check`."""

from __future__ import annotations

from pathlib import Path

from tests.cli_helpers import REPO
from tests.cli_helpers import tsograph

CASES = REPO / "fixtures" / "check"


def test_warnings_pass_unless_fail_on_warning() -> None:
    case = CASES / "shadowed"
    assert tsograph("check", "decl.json", cwd=case).code == 0
    assert tsograph("check", "decl.json", "--fail-on", "warning", cwd=case).code == 3


def test_errors_fail_with_3() -> None:
    assert tsograph("check", "decl.json", "calls.json", cwd=CASES / "calls").code == 3


def test_bad_input_is_2_and_usage_is_64(tmp_path: Path) -> None:
    (tmp_path / "broken.json").write_text("{", "utf-8")
    broken = tsograph("check", "broken.json", cwd=tmp_path)
    assert broken.code == 2 and broken.stdout == b""
    assert broken.stderr.startswith("tsograph: broken.json: not JSON")
    (tmp_path / "other.json").write_text('{"format": "bridge-facts"}', "utf-8")
    invalid = tsograph("check", "other.json", cwd=tmp_path)
    assert invalid.code == 2 and "invalid at" in invalid.stderr
    pairs = CASES / "pairs"
    assert tsograph("check", "--pairs", "uses.json", cwd=pairs).code == 64
    assert tsograph("check", "uses.json", cwd=pairs).code == 64
    assert tsograph("check", "--pairs", "sql.json", "uses.json", cwd=pairs).code == 64
    assert tsograph("check", "--format", "xml", "uses.json", cwd=pairs).code == 64


def test_the_same_file_twice_is_read_once() -> None:
    case = CASES / "shadowed"
    once = tsograph("check", "decl.json", cwd=case)
    twice = tsograph("check", "decl.json", "decl.json", cwd=case)
    assert once.stdout == twice.stdout

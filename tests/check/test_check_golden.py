"""Golden reports of `tsograph check`: every verdict, every -unverified downgrade, byte for byte.

Each case folder under fixtures/check/ holds its input documents; the report
is made with the case folder as the working directory, so the goldens name the
inputs as a user would (`decl.json`), never by a path of this checkout.
Cases: calls (answered calls with HEAD-as-GET, OPTIONS, ANY, catch-all and
trailing-slash rules, errors, a scoped limitation), dynamic-base (dynamic and
base facts on both sides, a dynamicScope, an unscoped and a scoped
limitation), contract-drift, shadowed, pairs, pairs-plain and pairs-gap.
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.cli_helpers import REPO
from tests.cli_helpers import tsograph
from tests.golden import assert_matches_golden

CASES = REPO / "fixtures" / "check"
HTTP_CASES = ["calls", "dynamic-base", "contract-drift", "shadowed"]
PAIRS_CASES = ["pairs", "pairs-plain", "pairs-gap"]
FORMATS = {"text": "expected.txt", "json": "expected.json"}


def _inputs(case: Path) -> list[str]:
    return sorted(p.name for p in case.glob("*.json") if not p.name.startswith("expected"))


def _run(case: Path, fmt: str) -> tuple[int, bytes]:
    if case.name.startswith("pairs"):
        args = ["check", "--pairs", "uses.json", "sql.json"]
    else:
        args = ["check", *_inputs(case)]
    result = tsograph(*args, "--format", fmt, cwd=case)
    assert result.stderr == ""
    return result.code, result.stdout


@pytest.mark.parametrize("fmt", sorted(FORMATS))
@pytest.mark.parametrize("name", HTTP_CASES + PAIRS_CASES)
def test_report_matches_golden(name: str, fmt: str) -> None:
    case = CASES / name
    code, out = _run(case, fmt)
    report = orjson.loads(_run(case, "json")[1])
    assert code == (3 if report["summary"]["errors"] else 0)
    assert_matches_golden(out, case / FORMATS[fmt])


@pytest.mark.parametrize("fmt", ["sarif", "github"])
def test_code_scanning_forms_match_golden(fmt: str) -> None:
    case = CASES / "calls"
    _, out = _run(case, fmt)
    assert_matches_golden(out, case / f"expected.{fmt}")


def test_every_verdict_and_downgrade_is_covered() -> None:
    from tsograph.producers.check.findings import VERDICTS

    seen: set[str] = set()
    reasons: list[str] = []
    for name in HTTP_CASES + PAIRS_CASES:
        report = orjson.loads((CASES / name / "expected.json").read_bytes())
        seen |= {finding["verdict"] for finding in report["findings"]}
        reasons += [r for finding in report["findings"] for r in finding["reasons"]]
    assert seen == set(VERDICTS)
    # the -unverified downgrades: a limitation, a scope, dynamic and base
    assert any("framework-provided-routes:" in r for r in reasons)  # scoped (public/)
    assert any("route-coverage:" in r for r in reasons)  # scoped to /admin
    assert any("path is dynamic" in r for r in reasons)
    assert any("dynamic path under /v1/reports" in r for r in reasons)
    assert any("unknown prefix" in r for r in reasons)
    assert any("unparsed-schema-lines:" in r for r in reasons)


def test_scope_limits_the_downgrade() -> None:
    """public/ is scoped to GET/HEAD: a POST outside every route stays an error."""
    report = orjson.loads(_run(CASES / "calls", "json")[1])
    verdicts = {(f["method"], f["channel"]): f["verdict"] for f in report["findings"]}
    assert verdicts[("POST", "/api/orders")] == "route-call-without-decl"
    assert verdicts[("GET", "/logo.png")] == "route-call-without-decl-unverified"
    assert report["summary"]["uncheckedCalls"] == {"https://api.github.com": 1}

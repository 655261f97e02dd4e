"""`tsograph review` on a git history built here (history.py), compared byte for byte.

The brief and every file of the packet are goldens under fixtures/review/history/;
the brief's Mermaid diagram is also fixtures/diagrams/review-history.mmd, which
oracle/diagrams/record.py gives to Mermaid's parser (test_oracle_replay.py).
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.cli_helpers import REPO
from tests.cli_helpers import tsograph
from tests.golden import assert_matches_golden
from tests.review.history import build

GOLDEN = REPO / "fixtures" / "review" / "history"
DIAGRAM = REPO / "fixtures" / "diagrams" / "review-history.mmd"


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("review")
    repo = build(folder / "repo")
    result = tsograph("review", "--project", repo, "--no-cache", "--out", folder / "out")
    assert result.code == 0, result.stderr
    assert result.stdout == b""
    return folder / "out"


def _files(folder: Path) -> list[str]:
    return sorted(
        path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()
    )


def test_the_packet_holds_the_files_of_the_golden(reviewed: Path) -> None:
    assert _files(reviewed) == _files(GOLDEN)


@pytest.mark.parametrize("name", _files(GOLDEN))
def test_each_file_matches_its_golden(reviewed: Path, name: str) -> None:
    assert_matches_golden((reviewed / name).read_bytes(), GOLDEN / name)


def test_the_brief_diagram_is_the_recorded_one(reviewed: Path) -> None:
    brief = (reviewed / "brief.md").read_text(encoding="utf-8")
    start = brief.index("```mermaid\n") + len("```mermaid\n")
    text = brief[start : brief.index("```\n", start)]
    assert_matches_golden(text.encode("utf-8"), DIAGRAM)


def test_what_the_change_did(reviewed: Path) -> None:
    summary = orjson.loads((reviewed / "impact.json").read_bytes())
    touched = summary["touched"]
    moves = {(m["from"]["id"], m["to"]["id"]) for m in touched["moved"]}
    # The rename and the move to another file, each found by its body.
    assert moves == {
        ("src/money.ts#formatPrice", "src/money.ts#formatCents"),
        ("src/money.ts#computeTaxes", "src/taxes.ts#computeTaxes"),
    }
    assert {s["id"] for s in touched["removed"]} >= {"src/money.ts#legacyRound"}
    edited = {s["id"] for s in touched["edited"]}
    # Both implementations of the changed interface method; the handler's second hop; the hub.
    assert {"src/repo.ts#SqlRepo.find", "src/repo.ts#MemRepo.find"} <= edited
    assert {"src/orders.ts#describe", "src/util.ts#log", "src/broken.ts#fine"} <= edited
    # The removed export is still imported by report.ts, whose call binds nothing now.
    used = {row["symbol"]["id"]: row for row in summary["usedNames"]}
    assert used["src/money.ts#legacyRound"]["places"] == [
        {"bindsNow": [], "tier": "direct", "user": "src/report.ts#reportTotal"}
    ]
    assert used["src/money.ts#formatPrice"]["places"][0]["bindsNow"] == ["src/money.ts#formatCents"]
    # The route two hops above the edited describe.
    [route] = summary["routes"]["reached"]
    assert {"depth": 2, "symbol": "src/orders.ts#describe", "tier": "direct"} in route["reaches"]
    assert route["routes"] == ["GET /orders/{}"]
    # The hub: 50 callers, 20 kept, the cut said.
    [hub] = [b for b in summary["callers"] if b["symbol"]["id"] == "src/util.ts#log"]
    assert (hub["total"], len(hub["items"]), hub["omitted"]) == (50, 20, 30)
    assert hub["reasons"][0] == "cut: 50 callers, more than 40; the nearest 20 kept"
    assert not hub["complete"]
    # The interface whose method changed is touched as a type, not as its file's module
    # code, and both implementations are listed; the store names it as a type.
    assert [t["id"] for t in touched["types"]["edited"]] == ["src/repo.ts#Repo"]
    assert "src/repo.ts#<module>" not in edited
    [repo] = summary["implementersAndReferences"]
    assert [item["id"] for item in repo["implementers"]["items"]] == [
        "src/repo.ts#MemRepo",
        "src/repo.ts#SqlRepo",
    ]
    assert [(i["use"], i["from"]) for i in repo["references"]["items"]] == [
        ("type", "src/store.ts#repo")
    ]
    # The file whose export was removed is still imported by report.ts.
    importers = {row["file"]: row for row in summary["importers"]}
    assert [item["file"] for item in importers["src/money.ts"]["items"]] == [
        "src/orders.ts",
        "src/report.ts",
    ]
    assert importers["src/util.ts"]["total"] == 50
    # The POST registered with a handler the routes scan cannot resolve is said, at its line.
    [gap] = summary["routes"]["gapsInChangedFiles"]
    assert gap["places"] == ["src/server.ts:9"] and "unresolved-route-handler" in gap["line"]
    # The lines added around the GET's handler do not edit it: its route is reached from
    # describe, two hops below.
    assert 'src/server.ts#<module>.app.get("/orders/:id")' not in edited
    # The file that fails to parse is said near the change.
    assert any("src/broken.ts" in line for line in summary["unknowns"]["gapsInChangedFiles"])


def test_no_key_reaches_any_file(reviewed: Path) -> None:
    for name in _files(reviewed):
        assert b"sk_live_" not in (reviewed / name).read_bytes(), name
    [base_text] = [
        (reviewed / name).read_text()
        for name in _files(reviewed)
        if name.startswith("base/") and "stripeKey" in (reviewed / name).read_text()
    ]
    assert "return '[redacted:" in base_text


def test_the_brief_on_stdout_is_the_brief_of_the_packet(reviewed: Path, tmp_path: Path) -> None:
    repo = build(tmp_path / "repo")
    result = tsograph("review", "--project", repo, "--no-cache")
    assert result.code == 0, result.stderr
    assert result.stdout == (reviewed / "brief.md").read_bytes()


def test_uncommitted_changes_are_reviewed_against_head(reviewed: Path, tmp_path: Path) -> None:
    """The same change left in the work tree (untracked taxes.ts included): base is HEAD."""
    repo = build(tmp_path / "repo", commit_change=False)
    result = tsograph("review", "--project", repo, "--no-cache", "--out", tmp_path / "out")
    assert result.code == 0, result.stderr
    mine = orjson.loads((tmp_path / "out" / "impact.json").read_bytes())
    committed = orjson.loads((reviewed / "impact.json").read_bytes())
    assert mine["touched"] == committed["touched"]
    status = orjson.loads((tmp_path / "out" / "status.json").read_bytes())
    assert status["base"]["how"] == "HEAD"


def test_an_explicit_base_of_the_change_itself_touches_nothing(tmp_path: Path) -> None:
    repo = build(tmp_path / "repo")
    result = tsograph("review", "--project", repo, "--no-cache", "--base", "change")
    assert result.code == 0, result.stderr
    assert b"0 changed files, 0 edited, 0 added, 0 removed and 0 moved" in result.stdout


def test_a_folder_outside_git_is_refused(tmp_path: Path) -> None:
    (tmp_path / "a.ts").write_text("export const a = 1;\n")
    result = tsograph("review", "--project", tmp_path, "--no-cache")
    assert result.code == 2
    assert result.stderr.count("\n") == 1 and "is not inside a git work tree" in result.stderr


def test_an_unknown_base_is_refused(tmp_path: Path) -> None:
    repo = build(tmp_path / "repo")
    result = tsograph("review", "--project", repo, "--no-cache", "--base", "nope")
    assert result.code == 2
    assert "review: git rev-parse failed" in result.stderr


def test_out_never_overwrites_other_files(tmp_path: Path) -> None:
    repo = build(tmp_path / "repo")
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep\n")
    result = tsograph("review", "--project", repo, "--no-cache", "--out", tmp_path / "mine")
    assert result.code == 64
    assert (tmp_path / "mine" / "notes.txt").read_text() == "keep\n"

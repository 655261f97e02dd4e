"""Progress on stderr: shown on a terminal once a run lasts a second, never otherwise.

The terminal is a real pseudo-terminal (pty). The one-second delay is the
reporter's own clock; the command-line tests set it to zero so the line shows
up at once, and the unit tests drive a fake clock, so nothing here depends on
how fast the machine is.
"""

from __future__ import annotations

import io
import os
import pty
import select
import sys
from pathlib import Path

import pytest

from tests.cli_helpers import REPO
from tests.cli_helpers import tsograph
from tsograph.producers import cli
from tsograph.producers import progress

BASICS = REPO / "fixtures" / "graph" / "basics"
SCHEMA = REPO / "fixtures" / "schema" / "prisma" / "prisma-app" / "project"


def _drain(master: int) -> bytes:
    chunks = []
    while select.select([master], [], [], 0)[0]:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


def _run_on_a_terminal(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]
) -> tuple[int, bytes, bytes]:
    master, slave = pty.openpty()
    terminal = os.fdopen(slave, "w", encoding="utf-8")
    try:
        monkeypatch.setattr(progress, "DELAY", 0.0)
        monkeypatch.setattr(sys, "stderr", terminal)
        code = cli.run(argv)
        terminal.flush()
        shown = _drain(master)
    finally:
        terminal.close()
        os.close(master)
    return code, shown, capsysbinary.readouterr().out


def test_a_terminal_sees_the_phase_and_files_parsed_of_total(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    argv = ["graph", "--project", str(BASICS), "--cache-dir", str(tmp_path)]
    code, shown, out = _run_on_a_terminal(argv, monkeypatch, capsysbinary)
    assert code == 0
    assert out.startswith(b"{")
    files = len([p for p in (BASICS / "src").rglob("*") if p.is_file()])
    assert f"tsograph: parsing sources {files}/{files}".encode() in shown
    assert b"tsograph: linking calls" in shown
    # The line is erased at the end, so the prompt starts on a clean line.
    assert shown.endswith(b"\r\x1b[K")


def test_schema_shows_its_parsing_too(
    monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    code, shown, _ = _run_on_a_terminal(
        ["schema", "--project", str(SCHEMA)], monkeypatch, capsysbinary
    )
    assert code == 0
    assert b"tsograph: parsing sources " in shown


def test_an_error_line_starts_on_a_clean_line(
    monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    # A root that is not a node: the document is written, then a note on stderr.
    argv = ["reach", "--project", str(BASICS), "--no-cache", "src/nowhere.ts#f"]
    code, shown, _ = _run_on_a_terminal(argv, monkeypatch, capsysbinary)
    assert code == 64
    assert b"\r\x1b[Ktsograph: roots that are not graph nodes" in shown


def test_nothing_when_stderr_is_not_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    monkeypatch.setattr(progress, "DELAY", 0.0)
    captured = io.StringIO()
    monkeypatch.setattr(sys, "stderr", captured)
    assert cli.run(["graph", "--project", str(BASICS), "--cache-dir", str(tmp_path)]) == 0
    assert captured.getvalue() == ""


def test_nothing_in_a_pipe(tmp_path: Path) -> None:
    result = tsograph("graph", "--project", BASICS, "--cache-dir", tmp_path)
    assert result.code == 0
    assert result.stderr == ""


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_silent_for_the_first_second_then_shown() -> None:
    clock, terminal = _Clock(), _Terminal()
    reporter = progress.Progress(terminal, clock)
    reporter.phase("parsing sources", 3)
    clock.now += 0.5
    reporter.advance()
    assert terminal.getvalue() == ""
    clock.now += 0.6
    reporter.advance()
    assert terminal.getvalue() == "\r\x1b[Ktsograph: parsing sources 2/3"
    reporter.advance()
    assert terminal.getvalue().endswith("\r\x1b[Ktsograph: parsing sources 3/3")
    reporter.clear()
    assert terminal.getvalue().endswith("3/3\r\x1b[K")


def test_redrawn_at_most_every_interval_except_phase_changes_and_the_last_file() -> None:
    clock, terminal = _Clock(), _Terminal()
    reporter = progress.Progress(terminal, clock, delay=0.0)
    reporter.phase("parsing sources", 100)
    for _ in range(98):
        reporter.advance()
    assert terminal.getvalue().count("tsograph:") == 1
    clock.now += 1.0
    reporter.advance()
    reporter.advance()
    assert terminal.getvalue().count("tsograph:") == 3
    reporter.phase("linking calls")
    assert terminal.getvalue().endswith("\r\x1b[Ktsograph: linking calls")

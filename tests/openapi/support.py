"""Running `tsograph openapi` in tests: in-process for documents, helpers for specs."""

from __future__ import annotations

import contextlib
import io
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from tsograph.producers import cli

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "openapi"
GENERATED_AT = "2026-01-01T00:00:00.000Z"
# 2026-01-01T00:00:00Z: fixture copies get this modification time, so
# sourceModifiedAt is the same on every checkout.
FIXED_MTIME = 1_767_225_600
SERVICE = "example-api"


@dataclass(frozen=True)
class Result:
    code: int
    stdout: bytes
    stderr: str

    def document(self) -> dict[str, Any]:
        assert self.code == 0, self.stderr
        document = orjson.loads(self.stdout)
        assert isinstance(document, dict)
        return document


def invoke(*argv: str) -> Result:
    """Run the command line in this process, capturing both streams."""
    out = io.BytesIO()
    err = io.StringIO()
    stdout = io.TextIOWrapper(out, encoding="utf-8")
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(err):
        code = cli.run(list(argv))
        stdout.flush()
    return Result(code, out.getvalue(), err.getvalue())


def write_spec(folder: Path, text: str | bytes, name: str = "openapi.yaml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return path


def run_spec(folder: Path, text: str | bytes, name: str = "openapi.yaml") -> Result:
    """Write `text` as a spec inside `folder` and run the command on it."""
    path = write_spec(folder, text, name)
    return invoke(
        "openapi",
        str(path),
        "--service",
        SERVICE,
        "--project",
        str(folder),
        "--generated-at",
        GENERATED_AT,
    )


def facts_of(folder: Path, text: str | bytes, name: str = "openapi.yaml") -> list[dict[str, Any]]:
    facts = run_spec(folder, text, name).document()["facts"]
    assert isinstance(facts, list)
    return facts


def limitations_of(folder: Path, text: str | bytes, name: str = "openapi.yaml") -> list[str]:
    limitations = run_spec(folder, text, name).document()["limitations"]
    assert isinstance(limitations, list)
    return limitations


def routes(facts: list[dict[str, Any]]) -> set[tuple[str, str, str]]:
    """(method, channel, pathAnchor) of every fact."""
    return {(fact["method"], fact["channel"], fact["pathAnchor"]) for fact in facts}


def fixed_mtime(path: Path) -> None:
    os.utime(path, (FIXED_MTIME, FIXED_MTIME))

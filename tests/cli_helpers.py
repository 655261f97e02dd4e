"""Running the command line in a subprocess, the way users and CI call it."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Result:
    code: int
    stdout: bytes
    stderr: str


def tsograph(*args: str | Path, cwd: Path | None = None, stdin: bytes | None = None) -> Result:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    completed = subprocess.run(
        [sys.executable, "-m", "tsograph", *map(str, args)],
        cwd=cwd or REPO,
        env=env,
        input=stdin,
        capture_output=True,
        timeout=120,
        check=False,
    )
    return Result(
        completed.returncode, completed.stdout, completed.stderr.decode("utf-8", "replace")
    )

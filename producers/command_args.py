"""Arguments every producer command shares: output options, --service and --project checks.

One place so that `schema`, `routes` and `openapi` accept, describe and reject
these arguments with the same words and exit codes.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any

from exchange.errors import InputError, UsageError

_MAX_SERVICE_CHARS = 256
_SERVICE_FORBIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def add_output_arguments(parser: Any) -> None:
    """--format and --generated-at, the last options of every producer command."""
    parser.add_argument("--format", choices=["json"], default="json", help="output format")
    parser.add_argument(
        "--generated-at",
        metavar="TIMESTAMP",
        help="fix generatedAt (UTC with milliseconds) for reproducible output",
    )


def checked_service(name: str) -> str:
    """The --service value, refused (exit 64) when empty, too long or holding control characters."""
    if not name or len(name) > _MAX_SERVICE_CHARS or _SERVICE_FORBIDDEN.search(name):
        raise UsageError(
            f"--service must be 1 to {_MAX_SERVICE_CHARS} characters without control characters"
        )
    return name


def project_folder(project: str) -> Path:
    """The --project path, refused (exit 2) unless it names a readable folder."""
    root = Path(project)
    try:
        info = os.stat(root)
    except OSError:
        raise InputError("the project folder cannot be read; check --project") from None
    if not stat.S_ISDIR(info.st_mode):
        raise InputError("--project is not a folder; pass the project root")
    return root

"""Where the spec file is, what documents and messages call it, and reading it.

The project root is resolved to its real path and the spec must lie inside
it; `location.path` is the spec's POSIX path relative to that root. Messages
name the spec by the same relative path, or by its file name when it is
outside the project, so no absolute path is ever printed.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from tsograph.exchange.errors import InputError
from tsograph.exchange.errors import UsageError
from tsograph.producers.command_args import project_folder
from tsograph.producers.openapi.input_checks import MAX_SPEC_BYTES

# What a relative path in a document may not be or hold (see the schema's
# relativePath): control and line-separator characters, a backslash, a
# leading drive letter, more than 4,096 characters.
_UNWRITABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\\]|^[A-Za-z]:")
_MAX_PATH_CHARS = 4096


@dataclass(frozen=True)
class SpecFile:
    path: Path
    project_root: Path
    # POSIX path from the project root: the location path and the name in messages.
    relative: str


def locate(spec: str, project: str | None) -> SpecFile:
    spec_path = Path(os.path.realpath(spec))
    folder = spec_path.parent if project is None else project_folder(project)
    root = Path(os.path.realpath(folder))
    try:
        relative = spec_path.relative_to(root).as_posix()
    except ValueError:
        raise UsageError(
            f"{spec_path.name}: lies outside --project; "
            "pass a --project folder that contains the spec"
        ) from None
    if relative == ".":
        raise UsageError("the spec must be a file inside --project, not the project folder")
    if len(relative) > _MAX_PATH_CHARS or _UNWRITABLE.search(relative) or not _encodable(relative):
        raise UsageError(
            "the spec's path relative to the project holds characters a document cannot "
            "carry (control characters, a backslash or a drive letter); rename or move the file"
        )
    return SpecFile(spec_path, root, relative)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def read(spec: SpecFile) -> bytes:
    """At most one byte more than the size cap, so an oversized file is not read whole."""
    try:
        with open(spec.path, "rb") as handle:
            return handle.read(MAX_SPEC_BYTES + 1)
    except IsADirectoryError:
        raise InputError(f"{spec.relative}: is a folder; pass the spec file itself") from None
    except FileNotFoundError:
        raise InputError(f"{spec.relative}: no such file; check the spec's path") from None
    except OSError as error:
        reason = (error.strerror or "I/O error").lower()
        raise InputError(
            f"{spec.relative}: cannot be read ({reason}); check the path and its permissions"
        ) from None

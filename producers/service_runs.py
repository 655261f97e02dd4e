"""Which folder a per-service command reads, and where each of its documents goes.

`routes` and `schema` describe one service per document. At a monorepo root
(producers/services.py) they read each service package as its own
project (its own package.json, tsconfig and framework config, with the
root's lockfile for installed versions and the root's workspace packages for
a tsconfig `extends`: project/enclosing.py) and then rebase what they write onto the root: every
location path, symbol id and file named in a limitation gets the package
folder in front, so the ids are the ones `graph` at the root gives the same
declarations and documents of one root always join.

    --workspace PATH   one folder: the inner of --project and PATH is the package,
                       the outer the root ids are relative to (PATH equal to
                       --project reads the whole root as one project)
    --out-dir DIR      one document per service, DIR/<package file stem>.<json|txt>

Without either, a root with several services is a usage error naming each
service and the exact command for it; a root with one service reads it.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tsograph.exchange.documents import project_name
from tsograph.exchange.errors import InputError
from tsograph.exchange.errors import UsageError
from tsograph.exchange.version import TOOL_NAME
from tsograph.producers.command_args import project_folder
from tsograph.producers.command_args import shown
from tsograph.producers.project import paths
from tsograph.producers.project.enclosing import Enclosing
from tsograph.producers.project.packages import read_package
from tsograph.producers.services import Service
from tsograph.producers.services import find_services


def add_service_arguments(parser: Any) -> None:
    parser.add_argument(
        "--workspace",
        metavar="PATH",
        help="read one package of a monorepo: with --project the root, PATH is the package "
        "folder (or the reverse); paths and ids stay relative to the outer folder. "
        "PATH equal to --project reads the whole root as one project",
    )
    parser.add_argument(
        "--out-dir",
        metavar="DIR",
        help="write one document per service package of a monorepo root into DIR, named "
        "after the package (@acme/web -> DIR/acme__web.json, .txt with --format text); "
        "stdout stays empty",
    )


@dataclass(frozen=True)
class Target:
    """One document to write: the folder read (relative to the root) and its file."""

    root: Path
    folder: str
    out: Path | None = None
    # The root's document when it reads Python: the root's package.json names the
    # JavaScript side (a Django project's front-end build), not the Python service.
    python_out: Path | None = None

    @property
    def project(self) -> Path:
        return self.root / self.folder if self.folder else self.root

    @property
    def enclosing(self) -> Enclosing | None:
        """The root above a package's run: its lockfile and workspace packages."""
        return Enclosing(self.root, self.folder) if self.folder else None


def targets(args: Any, kind: str) -> list[Target]:
    """The documents a run writes: one per service, or the one project as before."""
    if args.workspace is not None:
        if args.out_dir is not None:
            raise UsageError("--workspace and --out-dir exclude each other; pass one of them")
        return [workspace_target(args.project, args.workspace)]
    root = Path(os.path.realpath(project_folder(args.project)))
    services = find_services(root, kind)
    if args.out_dir is None:
        if services is None or not services:
            return [Target(root, "")]
        if len(services) == 1:
            return [Target(root, services[0].folder)]
        raise UsageError(_choice_message(args, services))
    out_dir = _out_dir(args.out_dir)
    suffix = ".txt" if args.format == "text" else ".json"
    if not services:
        # The root is one project: one document, named after the root package.
        info = read_package(root, "", [])
        stem = Service("", info.name if info else None).file_stem or root.name
        python_out = out_dir / (project_name(root) + suffix)
        return [Target(root, "", out_dir / (stem + suffix), python_out)]
    return [Target(root, s.folder, out_dir / (s.file_stem + suffix)) for s in services]


def workspace_target(project: str, workspace: str) -> Target:
    """The root (the outer of the two folders) and the package folder under it."""
    real_project = Path(os.path.realpath(project_folder(project)))
    under_project = Path(project, workspace)
    if not os.path.lexists(workspace) and under_project.is_dir():
        # A path written from --project rather than from the working folder.
        raise InputError(
            f"--workspace {shown(workspace)}: no such folder; it is taken from the working "
            f"folder, not from --project: pass the --project path followed by /{workspace}"
        )
    real_package = Path(os.path.realpath(project_folder(workspace, "--workspace")))
    for outer, inner in ((real_project, real_package), (real_package, real_project)):
        try:
            relative = inner.relative_to(outer).as_posix()
        except ValueError:
            continue
        return Target(outer, "" if relative == "." else relative)
    raise UsageError(
        f"--workspace {shown(workspace)}: neither holds nor lies in --project; pass a "
        "package folder under the root"
    )


def _out_dir(value: str) -> Path:
    folder = Path(value)
    label = f"--out-dir {shown(value)}"
    if folder.exists() and not folder.is_dir():
        raise InputError(f"{label}: is a file, not a folder; pass a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        cause = (error.strerror or "error").lower()
        raise InputError(f"{label}: cannot be created ({cause}); pass a writable folder") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise InputError(f"{label}: cannot be written (permission denied); pass a writable folder")
    return folder


def _choice_message(args: Any, services: list[Service]) -> str:
    argv = [shown(item) for item in getattr(args, "argv", [])]
    project = shown(args.project)
    commands = "; ".join(
        shlex.join([TOOL_NAME, *argv, "--workspace", paths.join(project, s.folder)])
        for s in services
    )
    folders = ", ".join(s.folder for s in services)
    return (
        f"--project {project} holds {len(services)} services ({folders}) and a document "
        f"covers one; pass --out-dir DIR for one document each, or run one of: {commands}"
    )


@contextlib.contextmanager
def output_of(target: Target, platform: str) -> Iterator[None]:
    """Send what the command writes to stdout into the target's file, when it has one.

    The document is written to a temporary file beside it and renamed once
    complete, so a failed run never leaves half a document under the name.
    """
    out = target.python_out if platform == "python" and target.python_out else target.out
    if out is None:
        yield
        return
    temporary = out.with_name(out.name + ".part")
    saved = sys.stdout
    try:
        with open(temporary, "wb") as handle:
            sys.stdout = io.TextIOWrapper(handle, encoding="utf-8", newline="\n")
            try:
                yield
                sys.stdout.flush()
            finally:
                sys.stdout.detach()
                sys.stdout = saved
        os.replace(temporary, out)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


# ---- rebasing a package run onto the root ------------------------------------------

_PATH_KEYS = ("usr", "qualifiedName", "group")
# A project-relative file as limitation details name it, with an optional `:line`.
_EXTENDS_NOTE = re.compile(
    r"^(?P<head>extends .* of )(?P<folder>\S+)(?P<tail> not (?:read|found).*)$"
)
_FILE_WORD = re.compile(
    r"^[^\s:/@][^\s:]*\.(?:[cm]?[jt]sx?|json|prisma|sql|ya?ml|toml|py)(?::\d+)*$"
)


def rebase_facts(facts: list[dict[str, Any]], folder: str) -> list[dict[str, Any]]:
    """The facts of a run at `folder` with their paths and ids relative to the root."""
    if not folder:
        return facts
    return [_rebased(fact, folder) for fact in facts]


def _rebased(value: Any, folder: str) -> Any:
    if isinstance(value, dict):
        result: dict[str, Any] = {}
        for key, item in value.items():
            if key == "location" and isinstance(item, dict) and isinstance(item.get("path"), str):
                result[key] = {**item, "path": paths.join(folder, item["path"])}
            elif key in _PATH_KEYS and isinstance(item, str) and "#" in item:
                result[key] = paths.join(folder, item)
            else:
                result[key] = _rebased(item, folder)
        return result
    if isinstance(value, list):
        return [_rebased(item, folder) for item in value]
    return value


def rebase_limitations(lines: list[str], folder: str) -> list[str]:
    """Limitation lines with the files they name (`(a.ts, b.ts, and 3 more)`) rebased.

    A line ends with `(details)` (exchange/limitations.py `counted`): a breakdown
    `reason: n`, file names, `and n more`. Only the names are rebased; a line
    without details is kept as written.
    """
    if not folder:
        return lines
    return [_rebased_line(line, folder) for line in lines]


def _rebased_line(line: str, folder: str) -> str:
    start = _details_start(line)
    if start is None:
        return line
    items = _split_top(line[start + 1 : -1])
    return line[: start + 1] + ", ".join(_rebased_item(item, folder) for item in items) + ")"


def _rebased_item(item: str, folder: str) -> str:
    """A detail whose first word is a file (`src/a.ts`, `src/a.ts:12`, `package.json not
    read (…)`) with the folder in front; counts, package names and prose as written."""
    head, separator, place = item.rpartition("; at ")
    if separator:
        # Names or a breakdown, then the places (exchange/limitations.py `counted`).
        return _rebased_item(head, folder) + separator + _rebased_item(place, folder)
    if item.startswith("at "):
        return "at " + _rebased_item(item[3:], folder)
    extends = _EXTENDS_NOTE.match(item)
    if extends:
        # project/tsconfig_extends.py names the folder whose config extends ("." the root).
        place = folder if extends["folder"] == "." else paths.join(folder, extends["folder"])
        return f"{extends['head']}{place}{extends['tail']}"
    first, space, rest = item.partition(" ")
    if not _FILE_WORD.match(first):
        return item
    return paths.join(folder, first) + space + rest


def _details_start(line: str) -> int | None:
    """Where the closing `(…)` group of a line opens, matching nested parentheses."""
    if not line.endswith(")"):
        return None
    depth = 0
    for index in range(len(line) - 1, -1, -1):
        if line[index] == ")":
            depth += 1
        elif line[index] == "(":
            depth -= 1
            if depth == 0:
                return index
    return None


def _split_top(text: str) -> list[str]:
    items: list[str] = []
    depth = 0
    current = ""
    for index, char in enumerate(text):
        depth += char == "("
        depth -= char == ")"
        if char == "," and depth == 0 and text[index + 1 : index + 2] == " ":
            items.append(current)
            current = ""
            continue
        if char == " " and not current and items:
            continue
        current += char
    items.append(current)
    return items

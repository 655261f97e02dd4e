"""The base version of a review, read from git objects, never checked out.

The base is a commit; its files under the project folder are written from
`git ls-tree` and `git cat-file --batch` into a scratch folder, which the
graph is then built from like any folder (the facts cache is keyed by
content, so files the change left alone are not parsed again). The work tree
is the other side, as it is on disk: committed, staged, unstaged and
untracked files alike.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import orjson

from tsograph.exchange.errors import InputError
from tsograph.producers.project.facts_cache import atomic_write

# Folders the graph never reads: their files are not written to the scratch base.
SKIPPED_FOLDERS = frozenset({"node_modules", ".git", "dist", "build", "out", "vendor"})
# A blob larger than this is no source the graph reads (graph files are capped lower).
MAX_BLOB = 4 << 20
# What the graph, the route and the schema readers open: sources, manifests and configs
# (package.json, tsconfig, lockfiles, workspace files, Prisma schemas, Python manifests).
# Stylesheets, images, documents and the rest are not written to the scratch base.
READ_SUFFIXES = (
    ".ts",
    ".tsx",
    ".mts",
    ".cts",
    ".js",
    ".jsx",
    ".mjs",
    ".cjs",
    ".json",
    ".jsonc",
    ".json5",
    ".yaml",
    ".yml",
    ".prisma",
    ".py",
    ".pyi",
    ".toml",
    ".txt",
    ".cfg",
    ".lock",
    ".sql",
    ".mdx",
)
_DEFAULT_BRANCHES = ("refs/remotes/origin/HEAD", "refs/heads/main", "refs/heads/master")


def git(top: Path, *args: str, input: bytes | None = None) -> bytes:
    done = subprocess.run(
        ["git", "-C", str(top), *args], input=input, capture_output=True, check=False
    )
    if done.returncode != 0:
        line = done.stderr.decode("utf-8", "replace").strip().splitlines()
        cause = line[0] if line else f"exit {done.returncode}"
        command = next(arg for arg in args if not arg.startswith("-") and "=" not in arg)
        raise InputError(f"review: git {command} failed: {cause}")
    return done.stdout


def toplevel(project: Path) -> Path:
    """The work tree's top folder, refused when the project is not in a git work tree."""
    done = subprocess.run(
        ["git", "-C", str(project), "rev-parse", "--show-toplevel"],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        raise InputError(
            f"review: {project.name or project} is not inside a git work tree; "
            "run it in a clone of the repository, or give --project a folder inside one"
        )
    return Path(done.stdout.decode().strip())


@dataclass(frozen=True)
class Base:
    commit: str
    how: str  # how it was chosen: "--base REF", "merge base with REF", "HEAD"


def resolve_base(top: Path, ref: str | None) -> Base:
    if ref is not None:
        given = git(top, "rev-parse", "--verify", "--end-of-options", f"{ref}^{{commit}}")
        return Base(given.decode().strip(), f"--base {ref}")
    head = git(top, "rev-parse", "--verify", "HEAD^{commit}").decode().strip()
    for branch in _DEFAULT_BRANCHES:
        probe = subprocess.run(
            ["git", "-C", str(top), "rev-parse", "--verify", "-q", f"{branch}^{{commit}}"],
            capture_output=True,
            check=False,
        )
        if probe.returncode != 0:
            continue
        merge = subprocess.run(
            ["git", "-C", str(top), "merge-base", "HEAD", branch],
            capture_output=True,
            check=False,
        )
        if merge.returncode == 0:
            commit = merge.stdout.decode().strip()
            name = branch.removeprefix("refs/heads/").removeprefix("refs/remotes/")
            if commit != head:
                return Base(commit, f"merge base with {name}")
            break
    return Base(head, "HEAD")


def write_base(top: Path, commit: str, prefix: str, into: Path) -> list[str]:
    """Write the commit's regular files under `prefix` into `into`; the paths whose blob
    the clone does not hold (a partial clone), which the base graph cannot read."""
    listing = git(top, "ls-tree", "-r", "-z", "-l", "--full-tree", commit, "--", prefix or ".")
    wanted: list[tuple[str, str]] = []
    missing: list[str] = []
    for entry in listing.split(b"\0"):
        if not entry:
            continue
        meta, _, raw_path = entry.partition(b"\t")
        mode, kind, sha, size_text = meta.split()
        path = raw_path.decode("utf-8", "surrogateescape")
        parts = path.split("/")
        # Symlinks (120000) and submodules (commit) are not files the graph reads.
        # A blob missing from a partial clone shows its size as BAD: it cannot be read.
        if kind != b"blob" or mode not in (b"100644", b"100755"):
            continue
        if not size_text.isdigit():
            missing.append(path)
            continue
        if int(size_text) > MAX_BLOB:
            continue
        if SKIPPED_FOLDERS.intersection(parts[:-1]) or ".." in parts:
            continue
        if not parts[-1].lower().endswith(READ_SUFFIXES) and not parts[-1].startswith("."):
            continue
        wanted.append((sha.decode(), path))
    if not wanted:
        return missing
    batch = git(top, "cat-file", "--batch", input="".join(f"{sha}\n" for sha, _ in wanted).encode())
    offset = 0
    for _, path in wanted:
        header_end = batch.index(b"\n", offset)
        header = batch[offset:header_end].split()
        if header[1] == b"missing":
            missing.append(path)
            offset = header_end + 1
            continue
        size = int(header[2])
        body = batch[header_end + 1 : header_end + 1 + size]
        offset = header_end + 1 + size + 1
        relative = path[len(prefix) + 1 :] if prefix else path
        target = into / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(body)
    return sorted(missing)


def link_dependencies(work: Path, base: Path) -> None:
    """The work tree's installed packages (node_modules) seen from the base folder too, so
    calls into packages resolve alike on both sides: the base is read, never installed."""
    for folder, _, files in os.walk(base):
        if "package.json" not in files:
            continue
        relative = Path(folder).relative_to(base)
        installed = work / relative / "node_modules"
        if installed.is_dir() and not (Path(folder) / "node_modules").exists():
            (Path(folder) / "node_modules").symlink_to(installed, target_is_directory=True)


def changed_paths(top: Path, commit: str, prefix: str) -> dict[str, str]:
    """Path (relative to the top) -> A, M, D, or R<old path> for the work tree against the base,
    untracked files included."""
    spec = prefix or "."
    raw = git(top, "diff", "--name-status", "-z", "-M", "--no-ext-diff", commit, "--", spec)
    found: dict[str, str] = {}
    fields = [part.decode("utf-8", "surrogateescape") for part in raw.split(b"\0") if part]
    index = 0
    while index < len(fields):
        status = fields[index]
        if status.startswith(("R", "C")):
            old, new = fields[index + 1], fields[index + 2]
            found[new] = "R" + old
            if status.startswith("R"):
                found.setdefault(old, "D")
            index += 3
        else:
            found[fields[index + 1]] = status[0]
            index += 2
    untracked = git(top, "ls-files", "-z", "--others", "--exclude-standard", "--", spec)
    for part in untracked.split(b"\0"):
        if part:
            found.setdefault(part.decode("utf-8", "surrogateescape"), "A")
    return dict(sorted(found.items()))


def changed_lines(top: Path, commit: str, prefix: str) -> dict[str, tuple[set[int], set[int]]]:
    """Per work tree path (relative to the top): the lines the change replaced in the base
    file and the lines it wrote in the work tree file (tracked files only).

    A pure deletion marks no line on the new side and a pure addition none on
    the base side: the lines around the gap may belong to two declarations the
    change left alone (the enclosing declaration is found from the other side's
    lines).
    """
    raw = git(
        top,
        "-c",
        "core.quotePath=false",
        "diff",
        "-U0",
        "--no-ext-diff",
        "--no-color",
        "-M",
        commit,
        "--",
        prefix or ".",
    )
    found: dict[str, tuple[set[int], set[int]]] = {}
    old_path: str | None = None
    current: tuple[set[int], set[int]] | None = None
    for line in raw.decode("utf-8", "surrogateescape").splitlines():
        if line.startswith("--- "):
            old_path = line[6:] if line.startswith("--- a/") else None
        elif line.startswith("+++ "):
            new_path = line[6:] if line.startswith("+++ b/") else old_path
            current = found.setdefault(new_path or "", (set(), set()))
        elif line.startswith("@@ ") and current is not None:
            old_range, new_range = line.split(" ")[1:3]
            _span(old_range[1:], current[0])
            _span(new_range[1:], current[1])
    found.pop("", None)
    return found


def _span(text: str, into: set[int]) -> None:
    start_text, _, count_text = text.partition(",")
    start, count = int(start_text), int(count_text) if count_text else 1
    into.update(range(start, start + count))


# Bases kept in the cache folder for the next review of the same base; older ones go.
KEPT_BASES = 4


def kept_base(
    store: Path, top: Path, commit: str, prefix: str, work: Path
) -> tuple[Path, list[str]]:
    """The base written once under `store` and kept: a later review of the same base reads
    the same folder, so its cached graph (whose checks read the folder's configs) is used
    and nothing is written or deleted again. The folder and the paths missing from it."""
    name = hashlib.sha256(f"{commit}\0{prefix}\0{work}".encode()).hexdigest()[:24]
    folder, marker = store / name, store / f"{name}.json"
    try:
        missing = orjson.loads(marker.read_bytes())
        if folder.is_dir() and isinstance(missing, list):
            os.utime(marker)
            return folder, [str(path) for path in missing]
    except (OSError, orjson.JSONDecodeError):
        pass
    store.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f"{name}.", dir=store))
    missing = write_base(top, commit, prefix, scratch)
    link_dependencies(work, scratch)
    shutil.rmtree(folder, ignore_errors=True)
    try:
        scratch.rename(folder)
    except OSError:  # another review wrote the same base meanwhile: theirs is the same
        shutil.rmtree(scratch, ignore_errors=True)
    atomic_write(marker, orjson.dumps(missing))
    _prune(store)
    return folder, missing


def _prune(store: Path) -> None:
    markers = sorted(store.glob("*.json"), key=lambda path: path.stat().st_mtime, reverse=True)
    for marker in markers[KEPT_BASES:]:
        shutil.rmtree(store / marker.stem, ignore_errors=True)
        marker.unlink(missing_ok=True)

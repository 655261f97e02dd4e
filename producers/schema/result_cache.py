"""A cache of whole `schema` results, so a run over an unchanged project reads no ORM code.

The graph keeps whole graphs the same way (both through producers/whole_results.py). The
key covers every file the walk found (path and content hash, tests and `.d.ts`
files included: module resolution sees them all), the walk's own gaps, the
`--include-tests` choice, and the code that makes the result. What the
collectors read besides sources is stored with the entry as dependencies and
checked again before the entry is used: configuration, schema and SQL files read
through producers/project/fsread.py (recorded there), and the folder listings
and links the Prisma collector looks at (recorded here, see `Probes`). A changed,
added or removed file of any of these kinds makes the entry stale.

An entry holds the facts, the files read (for sourceModifiedAt, taken again from
the files) and the limitation lines.
"""

from __future__ import annotations

import functools
import hashlib
import os
import stat
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

import orjson

from tsograph.producers.project.cache_names import cache_namespace
from tsograph.producers.project.cache_names import code_digest
from tsograph.producers.project.fsread import Dependency
from tsograph.producers.project.model import ProjectModel
from tsograph.producers.whole_results import ResultStore

ENTRY_VERSION = 1
_EXCHANGE = Path(__file__).resolve().parents[2] / "exchange"


# The producers folders whose code turns facts into a schema result.
SCHEMA_CODE = ("project", "schema", "values")


@functools.cache
def schema_namespace() -> str:
    """The front-end's namespace and a digest of the code that turns facts into the result."""
    digest = hashlib.sha256(code_digest(SCHEMA_CODE).encode())
    for source in sorted(_EXCHANGE.rglob("*.py")):
        digest.update(source.name.encode())
        digest.update(source.read_bytes())
    return f"{cache_namespace()} schema {digest.hexdigest()[:16]}"


def schema_key(model: ProjectModel, include_tests: bool) -> str:
    """Everything the walk saw: each walked file's path and content hash, and its gaps."""
    files = []
    for walked in (*model.sources.sources, *model.sources.declaration_files):
        data = model.data(walked.path)
        files.append(
            [
                walked.path,
                hashlib.sha256(data).hexdigest()
                if data is not None
                else "unreadable:" + model.failures[walked.path],
            ]
        )
    payload = orjson.dumps(
        [
            ENTRY_VERSION,
            schema_namespace(),
            include_tests,
            files,
            [walked.path for walked in model.sources.declaration_files],
            model.sources.limitation_lines(),
            # A service run also reads its workspace root: not the result of a plain run.
            model.enclosing.folder if model.enclosing is not None else None,
        ]
    )
    return hashlib.sha256(payload).hexdigest()


# ---- probes the Prisma collector makes outside fsread ------------------------------


def entry_kinds(root: Path, folder: str) -> list[tuple[str, str]] | None:
    """(name, kind) of each entry of a folder, sorted by name; None when it cannot be listed.

    kind: `dir`, `file` (anything else that is no link), `link-dir` (a link to a
    folder, or one that cannot be resolved) or `link`.
    """
    try:
        with os.scandir(root / folder if folder else root) as listing:
            entries = sorted(listing, key=lambda entry: entry.name)
    except OSError:
        return None
    kinds = []
    for entry in entries:
        if entry.is_symlink():
            try:
                linked_dir = entry.is_dir()  # resolves the link only to see what it is
            except OSError:
                linked_dir = True  # a loop or an unreadable target could hide files
            kinds.append((entry.name, "link-dir" if linked_dir else "link"))
        elif entry.is_dir(follow_symlinks=False):
            kinds.append((entry.name, "dir"))
        else:
            kinds.append((entry.name, "file"))
    return kinds


def lstat_kind(root: Path, relative: str) -> str:
    """`file`, `link`, `other` or `absent`: what lstat sees at a path."""
    try:
        mode = os.lstat(root / relative).st_mode
    except OSError:
        return "absent"
    if stat.S_ISLNK(mode):
        return "link"
    return "file" if stat.S_ISREG(mode) else "other"


def _digest(kinds: list[tuple[str, str]] | None) -> str:
    return "unlistable" if kinds is None else hashlib.sha256(orjson.dumps(kinds)).hexdigest()


@dataclass
class Probes:
    """The listings and lstat probes of one run, as dependencies of its cached result."""

    root: Path
    seen: list[Dependency] = field(default_factory=list)

    def entries(self, folder: str) -> list[tuple[str, str]] | None:
        kinds = entry_kinds(self.root, folder)
        self.seen.append(("schema-entries", folder, _digest(kinds)))
        return kinds

    def kind(self, relative: str) -> str:
        found = lstat_kind(self.root, relative)
        self.seen.append(("schema-lstat", relative, found))
        return found


def _probes_hold(root: Path, probes: Iterable[Dependency]) -> bool:
    for kind, relative, outcome in probes:
        if kind == "schema-entries":
            now = _digest(entry_kinds(root, relative))
        else:
            now = lstat_kind(root, relative)
        if now != outcome:
            return False
    return True


# ---- entries -----------------------------------------------------------------------


@dataclass(frozen=True)
class SchemaResult:
    facts: list[dict[str, Any]]
    read: list[str]  # root-relative, in reading order
    limitations: list[str]


class ResultCache:
    def __init__(self, directory: Path | None) -> None:
        self.store = ResultStore(directory, "schemas", "schema")

    @property
    def directory(self) -> Path | None:
        return self.store.directory

    def load(self, root: Path, key: str) -> SchemaResult | None:
        payload = self.store.load(root, key)
        if payload is None:
            return None
        try:
            probes = [tuple(item) for item in payload["probes"]]
            result = SchemaResult(payload["facts"], payload["read"], payload["limitations"])
        except (KeyError, TypeError):
            return None
        return result if _probes_hold(root, probes) else None

    def save(
        self,
        key: str,
        dependencies: Sequence[Dependency],
        probes: Sequence[Dependency],
        result: SchemaResult,
    ) -> None:
        payload = {
            "probes": sorted(set(probes)),
            "facts": result.facts,
            "read": result.read,
            "limitations": result.limitations,
        }
        self.store.store(key, dependencies, payload)

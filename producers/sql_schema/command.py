"""`tsograph sql-schema FILE...|DIR`: the tables and columns SQL migrations leave behind.

Every `.sql` file named, or found below a named folder (symbolic links are not
followed, dot-folders and node_modules are skipped), is applied in the order
of its project-relative path, which is the order migration tools name their
files in (`0001_init.sql`, `prisma/migrations/20240101_init/migration.sql`).
The result is a bridge-facts document with `platform: "sql"`,
`target: "persistence"` (null with no facts) and the server role: one
relation-use fact per table (`channel`) and per column (`channel`, `method`),
located at the statement that last created or renamed it, symbol.qualifiedName
`table` or `table.column`. It is the declaration side of
`tsograph check --pairs`.

Limitations: `unparsed-schema-lines:` counts statements that could change a
table but that sqlglot cannot read (listed by file:line), `unreadable-sources:`
files that are not UTF-8 or cannot be read, `oversized-sources:` files over
16 MiB, `skipped-symlinks:` links that were not followed.

Exit codes: 0 with a document, 2 unreadable input or oversized output, 64
usage error (a file outside --project, an unknown --dialect).
"""

from __future__ import annotations

import argparse
import os
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any

from tsograph.exchange.documents import bridge_facts
from tsograph.exchange.documents import generated_at
from tsograph.exchange.documents import project_name
from tsograph.exchange.documents import source_modified_at
from tsograph.exchange.errors import InputError
from tsograph.exchange.errors import UsageError
from tsograph.exchange.limitations import counted
from tsograph.exchange.locations import LineIndex
from tsograph.exchange.writer import check_fact_budget
from tsograph.producers.command_args import add_output_arguments
from tsograph.producers.command_args import project_folder
from tsograph.producers.command_args import shown
from tsograph.producers.help_text import add_command
from tsograph.producers.output_formats import emit

if TYPE_CHECKING:
    from tsograph.producers.sql_schema.ddl import Catalog
    from tsograph.producers.sql_schema.ddl import Place

MAX_FILE_BYTES = 16 * 1024 * 1024
_SKIPPED_FOLDERS = frozenset({"node_modules"})


def register(subparsers: Any) -> None:
    parser = add_command(subparsers, "sql-schema")
    parser.add_argument("paths", nargs="+", metavar="FILE|DIR", help="a .sql file or a folder")
    parser.add_argument(
        "--project",
        help="the join root that locations are relative to (default: the folder given, "
        "else the current folder)",
    )
    parser.add_argument(
        "--dialect",
        help="sqlglot dialect to read with (postgres, mysql, sqlite, …; default: sqlglot's own)",
    )
    add_output_arguments(parser)
    parser.set_defaults(run=run)


def _dialect(name: str | None) -> str | None:
    if name is None:
        return None
    import sqlglot  # here, not at the top: every tsograph start would pay its import

    known = sorted(key for key in sqlglot.Dialect.classes if isinstance(key, str) and key)
    if name not in known:
        raise UsageError(f"--dialect {name}: unknown; pass one of {', '.join(known)}")
    return name


def _root(args: argparse.Namespace) -> Path:
    if args.project is not None:
        return project_folder(args.project)
    if len(args.paths) == 1 and Path(args.paths[0]).is_dir():
        return project_folder(args.paths[0], "FILE|DIR")
    return project_folder(".", "the current folder")


def _relative(root: Path, path: Path, given: str) -> str:
    try:
        return Path(os.path.realpath(path)).relative_to(os.path.realpath(root)).as_posix()
    except ValueError:
        raise UsageError(
            f"{shown(given)}: is outside the project; pass --project with a folder that holds it"
        ) from None


def _collect(root: Path, given: list[str], symlinks: list[str]) -> dict[str, Path]:
    files: dict[str, Path] = {}
    for name in given:
        path = Path(name)
        if path.is_symlink():
            symlinks.append(shown(name))
        elif path.is_dir():
            for folder, dirs, names in os.walk(path):
                dirs[:] = sorted(
                    d for d in dirs if not d.startswith(".") and d not in _SKIPPED_FOLDERS
                )
                for entry in [*dirs, *names]:
                    if (Path(folder) / entry).is_symlink():
                        symlinks.append(_relative(root, Path(folder) / entry, name))
                dirs[:] = [d for d in dirs if not (Path(folder) / d).is_symlink()]
                for file in names:
                    found = Path(folder) / file
                    if file.endswith(".sql") and not found.is_symlink():
                        files[_relative(root, found, name)] = found
        elif path.is_file():
            files[_relative(root, path, name)] = path
        else:
            raise InputError(f"{shown(name)}: no such file or folder; pass SQL files or a folder")
    return files


def run(args: argparse.Namespace) -> int:
    # Imported when the command runs: sqlglot is a tenth of a second of every start.
    from tsograph.producers.sql_schema.ddl import Catalog
    from tsograph.producers.sql_schema.ddl import Place
    from tsograph.producers.sql_schema.ddl import apply_file

    generated = generated_at(args.generated_at)
    dialect = _dialect(args.dialect)
    root = _root(args)
    symlinks: list[str] = []
    files = _collect(root, list(args.paths), symlinks)
    catalog = Catalog()
    unreadable: list[str] = []
    oversized: list[str] = []
    texts: dict[str, str] = {}
    for relative in sorted(files):
        try:
            data = files[relative].read_bytes()
        except OSError:
            unreadable.append(relative)
            continue
        if len(data) > MAX_FILE_BYTES:
            oversized.append(relative)
            continue
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            unreadable.append(relative)
            continue
        texts[relative] = text
        apply_file(catalog, relative, text, dialect)
    facts = _facts(catalog, texts)
    check_fact_budget(len(facts))
    limitations = []
    if catalog.unread:
        limitations.append(
            counted(
                "unparsed-schema-lines:",
                len(catalog.unread),
                "statement(s) that may change a table could not be read",
                places=[
                    (path, _line(texts, Place(path, offset))) for path, offset in catalog.unread
                ],
            )
        )
    if unreadable:
        limitations.append(
            counted("unreadable-sources:", len(unreadable), "file(s) unreadable", names=unreadable)
        )
    if oversized:
        limitations.append(
            counted("oversized-sources:", len(oversized), "file(s) over 16 MiB", names=oversized)
        )
    if symlinks:
        limitations.append(
            counted("skipped-symlinks:", len(symlinks), "link(s) not followed", names=symlinks)
        )
    document = bridge_facts(
        platform="sql",
        target="persistence" if facts else None,
        roles=["server"],
        service=None,
        project=project_name(root),
        generated=generated,
        source_modified=source_modified_at(files.values()),
        limitations=limitations,
        facts=facts,
    )
    emit(document, args.format)
    return 0


def _location(texts: dict[str, str], place: Place) -> dict[str, Any]:
    # The text was decoded without its BOM, so a leading BOM is not counted (as in openapi).
    text = texts[place.path]
    offset = len(text[: place.offset].encode("utf-8"))
    line, column = _index(text).position(offset)
    return {"path": place.path, "line": line, "column": column}


@cache
def _index(text: str) -> LineIndex:
    return LineIndex(text.encode("utf-8"), count_bom=False)


def _line(texts: dict[str, str], place: Place) -> int:
    return int(_location(texts, place)["line"])


def _facts(catalog: Catalog, texts: dict[str, str]) -> list[dict[str, Any]]:
    facts: list[dict[str, Any]] = []
    for name, table in catalog.tables.items():
        facts.append(
            {
                "kind": "relation-use",
                "channel": name,
                "location": _location(texts, table.place),
                "dynamic": False,
                "symbol": {"qualifiedName": name},
            }
        )
        for column, place in table.columns.items():
            facts.append(
                {
                    "kind": "relation-use",
                    "channel": name,
                    "method": column,
                    "location": _location(texts, place),
                    "dynamic": False,
                    "symbol": {"qualifiedName": f"{name}.{column}"},
                }
            )
    return facts

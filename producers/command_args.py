"""Arguments every command shares: output options, --service, --project and input files.

One place so that every command accepts, describes and rejects these
arguments with the same words and exit codes. A failure is one line naming
the file (as the user gave it, or its last component when that was an
absolute path, so no absolute path is printed), the cause and a fix:
`--project api: no such folder; pass the project root folder`.

A --project (or --workspace) that does not name a readable folder is an
unreadable project: exit 2 for every command, as the spec gives it for
`routes`, `schema` and `graph`. Leaving out a required option is a usage
error (exit 64).
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any

import orjson

from tsograph.exchange.errors import InputError
from tsograph.exchange.errors import UsageError
from tsograph.producers.output_formats import add_format_argument
from tsograph.producers.project.facts_cache import FactsCache
from tsograph.producers.project.facts_cache import default_cache_dir

if TYPE_CHECKING:
    from tsograph.producers.project.syntax_cache import SyntaxFiles

_MAX_SERVICE_CHARS = 256
_SERVICE_FORBIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def add_output_arguments(
    parser: Any, kind: str = "bridge-facts", own: Sequence[tuple[str, str]] = ()
) -> None:
    """--format and --generated-at, the options of every command that writes a `kind`
    document (the last ones of every bridge-facts command); `own` as for add_format_argument."""
    add_format_argument(parser, kind, own)
    parser.add_argument(
        "--generated-at",
        metavar="TIMESTAMP",
        help="fix generatedAt (UTC with milliseconds, 2026-01-01T00:00:00.000Z) for "
        "reproducible output",
    )


def add_source_arguments(parser: Any) -> None:
    """--project and --include-tests, the same for every bridge-facts command that reads the
    project's sources (routes, schema)."""
    parser.add_argument(
        "--project",
        required=True,
        metavar="ROOT",
        help="the project root, the join root that location paths and symbol ids are "
        "relative to (required)",
    )
    parser.add_argument(
        "--include-tests",
        action="store_true",
        help="also read test sources (*.test.*, *.spec.*, __tests__/, __mocks__/; Python: "
        "test_*.py, *_test.py, conftest.py, tests.py, test/, tests/); their facts carry "
        "testSource: true",
    )


def add_cache_arguments(parser: Any) -> None:
    """--cache-dir and --no-cache, the same for every command that reads sources."""
    parser.add_argument(
        "--cache-dir",
        metavar="DIR",
        help="where per-file facts and syntax, and whole graphs, are cached (default: "
        "$XDG_CACHE_HOME/tsograph or ~/.cache/tsograph)",
    )
    parser.add_argument(
        "--no-cache", action="store_true", help="parse every file, read and write no cache"
    )


def add_choice(parser: Any, flag: str, choices: Iterable[str], default: str, text: str) -> None:
    """An option taking one of `choices` (its --help lists them), `default` when left out."""
    parser.add_argument(flag, choices=list(choices), default=default, help=text)


def cache_folder(args: Any) -> Path:
    """The cache folder: --cache-dir, else the default one (whether or not --no-cache)."""
    return Path(args.cache_dir) if args.cache_dir else default_cache_dir()


def syntax_files(args: Any) -> SyntaxFiles:
    """The run's syntax files, cached by content unless --no-cache (see add_cache_arguments)."""
    # Imported here: every command's arguments come from this module, and only the
    # commands that read syntax trees need the syntax cache (and what it loads).
    from tsograph.producers.project.syntax_cache import SyntaxFiles
    from tsograph.producers.project.syntax_cache import syntax_namespace

    directory = None if args.no_cache else cache_folder(args)
    return SyntaxFiles(FactsCache(directory, syntax_namespace()))


def checked_service(name: str) -> str:
    """The --service value, refused (exit 64) when empty, too long or holding control characters."""
    if not name or len(name) > _MAX_SERVICE_CHARS or _SERVICE_FORBIDDEN.search(name):
        raise UsageError(
            f"--service must be 1 to {_MAX_SERVICE_CHARS} characters without control characters"
        )
    return name


def shown(path: str) -> str:
    """How a user-given path is named in messages: as given, never as an absolute path."""
    return (Path(path).name or "/") if Path(path).is_absolute() else path


def _cause(error: OSError) -> str:
    if isinstance(error, FileNotFoundError):
        return "no such file or folder"
    if isinstance(error, PermissionError):
        return "permission denied"
    return (error.strerror or "I/O error").lower()


def project_folder(project: str, option: str = "--project") -> Path:
    """The --project path, refused (exit 2) unless it names a readable folder."""
    root = Path(project)
    label = f"{option} {shown(project)}"
    try:
        info = os.stat(root)
    except FileNotFoundError:
        raise InputError(f"{label}: no such folder; pass the project root folder") from None
    except OSError as error:
        raise InputError(f"{label}: cannot be read ({_cause(error)}); check the path") from None
    if not stat.S_ISDIR(info.st_mode):
        raise InputError(f"{label}: is a file, not a folder; pass the project root folder")
    if not os.access(root, os.R_OK | os.X_OK):
        raise InputError(f"{label}: cannot be read (permission denied); check its permissions")
    return root


def read_input_file(path: str, label: str, limit: int, fix: str) -> bytes:
    """At most `limit` bytes of a file the user named; `label` names it in messages.

    `fix` completes the messages about a wrong file (missing, a folder, too
    large): what the user should pass instead.
    """
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except IsADirectoryError:
        raise InputError(f"{label}: is a folder, not a file; {fix}") from None
    except FileNotFoundError:
        raise InputError(f"{label}: no such file; {fix}") from None
    except OSError as error:
        raise InputError(
            f"{label}: cannot be read ({_cause(error)}); check its permissions"
        ) from None
    if len(data) > limit:
        raise InputError(f"{label}: larger than {_size(limit)}; {fix}")
    return data


def _size(limit: int) -> str:
    mebibytes, rest = divmod(limit, 1024 * 1024)
    return f"{mebibytes} MiB" if not rest else f"{limit} bytes"


def json_problem(error: orjson.JSONDecodeError) -> str:
    """Where and why JSON text did not parse: `not JSON (<reason> at line L, column C)`."""
    return f"not JSON ({error.msg} at line {error.lineno}, column {error.colno})"


def ndjson_records(
    lines: Iterable[bytes], first: int, message: Callable[[int, str], str]
) -> Iterator[tuple[int, Any]]:
    """Each non-blank line's number (counting from first) and parsed value; a line
    that is not JSON is an InputError worded by message(line number, json_problem)."""
    for number, line in enumerate(lines, start=first):
        if not line.strip():
            continue
        try:
            record = orjson.loads(line)
        except orjson.JSONDecodeError as error:
            raise InputError(message(number, json_problem(error))) from None
        yield number, record

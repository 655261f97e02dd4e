"""The `tsograph` command line: arguments, exit codes and nothing else.

Exit codes: 0 success, 2 unreadable input, invalid document or oversized
output, 3 `check` found disagreements (the report is on stdout), 64 usage
error (stdout stays empty). 1 is never used. An unexpected
exception is reported as `internal error (<kind>)` with exit 2: no traceback,
no source text, no absolute path.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
from collections.abc import Callable
from collections.abc import Sequence
from typing import NoReturn

from tsograph.exchange.errors import EXIT_INPUT
from tsograph.exchange.errors import ToolError
from tsograph.exchange.errors import UsageError
from tsograph.exchange.version import TOOL_NAME
from tsograph.exchange.version import TOOL_VERSION
from tsograph.producers import progress
from tsograph.producers.serve.client import served

Runner = Callable[[argparse.Namespace], int]

# Each command module offers `register(subparsers)` and sets `run` as the default.
# They are imported by name, and a run imports only the module of its command:
# together they load most of the package (about 0.8 s of start-up), while a
# warm `graph` or a `validate` needs a fraction of it, and a run a graph server
# answers (`main`) imports none of them.
COMMANDS = {
    "validate": "tsograph.producers.validate_command",
    "openapi": "tsograph.producers.openapi.command",
    "graph": "tsograph.producers.graph.command",
    "reach": "tsograph.producers.graph.traverse_command",
    "impact": "tsograph.producers.graph.traverse_command",
    "query": "tsograph.producers.query.command",
    "review": "tsograph.producers.review.command",
    "mcp": "tsograph.producers.mcp.command",
    "serve": "tsograph.producers.serve.command",
    "routes": "tsograph.producers.routes.command",
    "schema": "tsograph.producers.schema.command",
    "sql-schema": "tsograph.producers.sql_schema.command",
    "check": "tsograph.producers.check.command",
    "trace": "tsograph.producers.check.trace_command",
}


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as exit 64 instead of printing and exiting 2."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


def build_parser(command: str | None = None, *, every: bool = True) -> argparse.ArgumentParser:
    """The parser of `command` when it names one, else of every command (or none)."""
    parser = _Parser(
        prog=TOOL_NAME,
        description=(
            "Reads a TypeScript/JavaScript service without running it and writes "
            "what it serves, calls and stores as key-sorted JSON documents."
        ),
        epilog=(
            "Exit codes: 0 success, 2 unreadable input or invalid/oversized output, "
            "3 check found disagreements, 64 usage error."
        ),
    )
    parser.add_argument("--version", action="version", version=f"{TOOL_NAME} {TOOL_VERSION}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    if command in COMMANDS:
        names = [command]
    else:
        names = list(COMMANDS) if every or command is not None else []
    for module in dict.fromkeys(COMMANDS[name] for name in names):
        importlib.import_module(module).register(subparsers)
    return parser


def _command_word(argv: Sequence[str]) -> str | None:
    # The first word that is not an option: the top-level options take no value.
    return next((word for word in argv if not word.startswith("-")), None)


def run(argv: Sequence[str]) -> int:
    # Without a command word only --help lists the commands; `--version` and
    # "a command is required" need none of them.
    parser = build_parser(_command_word(argv), every=bool({"-h", "--help"} & set(argv)))
    try:
        args = parser.parse_args(list(argv))
        # The words as given, so a usage message can print the exact command to run.
        args.argv = list(argv)
        runner: Runner | None = getattr(args, "run", None)
        if runner is None:
            raise UsageError(f"a command is required (see '{TOOL_NAME} --help')")
        progress.start(sys.stderr)
        return runner(args)
    except ToolError as error:
        _report(error.message)
        return error.exit_code
    except RecursionError:
        _report("internal error (RecursionError): the input nests too deeply to be processed")
        return EXIT_INPUT
    except MemoryError:
        _report("internal error (MemoryError): the input is too large to be processed")
        return EXIT_INPUT
    except BrokenPipeError:
        return EXIT_INPUT
    except Exception as error:
        # The one place that turns a defect into exit 2 without a traceback.
        _report(f"internal error ({type(error).__name__})")
        return EXIT_INPUT
    finally:
        progress.finish()


def _report(message: str) -> None:
    progress.clear()
    first_line = message.splitlines()[0] if message else "error"
    sys.stderr.write(f"{TOOL_NAME}: {first_line}\n")
    sys.stderr.flush()


def main() -> NoReturn:
    # A run builds large trees of small, acyclic objects; the cyclic collector
    # would rescan them again and again for nothing (about a third of the time).
    gc.disable()
    argv = sys.argv[1:]
    # A live `tsograph serve` of the same graph scope answers before anything is imported.
    code = served(argv)
    if code is None:
        code = run(argv)
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away; silence the interpreter's own flush at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = EXIT_INPUT
    raise SystemExit(code)

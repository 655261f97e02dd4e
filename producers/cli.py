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
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from tsograph.exchange.errors import EXIT_INPUT, ToolError, UsageError
from tsograph.exchange.version import TOOL_NAME, TOOL_VERSION
from tsograph.producers import progress
from tsograph.producers.serve.client import served

Runner = Callable[[argparse.Namespace], int]


def _commands() -> tuple[Any, ...]:
    """Each command module: it offers `register(subparsers)` and sets `run` as the default.
    Imported only when the command line is parsed: a run a graph server answers
    (main) imports none of them."""
    from tsograph.producers import validate_command
    from tsograph.producers.check import command as check_command
    from tsograph.producers.check import trace_command
    from tsograph.producers.graph import command as graph_command
    from tsograph.producers.graph import traverse_command
    from tsograph.producers.mcp import command as mcp_command
    from tsograph.producers.openapi import command as openapi_command
    from tsograph.producers.query import command as query_command
    from tsograph.producers.review import command as review_command
    from tsograph.producers.routes import command as routes_command
    from tsograph.producers.schema import command as schema_command
    from tsograph.producers.serve import command as serve_command
    from tsograph.producers.sql_schema import command as sql_schema_command

    return (
        validate_command,
        openapi_command,
        graph_command,
        traverse_command,
        query_command,
        review_command,
        mcp_command,
        serve_command,
        routes_command,
        schema_command,
        sql_schema_command,
        check_command,
        trace_command,
    )


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as exit 64 instead of printing and exiting 2."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


def build_parser() -> argparse.ArgumentParser:
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
    for module in _commands():
        module.register(subparsers)
    return parser


def run(argv: Sequence[str]) -> int:
    parser = build_parser()
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

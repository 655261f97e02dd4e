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
from collections.abc import Callable, Sequence
from typing import NoReturn

from tsograph.exchange.errors import EXIT_INPUT, ToolError, UsageError
from tsograph.exchange.version import TOOL_NAME, TOOL_VERSION
from tsograph.producers import progress

Runner = Callable[[argparse.Namespace], int]

# Each command module offers `register(subparsers)` and sets `run` as the default; here
# the commands each registers, in the order `--help` lists them. A run names its command
# first, and only that module is imported: importing every command's code costs about a
# second of CPU per process when no bytecode is cached, and the graph command needs a
# third of it.
COMMANDS: dict[str, str] = {
    "validate": "tsograph.producers.validate_command",
    "openapi": "tsograph.producers.openapi.command",
    "graph": "tsograph.producers.graph.command",
    "reach": "tsograph.producers.graph.traverse_command",
    "impact": "tsograph.producers.graph.traverse_command",
    "query": "tsograph.producers.query.command",
    "review": "tsograph.producers.review.command",
    "mcp": "tsograph.producers.mcp.command",
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


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of `command`'s module alone (a name in COMMANDS)."""
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
    modules = dict.fromkeys(COMMANDS.values()) if command is None else [COMMANDS[command]]
    for module in modules:
        importlib.import_module(module).register(subparsers)
    return parser


def run(argv: Sequence[str]) -> int:
    # A run that starts with a command's name parses as the full parser would: the other
    # commands only matter to `--help` and to a misspelt name, which get the full parser.
    parser = build_parser(argv[0]) if argv and argv[0] in COMMANDS else build_parser()
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
    code = run(sys.argv[1:])
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away; silence the interpreter's own flush at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = EXIT_INPUT
    raise SystemExit(code)

"""`--help` of every command: each option with a sentence, the exit codes, an example."""

from __future__ import annotations

import argparse

import pytest

from tests.cli_helpers import tsograph
from tsograph.producers import cli


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = cli.build_parser()
    (subparsers,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(subparsers.choices)


COMMANDS = sorted(_commands())


def test_every_command_is_covered() -> None:
    assert COMMANDS == [
        "check",
        "graph",
        "impact",
        "mcp",
        "openapi",
        "query",
        "reach",
        "review",
        "routes",
        "schema",
        "serve",
        "sql-schema",
        "trace",
        "validate",
    ]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_option_says_what_it_does(command: str) -> None:
    for action in _commands()[command]._actions:
        assert action.help, f"{command} {action.option_strings or action.dest} has no help"
        assert len(action.help.split()) >= 3, f"{command} {action.dest}: {action.help!r}"


@pytest.mark.parametrize("command", COMMANDS)
def test_help_lists_exit_codes_and_examples(command: str) -> None:
    result = tsograph(command, "--help")
    assert result.code == 0
    text = result.stdout.decode("utf-8")
    codes = text.split("exit codes:\n", 1)[1].split("\n\nexamples:\n", 1)
    listed = [line.split()[0] for line in codes[0].splitlines() if not line.startswith("      ")]
    # check adds 3 (findings); every command has 0, 2 and 64, in order.
    assert listed in (["0", "2", "64"], ["0", "2", "3", "64"]), listed
    examples = codes[1].splitlines()
    assert examples and all(line.startswith("  tsograph ") for line in examples)
    assert any(
        line.startswith(f"  tsograph {command} ") or f" tsograph {command} " in line
        for line in examples
    )


def test_schema_help_names_the_orms_and_drivers() -> None:
    # The description as written: the rendered help may break a name at its hyphen.
    flat = _commands()["schema"].description or ""
    for name in (
        "Prisma",
        "Drizzle",
        "TypeORM",
        "Sequelize",
        "knex",
        "pg,",
        "mysql2",
        "better-sqlite3",
        "postgres.js",
        "Cloudflare D1",
    ):
        assert name in flat, name


def test_format_help_names_every_choice() -> None:
    for command in ("graph", "reach", "schema"):
        action = next(a for a in _commands()[command]._actions if a.dest == "format")
        assert action.choices is not None
        for choice in action.choices:
            assert f"{choice}" in (action.help or ""), (command, choice)

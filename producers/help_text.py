"""The closing part of every command's --help: its exit codes and examples, laid out as written.

One helper so that every command states its exit codes in the same form
(the codes are those of exchange.errors; 1 is never used).
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Sequence
from typing import Any

# Exit code lines are wrapped to this width; examples stay on one line to be copied.
_WIDTH = 88
USAGE_ERROR = "usage error: a wrong or missing option or argument (stdout stays empty)"


def command_help(
    description: str, exit_codes: Sequence[tuple[int, str]], examples: Sequence[str]
) -> dict[str, Any]:
    """Keyword arguments for add_parser: the description, then exit codes and examples."""
    codes = "\n".join(
        textwrap.fill(text, _WIDTH, initial_indent=f"  {code:<4}", subsequent_indent=" " * 6)
        for code, text in exit_codes
    )
    shown = "\n".join(f"  {example}" for example in examples)
    return {
        "description": description,
        "epilog": f"exit codes:\n{codes}\n\nexamples:\n{shown}",
        "formatter_class": _Formatter,
    }


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Wraps the description and option help, keeps the epilog's lines as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith("exit codes:\n"):
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return argparse.HelpFormatter._fill_text(self, text, width, indent)

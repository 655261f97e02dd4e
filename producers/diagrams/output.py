"""`--format mermaid|dot` and `--max-nodes` for the commands that draw diagrams."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any
from typing import BinaryIO

from tsograph.exchange.errors import UsageError
from tsograph.producers.diagrams import dot
from tsograph.producers.diagrams import mermaid
from tsograph.producers.diagrams.cut import DEFAULT_MAX_NODES
from tsograph.producers.diagrams.cut import MAX_MAX_NODES
from tsograph.producers.diagrams.model import Diagram

RENDERERS: dict[str, Callable[[Diagram], str]] = {"mermaid": mermaid.render, "dot": dot.render}
DIAGRAM_FORMATS = tuple(RENDERERS)


def _max_nodes(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("--max-nodes must be a whole number") from None
    if not 2 <= value <= MAX_MAX_NODES:
        raise argparse.ArgumentTypeError(f"--max-nodes must be between 2 and {MAX_MAX_NODES}")
    return value


def add_max_nodes(parser: Any) -> None:
    parser.add_argument(
        "--max-nodes",
        type=_max_nodes,
        help=f"with --format mermaid or dot: draw at most this many nodes, the nearest first "
        f"(default {DEFAULT_MAX_NODES}; a last node counts the rest)",
    )


def max_nodes(args: argparse.Namespace) -> int:
    """The cap of a diagram; a usage error when --max-nodes comes without a diagram format."""
    if args.format not in RENDERERS:
        if args.max_nodes is not None:
            raise UsageError(
                "--max-nodes applies to --format mermaid and --format dot; "
                "leave it out, or choose one of those formats"
            )
        return DEFAULT_MAX_NODES
    return DEFAULT_MAX_NODES if args.max_nodes is None else int(args.max_nodes)


def write_diagram(diagram: Diagram, format_name: str, out: BinaryIO | None = None) -> None:
    """The diagram in the format (on stdout, or `out`)."""
    target = sys.stdout.buffer if out is None else out
    target.write(RENDERERS[format_name](diagram).encode("utf-8"))
    target.flush()

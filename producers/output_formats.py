"""The output formats of the commands: JSON, the default, and readings registered by name.

JSON is the only form other tools read. Every other format is a renderer
registered here under a name for the document kind it reads: `--format NAME`
validates the document exactly as the JSON output does, then writes the
renderer's text. A new format (a diagram of a traversal, say) is one more
entry in RENDERERS; the commands take their `--format` choices from here.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from typing import BinaryIO

from tsograph.exchange.writer import write_document
from tsograph.exchange.writer import write_text
from tsograph.producers.text_format import facts_text
from tsograph.producers.text_format import graph_text
from tsograph.producers.text_format import traversal_text

JSON = "json"


@dataclass(frozen=True)
class Renderer:
    render: Callable[[dict[str, Any]], str]
    help: str


_TEXT_HELP = "aligned tables for a terminal or CI log, then each limitation explained"

# Document format -> format name -> renderer.
RENDERERS: dict[str, dict[str, Renderer]] = {
    "bridge-facts": {"text": Renderer(facts_text.render, _TEXT_HELP)},
    "tsograph-graph": {"text": Renderer(graph_text.render, _TEXT_HELP)},
    "language-traversal": {"text": Renderer(traversal_text.render, _TEXT_HELP)},
}


def names(kind: str, *own: str) -> list[str]:
    """`json`, then formats the command writes itself (`ndjson`), then the registered ones."""
    return [JSON, *own, *sorted(RENDERERS[kind])]


def add_format_argument(parser: Any, kind: str, own: Sequence[tuple[str, str]] = ()) -> None:
    """--format with its choices and one phrase per choice; `own` are (name, help) pairs."""
    described = [
        f"{JSON} (default): the {kind} document, key-sorted, the form other tools read",
        *(f"{name}: {text}" for name, text in own),
        *(f"{name}: {renderer.help}" for name, renderer in sorted(RENDERERS[kind].items())),
    ]
    parser.add_argument(
        "--format",
        choices=names(kind, *(name for name, _ in own)),
        default=JSON,
        help="; ".join(described),
    )


def emit(
    document: dict[str, Any],
    name: str,
    *,
    limit: int | None = None,
    trusted: Sequence[str] = (),
    check: Callable[[Any], None] | None = None,
    out: BinaryIO | None = None,
) -> None:
    """Write the document as JSON, or as the reading `name` names (on stdout, or `out`)."""
    if name == JSON:
        write_document(document, out, limit=limit, trusted=trusted, check=check)
        return
    renderer = RENDERERS[document["format"]][name]
    write_text(document, renderer.render(document), out, trusted=trusted, check=check)

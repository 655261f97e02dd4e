"""A value from the repository, quoted in the brief so it can start nothing.

On one line (line breaks and other invisible characters shown as `\\uXXXX`),
cut to 120 characters, redacted, inside a code span whose fence is longer
than any run of backticks in it: Markdown reads it as text, never as a
heading, a list, a link or HTML.
"""

from __future__ import annotations

import re

from tsograph.producers.diagrams.labels import visible
from tsograph.producers.review.redact import redact

MAX_QUOTED = 120
_TICKS = re.compile(r"`+")


def code(text: str) -> str:
    value = redact(visible(text))
    if len(value) > MAX_QUOTED:
        value = value[: MAX_QUOTED - 1] + "…"
    fence = "`" * (max((len(run) for run in _TICKS.findall(value)), default=0) + 1)
    pad = " " if value.startswith("`") or value.endswith("`") or not value.strip(" ") else ""
    return f"{fence}{pad}{value}{pad}{fence}"

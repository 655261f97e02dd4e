"""Which language a run reads: the one asked for, else the only one the project holds.

A project whose walk finds sources of one language is read in that language;
one with TypeScript/JavaScript and Python sources needs `--language`. Kept
apart from the readers of either language so that choosing costs no import
of them.
"""

from __future__ import annotations

from tsograph.exchange.errors import UsageError
from tsograph.producers.project.walk import SourceSet

LANGUAGES = ("js", "python")


def source_language(sources: SourceSet, asked: str | None) -> str:
    """The language to read: the one asked for, else the only one the project holds."""
    if asked is not None:
        return asked
    found = [
        name
        for name, files in (("js", sources.sources), ("python", sources.python_sources))
        if files
    ]
    if len(found) > 1:
        raise UsageError(
            f"the project holds sources of several languages ({', '.join(found)}); "
            "choose one with --language js or --language python"
        )
    return found[0] if found else "js"

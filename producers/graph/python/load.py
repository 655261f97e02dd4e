"""The Python side of `graph`: which language a run reads, and the Python graph of a project.

A project whose walk finds sources of one language is read in that language;
one with TypeScript/JavaScript and Python sources needs `--language`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tsograph.exchange.errors import UsageError
from tsograph.exchange.limitations import counted
from tsograph.producers.graph.file_gaps import file_gap_lines
from tsograph.producers.graph.model import Graph
from tsograph.producers.graph.python.bases import with_bases
from tsograph.producers.graph.python.binder import PythonBinder
from tsograph.producers.graph.python.edges import build_python_graph
from tsograph.producers.graph.python.relations import python_relations
from tsograph.producers.lang.facts import FileFacts
from tsograph.producers.project.cache_names import cache_namespace, code_digest
from tsograph.producers.project.python_modules import PythonModules
from tsograph.producers.project.walk import SourceSet

LANGUAGES = ("js", "python")


def python_namespace() -> str:
    """Cached Python facts also depend on the base reading here."""
    return f"{cache_namespace()} python {code_digest(('graph/python',))}"


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


def python_plain(path: str, data: bytes) -> list[Any]:
    """One Python file's facts, with every class's bases (bases.py), as plain data."""
    return with_bases(path, data).to_plain()


def build_python(
    root: Path, facts: dict[str, FileFacts], parse_error_files: list[str], walk_gaps: list[str]
) -> Graph:
    """The graph of the project's Python files; `walk_gaps` are the walk's limitation lines."""
    modules = PythonModules.load(root, facts)
    binder = PythonBinder(facts, modules)
    graph = build_python_graph(binder)
    graph.relations = python_relations(binder, graph.nodes)
    lines = list(walk_gaps)
    lines.extend(
        file_gap_lines(
            facts,
            parse_error_files,
            "declaration(s) or attribute read(s) nested too deeply to be read",
        )
    )
    if modules.notes:
        lines.append(
            counted(
                "graph-config:",
                len(modules.notes),
                "configuration problem(s) may change module resolution",
                names=modules.notes,
            )
        )
    graph.limitations = sorted({*graph.limitations, *lines})
    graph.mode_limitations = {
        mode: sorted({*mode_lines, *lines})
        for mode, mode_lines in (graph.mode_limitations or {}).items()
    }
    graph.statistics["parseErrorFiles"] = len(parse_error_files)
    return graph

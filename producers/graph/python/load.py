"""The Python side of `graph`: the Python graph of a project."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tsograph.exchange.limitations import counted
from tsograph.producers.graph.file_gaps import file_gap_lines
from tsograph.producers.graph.model import Graph
from tsograph.producers.graph.python.bases import with_bases
from tsograph.producers.graph.python.binder import PythonBinder
from tsograph.producers.graph.python.edges import build_python_graph
from tsograph.producers.graph.python.relations import python_relations
from tsograph.producers.lang.facts import FileFacts
from tsograph.producers.project.cache_names import cache_namespace
from tsograph.producers.project.cache_names import code_digest
from tsograph.producers.project.python_modules import PythonModules


def python_namespace() -> str:
    """Cached Python facts also depend on the base reading here."""
    return f"{cache_namespace()} python {code_digest(('graph/python',))}"


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

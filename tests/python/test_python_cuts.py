"""What the Python front-end's bounds leave out is reported by the graph, not dropped."""

from __future__ import annotations

from pathlib import Path

from tsograph.producers.graph.project_graph import load_project_graph
from tsograph.producers.lang.python.extractor import MAX_NAMED_DEPTH
from tsograph.producers.lang.python.recorder import MAX_READ_CHAIN


def test_nesting_cuts_are_a_scan_truncated_limitation(tmp_path: Path) -> None:
    chain = MAX_READ_CHAIN + 3
    deep = MAX_NAMED_DEPTH + 1
    (tmp_path / "chains.py").write_text("def f(a):\n    a" + ".b" * chain + "()\n")
    (tmp_path / "defs.py").write_text(
        "".join(" " * i + f"def f{i}():\n" for i in range(deep)) + " " * deep + "g()\n"
    )
    graph = load_project_graph(str(tmp_path), use_cache=False, language="python").graph
    # Reads of `a.b…` past the bound (chain - 1 - MAX_READ_CHAIN of them), and the
    # definitions below the naming bound (one cut: the first def not named).
    cuts = (chain - 1 - MAX_READ_CHAIN) + 1
    found = [line for line in graph.limitations if line.startswith("scan-truncated:")]
    assert found == [
        f"scan-truncated: {cuts} declaration(s) or attribute read(s) nested too deeply to be "
        f"read; their code belongs to the enclosing declaration (nesting: {cuts})"
    ]

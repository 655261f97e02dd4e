"""What a run imports: only its command, and no build machinery when nothing is built.

Start-up is paid by every run; a warm `graph` answers from the graph cache and
should load neither the front-ends nor the binder nor jsonschema (cli.py,
graph/project_graph.py). The runs are real processes, so `sys.modules` is the
one a user's run ends with.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.cli_helpers import REPO

_RUN = (
    "import sys\n"
    "from tsograph.producers import cli\n"
    "code = cli.run(sys.argv[1:])\n"
    "sys.stderr.write('\\n'.join(sorted(sys.modules)))\n"
    "raise SystemExit(code)\n"
)

# Loaded only to build a graph, read syntax, name a schema error or find services.
_BUILD_ONLY = (
    "jsonschema",
    "tree_sitter",
    "tsograph.producers.lang.typescript",
    "tsograph.producers.graph.binding",
    "tsograph.producers.graph.build",
    "tsograph.producers.graph.entries",
    "tsograph.producers.graph.python.load",
    "tsograph.producers.project.syntax_cache",
    "tsograph.producers.services",
)


def _modules(*argv: str | Path) -> set[str]:
    completed = subprocess.run(
        [sys.executable, "-c", _RUN, *map(str, argv)],
        cwd=REPO,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    return set(completed.stderr.splitlines())


def test_a_warm_graph_loads_no_build_machinery(tmp_path: Path) -> None:
    project = REPO / "fixtures" / "graph" / "basics"
    command = ("graph", "--project", project, "--cache-dir", tmp_path)
    cold = _modules(*command)
    assert {"tsograph.producers.lang.typescript", "tsograph.producers.graph.build"} <= cold
    warm = _modules(*command)
    assert [name for name in _BUILD_ONLY if name in warm] == []


def test_reach_on_a_saved_graph_loads_no_route_scanner() -> None:
    snapshot = REPO / "fixtures" / "graph" / "basics" / "expected.json"
    root = "src/app/server.ts#helper"
    loaded = _modules("reach", "--graph-file", snapshot, root)
    assert "tsograph.producers.graph.entries" not in loaded
    assert "tsograph.producers.routes.node.server" not in loaded


def test_a_command_loads_no_other_command() -> None:
    loaded = _modules("validate", REPO / "fixtures" / "graph" / "basics" / "expected.json")
    others = {
        "tsograph.producers.graph.command",
        "tsograph.producers.routes.command",
        "tsograph.producers.schema.command",
        "tsograph.producers.mcp.command",
        "tsograph.producers.review.command",
    }
    assert "tsograph.producers.validate_command" in loaded
    assert loaded.isdisjoint(others)


def test_a_warm_schema_loads_no_collector_and_no_front_end(tmp_path: Path) -> None:
    project = REPO / "fixtures" / "schema" / "prisma" / "prisma-app" / "project"
    command = ("schema", "--project", project, "--cache-dir", tmp_path)
    cold = _modules(*command)
    assert {"tsograph.producers.schema.prisma_collector", "tree_sitter"} <= cold
    warm = _modules(*command)
    collectors_and_front_ends = (
        "jsonschema",
        "tree_sitter",
        "tsograph.producers.lang.typescript",
        "tsograph.producers.schema.prisma_collector",
        "tsograph.producers.schema.orm.collect",
        "tsograph.producers.schema.python",
    )
    assert sorted(name for name in warm if name.startswith(collectors_and_front_ends)) == []

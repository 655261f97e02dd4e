"""The Node interpreter follows calls as deep as the value layer's one depth budget allows,
and counts a call it cuts there instead of dropping what the call would register."""

from __future__ import annotations

from pathlib import Path

from tests.routes.node.support import scan
from tsograph.producers.values.budget import MAX_DEPTH

EXPRESS4 = '{"dependencies": {"express": "4.22.3"}}'


def _chain(depth: int) -> str:
    """`app.get('/deep')` registered by the last of `depth` functions calling each other."""
    lines = ["import express from 'express';", "const app = express();"]
    handler = "(q: any, r: any) => r.end()"
    lines.append(f"function f{depth}(a: any) {{ {{ const c = a; c.get('/deep', {handler}); }} }}")
    for level in range(depth - 1, 0, -1):
        lines.append(f"function f{level}(a: any) {{ const b = [a][0]; return f{level + 1}(b); }}")
    lines.append("f1(app);")
    return "\n".join(lines) + "\n"


def test_a_route_registered_below_the_old_call_depth_is_found(tmp_path: Path) -> None:
    document = scan(tmp_path, {"package.json": EXPRESS4, "src/app.ts": _chain(MAX_DEPTH - 8)})
    assert [(f["method"], f["channel"]) for f in document["facts"]] == [("GET", "/deep")]
    assert document["limitations"] == []


def test_a_call_beyond_the_budget_is_counted(tmp_path: Path) -> None:
    document = scan(tmp_path, {"package.json": EXPRESS4, "src/app.ts": _chain(MAX_DEPTH + 8)})
    assert document["facts"] == []
    assert any(
        line.startswith("route-coverage:") and "interpreter-call-depth" in line
        for line in document["limitations"]
    ), document["limitations"]

"""Compare a recording of record.py with the Python graph of the same code.

    python oracle/python-calls/compare.py <project folder> <recording>.json

Runs in tsograph's environment (the repository on PYTHONPATH); the project is
only read. Prints:

* precision of direct edges: every call site with direct targets whose
  (caller, line) the run reached must have called each target from there
  (a class with no `__init__` of the project, a generator or a coroutine
  function runs no frame there and is skipped);
  the contradicted ones are listed;
* recall: of the caller → callee pairs the run observed between graph nodes
  (classes aside), the share direct and bound edges link, and each missed
  pair's reason: what the graph said about the call sites at the lines the
  run called it from (`implicit` when no call site stands there: operators,
  iteration, a property or a callback run by outside code).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from tsograph.producers.graph.python.bases import with_bases
from tsograph.producers.graph.python.binder import PythonBinder
from tsograph.producers.graph.python.edges import build_python_graph
from tsograph.producers.graph.python.targets import SiteTargets
from tsograph.producers.project.python_modules import PythonModules
from tsograph.producers.project.walk import walk


def main() -> int:
    root = Path(sys.argv[1])
    recording = json.loads(Path(sys.argv[2]).read_text())
    recorded = [tuple(call) for call in recording["calls"]]
    # Generator and coroutine functions run no frame where they are called.
    lazy = set(recording.get("generators", ()))
    files = sorted(item.path for item in walk(root).python_sources)
    facts = {path: with_bases(path, (root / path).read_bytes()) for path in files}
    binder = PythonBinder(facts, PythonModules.load(root, files))
    graph = build_python_graph(binder)
    resolver = SiteTargets(binder)
    nodes = graph.nodes
    classes = {node.id for node in nodes.values() if node.kind == "class"}
    reached: dict[tuple[str, int], set[str]] = {}
    for caller, line, callee in recorded:
        reached.setdefault((caller, line), set()).add(callee)
    sites: dict[tuple[str, int], list[str]] = {}
    covered = 0
    wrong = []
    for path in files:
        for site in facts[path].calls:
            if site.kind not in ("call", "decorator"):
                continue
            targets = resolver.site_targets(path, site)
            ending = (
                "direct"
                if targets.direct
                else "external"
                if targets.external
                else targets.reason or "dynamic"
            )
            sites.setdefault((site.owner, site.line), []).append(ending)
            ran = reached.get((site.owner, site.line))
            if ran is None:
                continue
            for target in targets.direct:
                if target in classes or target in lazy:
                    continue
                covered += 1
                if target not in ran:
                    wrong.append(f"{site.owner}:{site.line} -> {target} (ran {sorted(ran)})")
    linked = {(e.source, e.target) for e in graph.edges if e.evidence in ("direct", "bound")}
    lines: dict[tuple[str, str], set[int]] = {}
    for caller, line, callee in recorded:
        if caller in nodes and callee in nodes and callee not in classes:
            lines.setdefault((caller, callee), set()).add(line)
    missed = sorted(set(lines) - linked)
    reasons: Counter[str] = Counter()
    for pair in missed:
        endings = {e for line in lines[pair] for e in sites.get((pair[0], line), ["implicit"])}
        endings.discard("direct")  # another call on the same line
        reasons[",".join(sorted(endings)) or "direct-elsewhere"] += 1
    print(f"files {len(files)}, recorded pairs {len(set(lines))}")
    print(f"direct precision: {covered - len(wrong)}/{covered}")
    for item in wrong:
        print("  wrong:", item)
    recall = 1 - len(missed) / len(lines) if lines else 1.0
    print(f"direct+bound recall: {len(lines) - len(missed)}/{len(lines)} = {recall:.3f}")
    for reason, count in reasons.most_common():
        print(f"  missed {count}: {reason}")
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())

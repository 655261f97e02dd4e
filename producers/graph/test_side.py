"""Which test sources production code loads.

Bound dispatch and candidates keep test sources (the spec's routes rule:
`*.test.*`, `*.spec.*`, `__tests__/`, `__mocks__/`) a separate program. A
test source runs with production code only when production code loads it:
a non-test file imports it, directly or through other files (re-exports
count). Then, as the spec says, flows use the whole project everywhere. For
candidates the separation stays file by file: a production call site is not
linked to a class or object literal whose test source production code never
loads (drizzle-orm's `ServerSimulator` classes in `*-proxy.test.ts`, while one
integration-test helper imports another test source).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tsograph.producers.graph.binding import Binder
from tsograph.producers.graph.closure import closure
from tsograph.producers.graph.referents import Module
from tsograph.producers.project.test_sources import is_test_source


@dataclass(frozen=True, slots=True)
class TestSide:
    tests: frozenset[str]
    # Test sources that production code loads through imports.
    loaded: frozenset[str]

    @property
    def joined(self) -> bool:
        """Production code loads a test source: one program after all."""
        return bool(self.loaded)


def test_side(binder: Binder, paths: Iterable[str]) -> TestSide:
    imports: dict[str, set[str]] = {}
    for index in binder.indexed(paths):
        facts = index.facts
        path = facts.path
        specifiers = {item.specifier for item in facts.imports}
        specifiers.update(item.specifier for item in facts.exports)
        targets = imports.setdefault(path, set())
        for specifier in sorted(specifiers):
            if specifier:
                value = binder.module_value(path, specifier)
                if isinstance(value, Module):
                    targets.add(value.path)
    tests = frozenset(path for path in imports if is_test_source(path))
    reached = closure((path for path in imports if path not in tests), imports)
    return TestSide(tests, frozenset(reached & tests))

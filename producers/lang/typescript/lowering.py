"""Lowering: the tree-sitter TypeScript/TSX tree as the neutral syntax form (`syntax_tree.Node`).

The shared walk (lowering_driver.py) applies the builders the lower_*.py
modules register in lowering_registry.py, one per grammar type. Anonymous
tokens (`async`, `static`, `?.`, operators, `const`) become flags and values;
comments are left out; parentheses are dropped. The grammar's names stop
here: producers see only the kinds listed in `syntax_tree.KINDS`.
"""

from __future__ import annotations

# Imported for their registrations.
from tsograph.producers.lang.typescript import lower_declarations  # noqa: F401
from tsograph.producers.lang.typescript import lower_expressions  # noqa: F401
from tsograph.producers.lang.typescript import lower_statements  # noqa: F401
from tsograph.producers.lang.typescript import lower_types  # noqa: F401
from tsograph.producers.lang.typescript.lowering_registry import LOWERING

lower = LOWERING.lower

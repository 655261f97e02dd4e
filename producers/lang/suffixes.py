"""Which files the front-ends read, by suffix, known without loading them.

The walk sorts a project's files by these before any file is parsed, and a
warm run never parses: importing the TypeScript front-end (tree-sitter, its
handlers) only to learn its suffixes would cost every run's start-up.

TypeScript files (`.ts .mts .cts`) use the `typescript` grammar, which reads
`<T>x` as a type assertion. Every JavaScript file (`.js .jsx .mjs .cjs`) and
`.tsx` uses `tsx`: JSX is allowed in `.js`, and the tsx grammar also reads the
plain JavaScript of `.mjs` and `.cjs` (no separate JavaScript grammar, so both
flavours produce the same node types).
"""

from __future__ import annotations

from typing import Literal

Grammar = Literal["typescript", "tsx"]

GRAMMAR_BY_SUFFIX: dict[str, Grammar] = {
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".js": "tsx",
    ".jsx": "tsx",
    ".mjs": "tsx",
    ".cjs": "tsx",
}
TYPESCRIPT_SUFFIXES = tuple(GRAMMAR_BY_SUFFIX)

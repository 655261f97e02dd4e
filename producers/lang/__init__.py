"""Language front-ends: each turns one file's bytes into `facts.FileFacts` with tree-sitter.

A language is one folder here (`typescript/` today) exposing a pure
`extract(path, data)` and the file suffixes it reads. Nothing outside a
front-end sees a tree-sitter node: binding and every producer read facts.
"""

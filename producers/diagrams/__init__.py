"""Diagrams (Mermaid, Graphviz DOT) of a set of symbols and the edges between them."""

"""A class the project declares, as every value reader holds it (JavaScript and Python)."""

from __future__ import annotations

from dataclasses import dataclass

from tsograph.producers.lang.syntax_tree import Node


@dataclass(frozen=True)
class ProjectClass:
    """The file that declares a class and its declaration node: one value per declaration
    (nodes compare by identity, and a run parses each file once). What its members are is
    read by the models that need them."""

    path: str
    node: Node

"""Running `tsograph routes` on small Node projects written by a test."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.routes.support import document_of
from tests.routes.support import write_project
from tsograph.exchange.validation import validate


def scan(root: Path, files: dict[str, str]) -> dict[str, Any]:
    """The routes document of a project made of these files, checked against the schema."""
    document = document_of(write_project(root, files))
    validate(document)
    return document

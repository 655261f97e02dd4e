"""Running `tsograph routes --role client` in tests: in-process, on copies with fixed times."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from tests.openapi.support import GENERATED_AT
from tests.openapi.support import Result
from tests.openapi.support import invoke
from tests.routes.support import write_project

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "routes" / "client"
SERVICE = "example-api"


def run_client(project: Path, *extra: str) -> Result:
    return invoke(
        "routes",
        "--role",
        "client",
        "--project",
        str(project),
        "--service",
        SERVICE,
        "--generated-at",
        GENERATED_AT,
        *extra,
    )


def document_of(project: Path, *extra: str) -> dict[str, Any]:
    result = run_client(project, *extra)
    assert result.code == 0, result.stderr
    assert result.stderr == ""
    document = orjson.loads(result.stdout)
    assert isinstance(document, dict)
    return document


def calls_of(root: Path, files: dict[str, str], *extra: str) -> list[tuple[Any, ...]]:
    """(method, channel, anchor, dynamic, methodDynamic) of every fact of a small project."""
    document = document_of(write_project(root, files), *extra)
    return [
        (
            fact["method"],
            fact["channel"],
            fact["pathAnchor"],
            fact["dynamic"],
            fact.get("methodDynamic", False),
        )
        for fact in document["facts"]
    ]

"""A readable, exact text form of FileFacts for golden files.

Each record is one line of compact JSON with the fields that differ from
their defaults (a default is still exact: it is the dataclass default), in
the order the facts hold them, under a header per section.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import orjson

from tsograph.producers.lang.facts import FileFacts

_SECTIONS = (
    "declarations",
    "bindings",
    "imports",
    "exports",
    "calls",
    "types",
    "writes",
    "returns",
)


def _compact(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {}
        for field in dataclasses.fields(value):
            item = getattr(value, field.name)
            if field.default is not dataclasses.MISSING and item == field.default:
                continue
            out[field.name] = _compact(item)
        return out
    if isinstance(value, tuple):
        return [_compact(item) for item in value]
    return value


def render(facts: FileFacts) -> str:
    lines = [
        f"path {facts.path} language {facts.language} module_syntax {facts.module_syntax} "
        f"dynamic_loads {facts.dynamic_loads} parse_errors {facts.parse_errors} "
        f"nesting_cuts {facts.nesting_cuts}"
    ]
    for section in _SECTIONS:
        records = getattr(facts, section)
        lines.append(f"{section} {len(records)}")
        for index, record in enumerate(records):
            lines.append(f"{index} " + orjson.dumps(_compact(record)).decode())
    return "\n".join(lines) + "\n"

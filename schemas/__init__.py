"""JSON Schemas (Draft 2020-12) of every document tsograph writes.

The files ship inside the wheel as package data, so an installed tool and a
source checkout find them the same way: next to this module.
"""

from __future__ import annotations

from pathlib import Path

SCHEMA_DIR = Path(__file__).resolve().parent

# Document format name -> schema file.
SCHEMA_FILES = {
    "bridge-facts": "bridge-facts-v1.json",
    "language-traversal": "language-traversal-v1.json",
    "tsograph-graph": "tsograph-graph-v1.json",
    "tsograph-graph-ndjson": "tsograph-graph-ndjson-header-v1.json",
    "tsograph-graph-ndjson-record": "tsograph-graph-ndjson-record-v1.json",
    "tsograph-check": "tsograph-check-v1.json",
    "tsograph-trace": "tsograph-trace-v1.json",
}


def schema_path(format_name: str) -> Path:
    return SCHEMA_DIR / SCHEMA_FILES[format_name]

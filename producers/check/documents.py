"""Reading the documents `check` and `trace` join: each file validated, then sorted into sides.

A bridge-facts document is read whole and validated against its schema (the
same validation a producer runs before writing), so a consumer never reasons
over a fact the contract forbids. Each document is one side of a join:

* `contract`: `platform: "openapi"` (route-contract facts of `tsograph openapi`);
* `decl`: js with the server role (`routes --role server`);
* `call`: js with the client role and target http or none (`routes --role client`);
* `uses`: a persistence document of `tsograph schema` (relation-use facts);
* `sql`: `platform: "sql"` (`tsograph sql-schema`), declarations only.

The same file named twice is read once, so a document never answers itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import Any

import orjson

from tsograph.exchange.errors import InputError
from tsograph.exchange.errors import InvalidDocumentError
from tsograph.exchange.validation import kind_of
from tsograph.exchange.validation import validate
from tsograph.producers.command_args import json_problem
from tsograph.producers.command_args import read_input_file
from tsograph.producers.command_args import shown

# The exchange's per-file cap (16 Mi characters) is at most 64 MiB of UTF-8.
MAX_DOCUMENT_BYTES = 64 * 1024 * 1024

CONTRACT, DECL, CALL, USES, SQL = "contract", "decl", "call", "uses", "sql"
HTTP_SIDES = (CONTRACT, DECL, CALL)


@dataclass
class Document:
    """One input document: its name as the user gave it, its side and its content."""

    name: str
    side: str
    content: dict[str, Any]
    facts: list[dict[str, Any]] = field(default_factory=list)

    @property
    def service(self) -> str | None:
        value = self.content.get("service")
        return value if isinstance(value, str) else None

    @property
    def limitations(self) -> list[str]:
        return list(self.content.get("limitations", ()))

    @property
    def scopes(self) -> list[dict[str, Any]]:
        return list(self.content.get("limitationScopes", ()))


def read_json(path: str, what: str) -> tuple[str, Any, bytes]:
    """(shown name, parsed value, raw bytes) of a JSON file; exit 2 naming the problem."""
    name = shown(path)
    data = read_input_file(path, name, MAX_DOCUMENT_BYTES, f"pass {what}")
    try:
        return name, orjson.loads(data), data
    except orjson.JSONDecodeError as error:
        raise InputError(f"{name}: {json_problem(error)}; pass {what}") from None


def validated(name: str, content: Any, what: str) -> dict[str, Any]:
    if not isinstance(content, dict) or content.get("format") is None:
        raise InputError(f"{name}: is {kind_of(content)}; pass {what}")
    try:
        validate(content)
    except InvalidDocumentError as error:
        raise InputError(
            f"{name}: invalid at {error}; write the document again with tsograph"
        ) from None
    return content


def side_of(content: dict[str, Any]) -> str | None:
    if content.get("format") != "bridge-facts":
        return None
    platform, target = content.get("platform"), content.get("target")
    roles = content.get("roles", ())
    if platform == "openapi":
        return CONTRACT
    if platform == "sql":
        return SQL
    # Route documents always say target http; a schema document with no facts has none.
    if target in ("persistence", None):
        return USES
    if "server" in roles:
        return DECL
    return CALL


def read_documents(paths: Sequence[str], what: str) -> list[Document]:
    """Each distinct file once, in the order given; refuses anything but bridge-facts."""
    seen: set[bytes] = set()
    documents: list[Document] = []
    for path in paths:
        name, content, data = read_json(path, what)
        content = validated(name, content, what)
        side = side_of(content)
        if side is None:
            raise InputError(f"{name}: is a {content['format']} document; pass {what}")
        if data in seen:
            continue
        seen.add(data)
        documents.append(Document(name, side, content, list(content.get("facts", ()))))
    return documents


def facts_of(documents: Iterable[Document]) -> Iterable[tuple[Document, dict[str, Any]]]:
    for document in documents:
        for fact in document.facts:
            yield document, fact

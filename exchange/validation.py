"""Validation of documents: the JSON Schema first, then the rules a schema cannot say.

Every producer validates before writing, and `tsograph validate` uses the same
code, so a document tsograph writes is exactly a document it accepts.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING
from typing import Any

import fastjsonschema
import orjson

from tsograph.exchange.errors import InvalidDocumentError
from tsograph.exchange.jsonpointer import pointer
from tsograph.exchange.references import REFERENCE_CHECKS
from tsograph.exchange.semantics import SEMANTIC_CHECKS
from tsograph.schemas import SCHEMA_FILES
from tsograph.schemas import schema_path

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError


@cache
def validator_for(format_name: str) -> Draft202012Validator:
    # Imported here: only a rejected document or `validate` needs the reference
    # validator, and importing jsonschema costs every run about 0.13 s of start-up.
    from jsonschema import Draft202012Validator

    schema = orjson.loads(schema_path(format_name).read_bytes())
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def _error_pointer(error: ValidationError) -> str:
    parts: list[str | int] = list(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = error.schema.get("properties", {})
        extra = sorted(key for key in error.instance if key not in allowed)
        if extra:
            parts.append(extra[0])
    return pointer(parts)


def _document_order(error: ValidationError) -> tuple[Any, ...]:
    # Sort by position in the document; deeper errors inside the same element
    # come after the element's own so the message names the outermost cause.
    return tuple((0, p) if isinstance(p, int) else (1, str(p)) for p in error.absolute_path)


@cache
def fast_validator_for(format_name: str) -> Any:
    """A compiled validator for the common case: a valid document, checked quickly.

    jsonschema walks the schema for every array item, which costs seconds on a
    graph of tens of thousands of records; fastjsonschema compiles the schema
    to Python once. Only acceptance is taken from it: any rejection is
    re-checked by the reference validator, which also names the error.
    """
    return fastjsonschema.compile(orjson.loads(schema_path(format_name).read_bytes()))


def kind_of(document: Any) -> str:
    """What a parsed JSON value is, in words for a message: `a bridge-facts document`."""
    if isinstance(document, dict):
        name = document.get("format")
        if isinstance(name, str) and name in SCHEMA_FILES:
            return f"a {name} document"
        return "a JSON object of no tsograph format"
    return "a JSON array" if isinstance(document, list) else "a JSON scalar"


def format_of(document: Any) -> str:
    if not isinstance(document, dict):
        raise InvalidDocumentError("the document is not a JSON object", "")
    name = document.get("format")
    if isinstance(name, str) and name in SCHEMA_FILES:
        return name
    raise InvalidDocumentError("unknown or missing document format", "/format")


def validate(document: Any, format_name: str | None = None) -> None:
    """Raise InvalidDocumentError naming the first problem by JSON pointer."""
    name = format_name or format_of(document)
    try:
        fast_validator_for(name)(document)
        errors = []
    except fastjsonschema.JsonSchemaException:
        errors = list(validator_for(name).iter_errors(document))
    if errors:
        first = min(errors, key=_document_order)
        where = _error_pointer(first)
        raise InvalidDocumentError(f"{where or '/'}: {_describe(first)}", where)
    check_references(document, name)


def check_references(document: Any, name: str) -> None:
    """The rules after the schema (semantics.py, references.py); the first problem raises."""
    for check in [*SEMANTIC_CHECKS.get(name, ()), *REFERENCE_CHECKS.get(name, ())]:
        for where, message in check(document):
            raise InvalidDocumentError(f"{where or '/'}: {message}", where)


def _describe(error: ValidationError) -> str:
    if error.validator == "additionalProperties":
        return "field is not allowed here"
    if error.validator == "pattern":
        return "value does not have the required form"
    if error.validator in ("enum", "const"):
        return "value is not one of the allowed values"
    if error.validator == "required":
        return str(error.message).replace("'", '"')
    if error.validator == "type":
        return f"value must be of type {error.validator_value}"
    return f"value fails the {error.validator!s} rule"

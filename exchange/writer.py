"""The only code that writes documents.

Output is key-sorted JSON with two-space indentation. The exchange caps a
document at 16 Mi characters: when only the indentation pushes a document over,
the same document is written compact; when even that is over, nothing is
written and the command exits 2. Documents are validated before they are
rendered, so an invalid document never reaches stdout.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Sequence
from typing import Any
from typing import BinaryIO

import fastjsonschema
import orjson

from tsograph.exchange.errors import InternalError
from tsograph.exchange.errors import InvalidDocumentError
from tsograph.exchange.errors import OutputError
from tsograph.exchange.validation import fast_validator_for
from tsograph.exchange.validation import validate
from tsograph.exchange.validation import validator_for

MAX_OUTPUT_CHARS = 16 * 1024 * 1024
MAX_FACTS = 100_000
# Graph snapshots are tsograph's own format, read back by reach and impact up to this size.
MAX_SNAPSHOT_CHARS = 128 * 1024 * 1024

_PRETTY = orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS
_COMPACT = orjson.OPT_SORT_KEYS


def check_fact_budget(count: int) -> None:
    """Fail before any fact is built when a producer would emit too many."""
    if count > MAX_FACTS:
        raise OutputError(
            f"the document would hold {count} facts, more than the limit of {MAX_FACTS}; "
            "split the input and run the command on each part"
        )


def char_count(encoded: bytes) -> int:
    """Characters of UTF-8 text: every byte that does not continue a sequence."""
    if encoded.isascii():
        return len(encoded)
    return len(encoded.decode("utf-8"))


def render(document: Any, limit: int | None = None) -> bytes:
    """Pretty when it fits, compact when only the indentation is too much.

    `limit` defaults to the exchange cap; graph snapshots, which are not
    exchange documents, pass the larger size a saved traversal accepts.
    """
    cap = MAX_OUTPUT_CHARS if limit is None else limit
    pretty = orjson.dumps(document, option=_PRETTY) + b"\n"
    # UTF-8 text has no more characters than bytes: counting them (decoding a document
    # of non-ASCII text, tens of milliseconds for a large graph) is needed only above the cap.
    if len(pretty) <= cap or char_count(pretty) <= cap:
        return pretty
    compact = orjson.dumps(document, option=_COMPACT) + b"\n"
    if len(compact) <= cap or char_count(compact) <= cap:
        return compact
    raise OutputError(
        f"the document is larger than the limit of {cap} characters "
        "even without indentation; narrow the input and run the command again"
    )


def render_line(record: Any) -> bytes:
    """One compact, key-sorted JSON line (NDJSON records)."""
    return orjson.dumps(record, option=_COMPACT) + b"\n"


def _checked(
    document: Any,
    format_name: str | None = None,
    trusted: Sequence[str] = (),
    check: Callable[[Any], None] | None = None,
) -> None:
    # A document tsograph built that fails its schema is a defect of tsograph,
    # never the user's fault: it is reported as an internal error, not written.
    if trusted:
        # Arrays already validated in an earlier run (cached graphs) are not checked twice.
        document = {**document, **{key: [] for key in trusted}}
    try:
        if check is not None:
            check(document)
        else:
            validate(document, format_name)
    except InvalidDocumentError as error:
        raise InternalError(f"invalid document at {error.pointer or '/'}") from None


def write_document(
    document: Any,
    out: BinaryIO | None = None,
    limit: int | None = None,
    trusted: Sequence[str] = (),
    check: Callable[[Any], None] | None = None,
) -> None:
    """Render, validate and write a document in one piece.

    Rendering first makes an oversized document fail fast, before the
    validation of every fact; nothing is written unless both pass. `check`
    replaces exchange.validation.validate with a validator that accepts and
    rejects exactly the same documents, only faster (traversal_checks.py).
    """
    data = render(document, limit)
    _checked(document, trusted=trusted, check=check)
    stream = out if out is not None else sys.stdout.buffer
    stream.write(data)
    stream.flush()


def write_text(
    document: Any,
    text: str,
    out: BinaryIO | None = None,
    trusted: Sequence[str] = (),
    check: Callable[[Any], None] | None = None,
) -> None:
    """Validate a document as write_document does, then write `text`, a reading of it.

    The text forms (`--format text`) are for people, not for other tools, so
    they have no exchange size cap; the document they show must still be one
    tsograph would write as JSON.
    """
    _checked(document, trusted=trusted, check=check)
    stream = out if out is not None else sys.stdout.buffer
    stream.write(text.encode("utf-8"))
    stream.flush()


def write_lines(
    header: Any, records: Iterable[Any], out: BinaryIO | None = None, trusted: bool = False
) -> None:
    """Validate every line, then write the header and records (NDJSON).

    `trusted` records were validated in an earlier run (cached graphs).
    """
    _checked(header)
    record_check = fast_validator_for("tsograph-graph-ndjson-record")
    lines = [render_line(header)]
    for index, record in enumerate(records):
        if not trusted:
            try:
                record_check(record)
            except fastjsonschema.JsonSchemaException:
                if not validator_for("tsograph-graph-ndjson-record").is_valid(record):
                    raise InternalError(f"invalid ndjson record {index}") from None
        lines.append(render_line(record))
    stream = out if out is not None else sys.stdout.buffer
    stream.write(b"".join(lines))
    stream.flush()

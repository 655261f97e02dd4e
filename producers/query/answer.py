"""An answer as `query --json` and the MCP tools give it: one page of a question's list.

`counts` are the true totals by tier of the whole list, past any page, and
null when the time budget stopped the work (nothing past the stop is
counted). A page is cut by `--limit` (by "limit"), then by `--tokens` (by
"tokens", a rough budget of four characters per token that never cuts the
counts; the first item of a page is always kept, so a cursor always moves on),
or the work was stopped by the time budget (by "budget", omitted null). A
cursor names the question, the build and where the next page starts; one
made for another question or another build is refused.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from typing import Any

import orjson

from tsograph.producers.graph.model import EVIDENCE_ORDER
from tsograph.producers.query.held import HeldGraph
from tsograph.producers.query.held import causes
from tsograph.producers.query.questions import Refused
from tsograph.producers.query.questions import Request
from tsograph.producers.query.questions import Result

API_VERSION = 1
DEFAULT_LIMIT = 50
MAX_LIMIT = 500
CHARS_PER_TOKEN = 4


@dataclass(frozen=True)
class Page:
    limit: int = DEFAULT_LIMIT
    cursor: str | None = None
    tokens: int | None = None


@dataclass(frozen=True)
class Cursor:
    key: str  # the request's key, hashed
    build: str
    offset: int

    def encode(self) -> str:
        payload = orjson.dumps([self.key, self.build, self.offset])
        return "c." + base64.urlsafe_b64encode(payload).decode("ascii").rstrip("=")


def request_key(request: Request) -> str:
    return hashlib.sha256(request.key().encode()).hexdigest()[:16]


def read_cursor(text: str, request: Request, build: str) -> Cursor:
    """The cursor a page names, refused unless it was made for this question on this build."""
    value: Any = None
    if text.startswith("c."):
        body = text[2:]
        try:
            value = orjson.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
        except (ValueError, orjson.JSONDecodeError):
            value = None
    if not (
        isinstance(value, list)
        and len(value) == 3
        and isinstance(value[0], str)
        and isinstance(value[1], str)
        and isinstance(value[2], int)
        and value[2] >= 0
    ):
        raise Refused("bad-cursor", "--cursor is not a cursor an answer gave; ask without it")
    cursor = Cursor(value[0], value[1], value[2])
    if cursor.key != request_key(request):
        raise Refused(
            "bad-cursor", "--cursor was made for another question or target; ask without it"
        )
    if cursor.build != build:
        raise Refused(
            "stale-cursor",
            f"--cursor was made on build {cursor.build}, not {build}; ask again without it",
        )
    return cursor


def graph_block(held: HeldGraph) -> dict[str, Any]:
    block: dict[str, Any] = {
        "build": held.build,
        "status": held.status(),
        "mode": held.mode,
        "freshness": {"laterEditsKnown": held.later_edits()},
    }
    if held.notices:
        block["notices"] = list(held.notices)
    return block


def error_answer(held: HeldGraph | None, question: str, refusal: Refused) -> dict[str, Any]:
    return {
        "apiVersion": API_VERSION,
        "kind": question,
        "error": {"code": refusal.code, "message": refusal.message},
        "graph": graph_block(held) if held is not None else None,
    }


def answer(held: HeldGraph, request: Request, result: Result, page: Page) -> dict[str, Any]:
    offset = 0
    if page.cursor is not None:
        offset = read_cursor(page.cursor, request, held.build).offset
    key = request_key(request)
    items = result.items
    rest = items[offset:]
    shown = rest[: page.limit]
    by: str | None = "limit" if len(rest) > len(shown) else None
    if page.tokens is not None:
        kept: list[dict[str, Any]] = []
        used = 0
        for item in shown:
            cost = -(-len(orjson.dumps(item)) // CHARS_PER_TOKEN)
            if kept and used + cost > page.tokens:
                break
            kept.append(item)
            used += cost
        if len(kept) < len(shown):
            by = "tokens"
        shown = kept
    omitted: int | None = len(rest) - len(shown)
    exact = True
    next_offset = offset + len(shown)
    cursor = None
    if result.unexpanded is not None:
        # The work stopped: nothing past the stop is counted, and the cursor asks again
        # from the start (the command line runs the whole question anew).
        by, omitted, exact = "budget", None, False
        cursor = Cursor(key, held.build, 0).encode()
    elif by is not None:
        cursor = Cursor(key, held.build, next_offset).encode()
    if by is None and result.depth_cut:
        by = "depth"
    counts: dict[str, int] | None = None
    if result.tiered and result.unexpanded is None:
        counts = dict.fromkeys(EVIDENCE_ORDER, 0)
        for item in items:
            counts[item["tier"]] += 1
    document: dict[str, Any] = {
        "apiVersion": API_VERSION,
        "kind": request.question,
        "error": None,
        "target": result.target,
        "items": shown,
        "counts": counts,
        "total": len(items) if result.unexpanded is None else None,
        "leads": result.leads,
        "unknown": {
            "floor": result.floor,
            "reasons": result.reasons,
            "causes": causes(result.reasons),
        },
        "truncated": {
            "by": by,
            "omitted": omitted if by is not None else 0,
            "omittedExact": exact,
            "cursor": cursor,
        },
        "graph": graph_block(held),
    }
    if result.candidates is not None:
        document["candidates"] = result.candidates
    if result.unexpanded is not None:
        document["truncated"]["unexpanded"] = result.unexpanded
    document.update(result.extra)
    return document

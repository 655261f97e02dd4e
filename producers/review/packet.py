"""The review's packet: the whole lists behind the brief, in pages a tool reads.

Each list is written in pages of PAGE items (`callers/<key>.json`, then
`callers/<key>.2.json`, ...); a page says `total` (the items on all pages),
`totalExact` (true when that is the whole list), `next` (the next page's
name, or null), `counts` by tier where items have one, and `cut.omitted`
(how many the list is known to miss: 0 for a whole list). A key names a
symbol by the first twelve hex digits of the SHA-256 of its id; index.md
lists each file with the symbol it is for. Every repository string passes
through the redaction; tool-made members (keys, build ids, next) do not.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import orjson

from tsograph.producers.graph.model import EVIDENCE_ORDER
from tsograph.producers.review.changes import Changes
from tsograph.producers.review.quote import code
from tsograph.producers.review.redact import redact
from tsograph.producers.review.redact import redact_value
from tsograph.producers.review.summary import Lists

PAGE = 500
TOOL_MADE = frozenset({"next", "key", "edge", "build", "commit"})
LIST_FOLDERS = ("callers", "second-hop", "callees")  # then importers, implementers, references


def key_of(node_id: str) -> str:
    return hashlib.sha256(node_id.encode("utf-8")).hexdigest()[:12]


def _json(value: Any) -> bytes:
    redacted = redact_value(value, TOOL_MADE)
    return orjson.dumps(redacted, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n"


def write_pages(
    folder: Path,
    stem: str,
    items: list[dict[str, Any]],
    extra: dict[str, Any],
    *,
    omitted: int | None = 0,
) -> str:
    """Write `items` as pages `stem.json`, `stem.2.json`, ...; the first page's name.
    `omitted`: how many the list misses (None: not countable)."""
    folder.mkdir(parents=True, exist_ok=True)
    chunks = [items[start : start + PAGE] for start in range(0, len(items), PAGE)] or [[]]
    names = [f"{stem}.json"] + [f"{stem}.{number}.json" for number in range(2, len(chunks) + 1)]
    tiered = any("tier" in item for item in items)
    counts = None
    if tiered:
        counts = dict.fromkeys(EVIDENCE_ORDER, 0)
        for item in items:
            counts[item["tier"]] += 1
    for number, (name, chunk) in enumerate(zip(names, chunks, strict=True)):
        page = {
            **extra,
            "items": chunk,
            "total": len(items),
            "totalExact": omitted == 0,
            "next": names[number + 1] if number + 1 < len(names) else None,
            "cut": {"omitted": omitted},
        }
        if counts is not None:
            page["counts"] = counts
        (folder / name).write_bytes(_json(page))
    return names[0]


def write_packet(
    out: Path,
    summary: dict[str, Any],
    lists: Lists,
    changes: Changes,
    status: dict[str, Any],
) -> None:
    out.mkdir(parents=True, exist_ok=True)
    index: list[str] = [
        "# Review packet",
        "",
        "One line per file. Keys name symbols: the first 12 hex digits of the SHA-256 of the id.",
        "",
        "- `impact.json`: the summary the brief was made from",
        "- `changes.json`: removed and moved symbols, and the places that used them",
        "- `unknowns.json`: what the graph could not see near the change",
        "- `status.json`: how both graphs were built",
    ]
    (out / "impact.json").write_bytes(_json(summary))
    change_items = [
        *({"change": "removed", "symbol": item} for item in summary["touched"]["removed"]),
        *({"change": "moved", **item} for item in summary["touched"]["moved"]),
        *({"change": "used-name", **item} for item in summary["usedNames"]),
    ]
    write_pages(out, "changes", change_items, {"kind": "changes"})
    (out / "unknowns.json").write_bytes(_json(summary["unknowns"]))
    (out / "status.json").write_bytes(_json(status))
    for folder, by_key in zip(
        LIST_FOLDERS, (lists.callers, lists.second_hop, lists.callees), strict=True
    ):
        for node_id in sorted(by_key):
            key = key_of(node_id)
            write_pages(out / folder, key, by_key[node_id], {"kind": folder, "symbol": node_id})
            index.append(f"- `{folder}/{key}.json`: {code(node_id)}")
    for folder, wholes in (
        ("importers", lists.importers),
        ("implementers", lists.implementers),
        ("references", lists.references),
    ):
        for node_id in sorted(wholes):
            items, page = wholes[node_id]
            key = key_of(node_id)
            extra = {
                "kind": folder,
                "symbol": node_id,
                "complete": page["complete"],
                "reasons": page["reasons"],
            }
            write_pages(out / folder, key, items, extra, omitted=page["omitted"])
            index.append(f"- `{folder}/{key}.json`: {code(node_id)}")
    base = out / "base"
    for node_id, span in sorted(changes.base_spans.items()):
        base.mkdir(exist_ok=True)
        key = key_of(node_id)
        header = (
            f"// The BASE version of {redact(node_id)}, lines {span.first}-{span.last}: "
            "not the code under review.\n"
        )
        (base / f"{key}.txt").write_text(header + redact(span.text) + "\n", encoding="utf-8")
        index.append(f"- `base/{key}.txt`: {code(node_id)}")
    (out / "index.md").write_text("\n".join(index) + "\n", encoding="utf-8")

"""The review's parts on their own: redaction, quoting, pages."""

from __future__ import annotations

import hashlib
from pathlib import Path

import orjson

from tsograph.producers.review.packet import PAGE
from tsograph.producers.review.packet import write_pages
from tsograph.producers.review.quote import code
from tsograph.producers.review.redact import redact
from tsograph.producers.review.redact import redact_value


def _mark(token: str) -> str:
    return "[redacted:" + hashlib.sha256(token.encode()).hexdigest()[:8] + "]"


def test_a_known_prefix_redacts_the_whole_run() -> None:
    token = "sk_live_abc"
    assert redact(f"key={token};") == f"key={_mark(token)};"
    # After a _ or - inside a run, the run is one token.
    assert redact("MY_ghp_xyz-1 x") == f"{_mark('MY_ghp_xyz-1')} x"
    # The same token reads the same; two tokens differ.
    assert redact("ghp_a ghp_a ghp_b").split() == [_mark("ghp_a")] * 2 + [_mark("ghp_b")]


def test_an_opaque_run_is_redacted_and_an_identifier_is_not() -> None:
    assert redact("getOrganisationClaimByTeamId") == "getOrganisationClaimByTeamId"
    assert redact("ApiContractV1Implementation") == "ApiContractV1Implementation"
    secret = "a1b2c3d4e5f6a7b8c9"
    assert redact(f"'{secret}'") == f"'{_mark(secret)}'"
    # Shorter than sixteen: kept.
    assert redact("a1b2c3d4e5") == "a1b2c3d4e5"


def test_tool_made_members_are_kept() -> None:
    value = {"edge": "e.ghp_abc", "name": "ghp_abc", "items": ["ghp_abc"]}
    assert redact_value(value, frozenset({"edge"})) == {
        "edge": "e.ghp_abc",
        "name": _mark("ghp_abc"),
        "items": [_mark("ghp_abc")],
    }


def test_a_quoted_value_stays_one_code_span() -> None:
    assert code("# title") == "`# title`"
    assert code("a`b") == "``a`b``"
    assert code("`x`") == "`` `x` ``"
    assert code("one\ntwo") == "`one\\u000atwo`"
    long = code("x" * 200)
    assert long == "`" + "x" * 119 + "…`"


def test_pages_of_five_hundred_name_the_next(tmp_path: Path) -> None:
    items = [{"n": number, "tier": "direct"} for number in range(PAGE * 2 + 1)]
    first = write_pages(tmp_path, "k", items, {"kind": "callers"})
    assert first == "k.json"
    pages = [
        orjson.loads((tmp_path / name).read_bytes()) for name in ("k.json", "k.2.json", "k.3.json")
    ]
    assert [page["next"] for page in pages] == ["k.2.json", "k.3.json", None]
    assert [len(page["items"]) for page in pages] == [PAGE, PAGE, 1]
    assert {page["total"] for page in pages} == {len(items)}
    assert all(page["totalExact"] and page["cut"] == {"omitted": 0} for page in pages)
    assert pages[0]["counts"] == {"direct": len(items), "bound": 0, "candidate": 0}


def test_a_list_that_cannot_be_counted_says_so(tmp_path: Path) -> None:
    write_pages(tmp_path, "index", [], {"kind": "importers"}, omitted=None)
    page = orjson.loads((tmp_path / "index.json").read_bytes())
    assert (page["totalExact"], page["cut"]) == (False, {"omitted": None})


def test_the_brief_diagram_keeps_the_nearest_sixty_and_says_why() -> None:
    from tsograph.producers.graph.model import Graph
    from tsograph.producers.query.held import HeldGraph
    from tsograph.producers.review.diagram import review_diagram

    held = HeldGraph.of(Graph({}, []), "b", "built", None)
    blocks = [
        {
            "version": "head",
            "symbol": {"id": f"t.ts#t{touched}"},
            "items": [{"from": f"c.ts#c{touched}_{n:02d}", "tier": "direct"} for n in range(20)],
            "secondHop": [],
        }
        for touched in range(4)
    ]
    summary = {"callers": blocks, "routes": {"reached": []}, "relationUses": {"items": []}}
    diagram = review_diagram(held, summary)
    assert len(diagram.nodes) == 59
    assert [node.key for node in diagram.nodes[:4]] == [f"t.ts#t{n}" for n in range(4)]
    assert all(node.root for node in diagram.nodes[:4])
    assert diagram.left_out is not None
    assert diagram.left_out.count == 84 - 59
    assert diagram.left_out.reasons == ("the brief's diagram of 60 keeps the nearest 59",)


HOSTILE = "x`\n# heading <b>` [link](http://e) | sk_live_key"


def _hostile_summary() -> dict[str, object]:
    symbol = {"id": f"a.ts#{HOSTILE}", "name": HOSTILE, "file": f"a/{HOSTILE}.ts", "line": 3}
    edge = {
        "from": f"b.ts#{HOSTILE}",
        "fromName": HOSTILE,
        "fromAt": f"b/{HOSTILE}:1:1",
        "toName": HOSTILE,
        "tier": "direct",
    }
    return {
        "touched": {
            "edited": [symbol],
            "added": [],
            "removed": [],
            "moved": [],
            "types": {"edited": [{**symbol, "kind": "interface"}]},
        },
        "files": [{"path": f"a/{HOSTILE}.ts", "status": "A", "read": True}],
        "readLineByLine": [HOSTILE],
        "usedNames": [
            {
                "symbol": symbol,
                "movedTo": HOSTILE,
                "places": [{"user": HOSTILE, "tier": "direct", "bindsNow": [HOSTILE]}],
                "total": 1,
            }
        ],
        "callers": [
            {
                "symbol": symbol,
                "version": "head",
                "counts": {"direct": 1, "bound": 0, "candidate": 0},
                "total": 1,
                "items": [edge],
                "omitted": 0,
                "complete": False,
                "reasons": [f"parse-errors: 1 file(s) ({HOSTILE})", f"{HOSTILE}: text"],
                "secondHop": [{"caller": edge["from"], "callers": [edge], "total": 1}],
            }
        ],
        "callees": [{"symbol": symbol, "items": [edge], "unresolvedCalls": 2}],
        "importers": [
            {
                "file": HOSTILE,
                "version": "head",
                "total": 1,
                "items": [{"site": {"file": HOSTILE, "line": 1}, "tier": "direct"}],
                "complete": False,
                "reasons": [f"unresolved-import: 1 ({HOSTILE})"],
            }
        ],
        "implementersAndReferences": [
            {
                "symbol": symbol,
                "version": "base",
                "inherits": [{"relation": "implements", "to": HOSTILE, "tier": "direct"}],
                "implementers": {
                    "total": 1,
                    "items": [{**symbol, "relation": "extends", "tier": "direct"}],
                    "complete": True,
                    "reasons": [],
                },
                "references": {
                    "total": 2,
                    "uses": {"value": 1, "type": 1},
                    "items": [
                        {**edge, "use": "value", "site": {"file": HOSTILE, "line": 2}},
                        {**edge, "use": "type", "site": {"file": HOSTILE, "line": 3}},
                    ],
                    "complete": False,
                    "reasons": [HOSTILE],
                },
            }
        ],
        "routes": {
            "reached": [
                {
                    "handler": symbol,
                    "routes": [HOSTILE],
                    "reaches": [{"symbol": symbol["id"], "depth": 1, "tier": "direct"}],
                }
            ],
            "declared": [HOSTILE],
            "removed": [HOSTILE],
            "notLookedFor": 0,
            "hops": 3,
            "withoutHandler": [{"route": HOSTILE, "file": HOSTILE}],
            "gapsInChangedFiles": [{"line": HOSTILE, "places": [HOSTILE]}],
        },
        "relationUses": {
            "available": True,
            "items": [{"symbol": HOSTILE, "table": HOSTILE, "method": HOSTILE, "depth": 1}],
            "hops": 3,
        },
        "unknowns": {
            "unresolved": [{"symbol": HOSTILE, "unresolvedCalls": {"candidates": 1}}],
            "gapsInChangedFiles": [HOSTILE],
        },
    }


def test_repository_text_in_the_brief_starts_no_line_and_leaves_no_key() -> None:
    from tsograph.producers.diagrams.model import Diagram
    from tsograph.producers.review.brief import render

    status = {"base": {"commit": "0" * 40, "how": "HEAD"}, "partial": False}
    brief = render(_hostile_summary(), status, Diagram((), (), None))
    assert "sk_live_key" not in brief
    quoted = code(HOSTILE)
    assert quoted.startswith("``") and "\n" not in quoted
    for line in brief.splitlines():
        # Every line is the tool's own: a heading, a list item, a sentence, or the diagram.
        assert not line.startswith(("# heading", "<b>", "[link]", "| ")), line
    # Each of the 33 places the value is quoted holds it as one code span.
    assert brief.count(quoted) >= 28


def test_added_callbacks_carry_the_renumbering_note() -> None:
    from tsograph.producers.diagrams.model import Diagram
    from tsograph.producers.review.brief import render

    summary = _hostile_summary()
    status = {"base": {"commit": "0" * 40, "how": "HEAD"}, "partial": False}
    assert "renumbers them" not in render(summary, status, Diagram((), (), None))
    callback = {"id": "a.ts#App.useCallback()~2", "name": "App.useCallback()~2", "file": "a.ts"}
    summary["touched"] = {
        "edited": [],
        "added": [callback],
        "removed": [],
        "moved": [],
        "types": {},
    }
    assert "renumbers them" in render(summary, status, Diagram((), (), None))


def test_a_file_whose_only_touched_declaration_is_a_type_is_not_said_untouched() -> None:
    from tsograph.producers.diagrams.model import Diagram
    from tsograph.producers.review.brief import render

    summary = _hostile_summary()
    alias = {"id": "t.ts#Method", "name": "Method", "kind": "type", "file": "t.ts", "line": 2}
    summary["touched"] = {
        "edited": [],
        "added": [],
        "removed": [],
        "moved": [],
        "types": {"edited": [alias]},
    }
    summary["files"] = [{"path": "t.ts", "status": "M", "read": True}]
    status = {"base": {"commit": "0" * 40, "how": "HEAD"}, "partial": False}
    brief = render(summary, status, Diagram((), (), None))
    assert "- edited type `Method` at `t.ts:2`" in brief
    assert "no declaration touched" not in brief

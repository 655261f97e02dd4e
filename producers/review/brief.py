"""The brief: what the change reaches, in Markdown for a reviewer.

Made from the summary alone (impact.json), so the brief and the packet never
disagree. Every value from the repository goes through quote.code; the
rest is fixed tool text. The brief shows at most SHOWN_CALL_SITES callers
(SHOWN_POSSIBLE possible ones) and SHOWN_PLACES places per used name; each cut
says what it left out and where the rest is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tsograph.exchange.symbol_ids import module_id
from tsograph.producers.diagrams import mermaid
from tsograph.producers.diagrams.model import Diagram
from tsograph.producers.query.relation_questions import PROTOCOLS
from tsograph.producers.query.relation_questions import STRUCTURAL
from tsograph.producers.review.packet import key_of
from tsograph.producers.review.quote import code

SHOWN_CALL_SITES = 60
SHOWN_POSSIBLE = 20
SHOWN_PLACES = 8
SHOWN_SYMBOLS = 40
# The relation questions' own reasons: tool text, shown whole.
TOOL_REASONS = frozenset({PROTOCOLS, STRUCTURAL})


def _at(symbol: Mapping[str, Any]) -> str:
    if symbol["name"] == "<module>":
        # Imports, types and statements outside every declaration the graph holds.
        return f"code outside the graph's declarations in {code(str(symbol['file']))}"
    return f"{code(symbol['name'])} at {code(str(symbol['file']) + ':' + str(symbol.get('line')))}"


def _edge_from(item: Mapping[str, Any]) -> str:
    return f"{code(item['fromName'])} at {code(str(item['fromAt']))}"


def render(summary: Mapping[str, Any], status: Mapping[str, Any], diagram: Diagram) -> str:
    out: list[str] = ["# What this change reaches", ""]
    touched = summary["touched"]
    base = status["base"]
    out.append(
        f"Base {code(base['commit'][:12])} ({code(base['how'])}) compared with the work tree: "
        f"{len(summary['files'])} changed files, {len(touched['edited'])} edited, "
        f"{len(touched['added'])} added, {len(touched['removed'])} removed and "
        f"{len(touched['moved'])} moved symbols; "
        f"{len(summary['routes']['reached'])} route handlers reached."
    )
    if status["partial"]:
        out.append("")
        out.append(
            "The graph is partial: some files were not read whole (see "
            "What the graph could not see)."
        )
    out += ["", "```mermaid", mermaid.render(diagram).rstrip("\n"), "```", ""]
    _touched(out, touched, summary)
    _used_names(out, summary["usedNames"])
    _callers(out, summary["callers"])
    _callees(out, summary["callees"])
    _uses(out, summary["implementersAndReferences"])
    _importers(out, summary["importers"])
    _routes(out, summary["routes"])
    _relations(out, summary["relationUses"])
    _unknowns(out, summary["unknowns"], summary["readLineByLine"])
    out += ["Every list, uncut, is in the packet (`index.md` names each file)."]
    return "\n".join(out) + "\n"


def _inside(symbol: Mapping[str, Any]) -> str:
    count = len(symbol.get("nested", ()))
    return f" (with {count} declarations inside it)" if count else ""


def _touched(out: list[str], touched: Mapping[str, Any], summary: Mapping[str, Any]) -> None:
    out += ["## Symbols the change touches", ""]
    rows = [
        *(f"- edited {_at(symbol)}" for symbol in touched["edited"]),
        *(f"- added {_at(symbol)}{_inside(symbol)}" for symbol in touched["added"]),
        *(f"- removed {_at(symbol)}{_inside(symbol)}" for symbol in touched["removed"]),
        *(
            f"- moved {_at(move['from'])} to {_at(move['to'])} (the same body)"
            for move in touched["moved"]
        ),
        *(
            f"- {kind} {symbol['kind']} {_at(symbol)}"
            for kind in ("edited", "added", "removed")
            for symbol in touched["types"].get(kind, ())
        ),
    ]
    out += rows[:SHOWN_SYMBOLS]
    if len(rows) > SHOWN_SYMBOLS:
        out.append(f"- … {len(rows) - SHOWN_SYMBOLS} more in `impact.json`")
    if not rows:
        out.append("No symbol of the graph is touched.")
    renumbered = [
        symbol["id"]
        for symbol in (
            *touched["added"],
            *touched["removed"],
            *(move[side] for move in touched["moved"] for side in ("from", "to")),
        )
        if "()" in symbol["id"].partition("#")[2]
    ]
    if renumbered:
        # Ids of callbacks carry their position (`useCallback()~2`): one callback added
        # before others renumbers those after it.
        out.append(
            "- note: callbacks are named by their place among their siblings (`~2`, `~3`), so a "
            "callback added or removed before others renumbers them; some of the callbacks "
            "above may be the same code under a new number"
        )
    holding = {
        str(symbol["file"]) for kind in ("edited", "added", "removed") for symbol in touched[kind]
    } | {str(move[side]["file"]) for move in touched["moved"] for side in ("from", "to")}
    holding |= {str(symbol["file"]) for found in touched["types"].values() for symbol in found}
    files = [row for row in summary["files"] if row["status"] != "M" or row["path"] not in holding]
    for row in files[:SHOWN_SYMBOLS]:
        status = row["status"]
        if status.startswith("R"):
            out.append(f"- file {code(status[1:])} renamed to {code(row['path'])}")
        else:
            changed = "changed, no declaration touched" if row["read"] else "changed"
            word = {"A": "added", "D": "deleted"}.get(status[0], changed)
            if not row["read"]:
                # A file the graph does not read (a document, a template, a source in a
                # folder the walk leaves out): what it declares is not known.
                word += ", not read by the graph"
            out.append(f"- file {code(row['path'])} {word}")
    if len(files) > SHOWN_SYMBOLS:
        out.append(f"- … {len(files) - SHOWN_SYMBOLS} more files in `impact.json`")
    out.append("")


def _used_names(out: list[str], rows: list[Mapping[str, Any]]) -> None:
    out += ["## Removed or moved names still used elsewhere", ""]
    if not rows:
        out += ["No removed or moved symbol was used from another file in the base.", ""]
        return
    for row in rows:
        moved = f", moved to {code(row['movedTo'])}" if row["movedTo"] else ""
        out.append(f"- {_at(row['symbol'])}{moved}: {_count(row['total'], 'place')} used it")
        for place in row["places"][:SHOWN_PLACES]:
            now = place["bindsNow"]
            if now is None:
                binds = "the user is gone too"
            elif now:
                binds = "binds now " + ", ".join(code(target) for target in now)
            else:
                binds = "binds nothing of that name now"
            out.append(f"  - {code(place['user'])} ({place['tier']}): {binds}")
        if row["total"] > SHOWN_PLACES:
            out.append(f"  - … {row['total'] - SHOWN_PLACES} more in `changes.json`")
    out.append("")


def _callers(out: list[str], blocks: list[Mapping[str, Any]]) -> None:
    out += ["## Callers, one and two hops out", ""]
    sides = []
    for version, word in (("head", "the work tree's graph"), ("base", "the base graph")):
        found = sorted(
            {
                _reason(reason)
                for block in blocks
                if block["version"] == version
                for reason in block["reasons"]
                if _is_gap(reason)
            }
        )
        if found:
            sides.append(f"{word}: " + "; ".join(found))
    gaps = bool(sides)
    if gaps:
        out += [
            "A list is a floor where its graph has gaps, since a call the graph could not link "
            "may reach any symbol (" + "; ".join(sides) + ").",
            "",
        ]
    shown = possible = 0
    for block in blocks:
        counts = block["counts"]
        own = [_reason(reason) for reason in block["reasons"] if not _is_gap(reason)]
        if block["complete"]:
            mark = "complete"
        elif own:
            mark = "a floor: " + "; ".join(own) + ("; and the graph's gaps" if gaps else "")
        else:
            mark = "a floor: the graph's gaps"
        side = " (base version)" if block["version"] == "base" else ""
        out.append(
            f"### {_at(block['symbol'])}{side}: {counts['direct']} direct, {counts['bound']} "
            f"bound, {counts['candidate']} possible"
        )
        out += ["", mark[0].upper() + mark[1:] + ".", ""]
        hops = {row["caller"]: row for row in block["secondHop"]}
        left = 0
        for item in block["items"]:
            is_possible = item["tier"] == "candidate"
            if shown >= SHOWN_CALL_SITES or (is_possible and possible >= SHOWN_POSSIBLE):
                left += 1
                continue
            shown += 1
            possible += is_possible
            tier = "possible" if is_possible else item["tier"]
            out.append(f"- {tier} {_edge_from(item)}")
            hop = hops.get(item["from"])
            if hop and hop["callers"]:
                names = ", ".join(code(second["fromName"]) for second in hop["callers"][:5])
                rest = hop["total"] - min(5, len(hop["callers"]))
                tail = f" and {rest} more" if rest else ""
                out.append(f"  - called by {names}{tail}")
        if block["omitted"] or left:
            out.append(
                f"- … {block['omitted'] + left} more in "
                f"`callers/{key_of(block['symbol']['id'])}.json`"
            )
        if not block["items"]:
            out.append("- no caller in the graph" + ("" if block["complete"] else " (a floor)"))
        out.append("")
    if not blocks:
        out += ["Nothing touched has callers to list.", ""]


def _is_gap(reason: str) -> bool:
    return not reason.startswith(("cut:", "possible:"))


def _reason(text: str) -> str:
    """A graph gap as its cause and count (`unresolved-calls 3`): the brief stays short and
    the whole line is in `unknowns.json`; the review's own reasons as written."""
    cause, _, rest = text.partition(": ")
    if cause in ("cut", "possible"):
        return text
    count = rest.split(" ", 1)[0]
    # A limitation line may name files (repository text): the brief keeps its cause only.
    return f"{cause} {count}" if count.isdigit() else code(cause)


def _callees(out: list[str], blocks: list[Mapping[str, Any]]) -> None:
    out += ["## What the touched code calls", ""]
    rows = []
    for block in blocks:
        names = ", ".join(code(item["toName"]) for item in block["items"][:8])
        extra = len(block["items"]) - 8
        unresolved = (
            f"; {block['unresolvedCalls']} calls not linked" if block["unresolvedCalls"] else ""
        )
        if names or unresolved:
            tail = f" and {extra} more" if extra > 0 else ""
            rows.append(
                f"- {code(block['symbol']['name'])}: {names or 'nothing linked'}{tail}{unresolved}"
            )
    out += rows or ["Nothing the touched code calls is in the graph."]
    out.append("")


def _routes(out: list[str], routes: Mapping[str, Any]) -> None:
    out += ["## Routes this change reaches", ""]
    for row in routes["reached"]:
        labels = ", ".join(code(label) for label in row["routes"])
        how = min(row["reaches"], key=lambda reach: (reach["depth"], reach["symbol"]))
        via = (
            "its handler is touched"
            if how["depth"] == 0
            else f"reaches {code(how['symbol'].partition('#')[2])} in {how['depth']} hops "
            f"({how['tier']})"
        )
        out.append(f"- {labels}: handler {_at(row['handler'])} {via}")
    if not routes["reached"]:
        out.append(
            f"No route handler is touched or reaches touched code within {routes['hops']} hops."
        )
    if routes["notLookedFor"]:
        out.append(
            f"- routes of {routes['notLookedFor']} touched symbols past the first 25 not looked for"
        )
    for label in routes["declared"]:
        out.append(f"- route declared by the change: {code(label)}")
    for label in routes["removed"]:
        out.append(f"- route the change removed (its declaration is gone): {code(label)}")
    for row in routes.get("withoutHandler", ()):
        out.append(
            f"- route declared in a changed file with no handler the graph holds: "
            f"{code(row['route'])} in {code(row['file'])}"
        )
    for gap in routes.get("gapsInChangedFiles", ()):
        cause = code(gap["line"].partition(":")[0])
        places = ", ".join(code(place) for place in gap["places"])
        out.append(
            f"- a registration the routes scan could not model ({cause}; the whole line is in "
            f"`impact.json`) at {places}"
        )
    out.append("")


def _relations(out: list[str], relations: Mapping[str, Any]) -> None:
    out += ["## Tables the touched code reaches", ""]
    if not relations["available"]:
        out += ["The relation uses of the work tree could not be read.", ""]
        return
    for row in relations["items"][:20]:
        method = f" {code(row['method'])}" if row.get("method") else ""
        out.append(
            f"- {code(row['table'] or '?')}{method} from {code(row['symbol'])} "
            f"at depth {row['depth']}"
        )
    if len(relations["items"]) > 20:
        out.append(f"- … {len(relations['items']) - 20} more in `impact.json`")
    if not relations["items"]:
        out.append(f"No relation use within {relations['hops']} calls of the touched code.")
    out.append("")


def _unknowns(out: list[str], unknowns: Mapping[str, Any], inexact: list[str]) -> None:
    out += ["## What the graph could not see near the change", ""]
    rows = [
        f"- {code(row['symbol'])}: {row['unresolvedCalls']['candidates']} calls not linked"
        for row in unknowns["unresolved"]
    ]
    rows += [f"- {code(line)}" for line in unknowns["gapsInChangedFiles"]]
    rows += [f"- {code(path)}: spans read by line only" for path in inexact]
    out += rows or ["Nothing in the changed files."]
    out.append("")


def _gaps(out: list[str], lists: list[Mapping[str, Any]]) -> None:
    """The reasons the section's lists are floors, said once (tool text whole, a graph gap
    as its cause and count); each list then says only complete or a floor."""
    found = sorted(
        {
            text if text in TOOL_REASONS else _reason(text)
            for found in lists
            for text in found["reasons"]
        }
    )
    if found:
        out += ["A list is a floor where: " + "; ".join(found) + ".", ""]


def _mark(found: Mapping[str, Any]) -> str:
    return "complete" if found["complete"] else "a floor"


def _count(number: int, noun: str) -> str:
    """`1 place`, `3 places`: a count with its noun."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _places(items: list[Mapping[str, Any]], total: int, where: str) -> str:
    shown = []
    for item in items[:SHOWN_PLACES]:
        if "fromName" in item:
            place = item.get("site") or {}
            at = f"{place.get('file')}:{place.get('line')}:{place.get('column')}"
            shown.append(f"{code(item['fromName'])} at {code(at)} ({item['tier']})")
        else:
            shown.append(f"{_at(item)} ({item['relation']}, {item['tier']})")
    rest = total - len(shown)
    return ", ".join(shown) + (f" and {rest} more in `{where}`" if rest else "")


def _uses(out: list[str], blocks: list[Mapping[str, Any]]) -> None:
    out += ["## Implementations, overrides and uses as a value or a type", ""]
    _gaps(out, [block[part] for block in blocks for part in ("implementers", "references")])
    for block in blocks:
        key = key_of(block["symbol"]["id"])
        side = " (base version)" if block["version"] == "base" else ""
        out.append(f"- {_at(block['symbol'])}{side}")
        for row in block["inherits"]:
            out.append(f"  - it {row['relation']} {code(row['to'])} ({row['tier']})")
        implementers = block["implementers"]
        if implementers["total"]:
            names = _places(
                implementers["items"], implementers["total"], f"implementers/{key}.json"
            )
            out.append(
                f"  - extended, implemented or overridden by {implementers['total']} "
                f"({_mark(implementers)}): {names}"
            )
        references = block["references"]
        for use, word in (("value", "used as a value"), ("type", "named as a type")):
            items = [item for item in references["items"] if item["use"] == use]
            total = references["uses"][use]
            if total:
                out.append(
                    f"  - {word} in {_count(total, 'place')}: "
                    + _places(items, total, f"references/{key}.json")
                )
        if references["total"]:
            out.append(f"  - these uses are {_mark(references)}")
    if not blocks:
        out.append(
            "Nothing the change touches is extended, implemented, overridden, used as a value "
            "or named as a type in the graph."
        )
    out.append("")


def _importers(out: list[str], blocks: list[Mapping[str, Any]]) -> None:
    out += ["## Files that import a changed file", ""]
    _gaps(out, blocks)
    for block in blocks:
        key = key_of(module_id(block["file"]))
        sites = [
            code(f"{item['site']['file']}:{item['site']['line']}") + f" ({item['tier']})"
            for item in block["items"][:SHOWN_PLACES]
        ]
        rest = block["total"] - len(sites)
        tail = f" and {rest} more in `importers/{key}.json`" if rest else ""
        side = " (base version: the file is deleted)" if block["version"] == "base" else ""
        out.append(
            f"- {code(block['file'])}{side}: imported at {_count(block['total'], 'place')}, "
            f"{_mark(block)}: " + ", ".join(sites) + tail
        )
    if not blocks:
        out.append("No file of the graph imports a changed file.")
    out.append("")

"""The short readable form of an answer: what `query` prints without --json.

One line for the target, one per item, then counts, what the list may miss,
how it was cut and which build answered. Every value from the repository is
printed on one line with control characters escaped.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tsograph.producers.graph.closest_ids import printable


def _symbol(symbol: Mapping[str, Any]) -> str:
    return (
        f"{symbol.get('kind')} {printable(symbol['name'])} at "
        f"{printable(str(symbol['file']))}:{symbol.get('line')} ({printable(symbol['id'])})"
    )


def _site(site: Mapping[str, Any]) -> str:
    return f"{printable(str(site['file']))}:{site['line']}:{site['column']}"


def _item(kind: str, item: Mapping[str, Any]) -> str:
    if "use" in item and "edge" not in item:
        return (
            f"{_site(item['site'])} in {printable(item['fromName'])}, {item['tier']}, "
            f"use as a {item['use']}"
        )
    if "edge" in item:
        name = item["toName"] if kind == "callees" else item["fromName"]
        # Where the call is written; an edge with no site (contains, initializer) is shown
        # at the declaration it leaves from, or reaches for callees.
        where = (
            _site(item["site"])
            if item.get("site")
            else printable(str(item["toAt" if kind == "callees" else "fromAt"]))
        )
        use = f", use as a {item['use']}" if "use" in item else ""
        arrow = f" -> {printable(item['toName'])}" if kind in ("path", "explain") else ""
        return (
            f"{where} in {printable(name)}{arrow}, {item['tier']} "
            f"{'+'.join(item['kinds'])}{use}, depth {item['depth']} [{item['edge']}]"
        )
    if kind == "importers":
        return f"{_site(item['site'])}, {item['tier']}"
    if "question" in item:
        state = "yes" if item["available"] else f"no: {item['reason']}"
        return f"{item['question']}: {state}"
    if "limitation" in item:
        return printable(item["limitation"])
    if "members" in item:
        return f"{item['size']}: " + ", ".join(map(printable, item["members"]))
    if "folder" in item:
        name = f" {printable(item['name'])}" if item.get("name") else ""
        return (
            f"{printable(item['folder'])}{name}: {item['files']} files, {item['symbols']} "
            f"symbols, {item['edgesOut']} edges out"
        )
    line = _symbol(item)
    if item.get("routes"):
        line += " " + "; ".join(map(printable, item["routes"]))
    if "change" in item:
        moved = f" from {printable(item['from'])}" if "from" in item else ""
        line += f", {item['change']}{moved}"
    if "relation" in item:
        line += f", {item['relation']} {printable(item['via'])}"
    if "tier" in item:
        line += f", {item['tier']}, depth {item['depth']}"
    if item.get("unresolvedCalls"):
        line += ", unresolved " + ", ".join(
            f"{mode} {count}" for mode, count in item["unresolvedCalls"].items()
        )
    if "callers" in item:
        line += ", callers " + _tiers(item["callers"]) + "; callees " + _tiers(item["callees"])
    return line


def _tiers(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{count} {tier}" for tier, count in counts.items())


def render(document: Mapping[str, Any]) -> str:
    lines: list[str] = []
    kind = document["kind"]
    if document.get("target"):
        lines.append(_symbol(document["target"]))
    if "candidates" in document:
        lines.append(f"{len(document['candidates'])} declarations match; name one by id:")
        lines.extend("  " + _symbol(symbol) for symbol in document["candidates"])
    statistics = document.get("statistics")
    if statistics:
        lines.append(", ".join(f"{name} {value}" for name, value in sorted(statistics.items())))
    lines.extend(_item(kind, item) for item in document["items"])
    if not document["items"] and "candidates" not in document:
        lines.append("nothing found")
    if document["counts"] is not None:
        lines.append("counts: " + _tiers(document["counts"]))
    unknown = document["unknown"]
    if unknown["floor"]:
        causes = ", ".join(f"{cause} {count}" for cause, count in unknown["causes"].items())
        lines.append(f"floor: the list may be short ({causes or 'see --json'})")
    cut = document["truncated"]
    if cut["by"] == "budget":
        lines.append("cut: the time budget ran out; ask again with a larger --budget-ms")
    elif cut["by"] == "depth":
        lines.append("cut: more lies past the depth asked")
    elif cut["by"] is not None:
        lines.append(f"cut by {cut['by']}: {cut['omitted']} more; --cursor {cut['cursor']}")
    graph = document["graph"]
    later = ", files changed since" if graph["freshness"]["laterEditsKnown"] else ""
    lines.append(f"graph: build {graph['build']}, {graph['status']}, {graph['mode']}{later}")
    return "\n".join(lines) + "\n"

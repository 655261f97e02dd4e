"""The MCP tools: one per question, graph_<question>, and graph_refresh.

Each takes the target as `symbol` (a name, Class.method, file:line or id),
`file` or `id`, and the paging of `query`: limit, cursor and budget (items,
tokens, ms). Questions the graph has no data for yet are listed too, so an
agent sees them; asking one answers a tool error with the reason.
"""

from __future__ import annotations

from typing import Any

from tsograph.producers.graph.model import EVIDENCE_ORDER
from tsograph.producers.query.questions import QUESTIONS
from tsograph.producers.query.questions import UNAVAILABLE

_STRING = {"type": "string"}
_PAGING: dict[str, Any] = {
    "limit": {"type": "integer", "minimum": 1, "maximum": 500, "description": "items per page"},
    "cursor": {"type": "string", "description": "the next page, as an earlier answer named it"},
    "budget": {
        "type": "object",
        "properties": {
            "items": {"type": "integer", "minimum": 1, "maximum": 500},
            "tokens": {"type": "integer", "minimum": 1},
            "ms": {"type": "integer", "minimum": 1},
        },
        "additionalProperties": False,
    },
    "generation": {"type": "string", "description": "the build id the answer must come from"},
    "repo": {"type": "string", "description": "only '.': this server answers for one repository"},
    "language": {
        "enum": ["js", "python"],
        "description": "the graph to ask: js (TypeScript/JavaScript) or python; default: the "
        "one language the repository holds, js when it holds both",
    },
}
_TARGET = {
    "symbol": {"type": "string", "description": "a name, Class.method, file:line or symbol id"},
    "file": {"type": "string", "description": "a path inside the repository"},
    "id": {"type": "string", "description": "a symbol id"},
}
_TIER = {
    "tier": {
        "type": "array",
        "items": {"enum": list(EVIDENCE_ORDER)},
        "description": "the evidence tiers to follow",
    }
}

DESCRIPTIONS = {
    "status": "How the held graph was built: counts and every limitation.",
    "capabilities": "Which questions this graph answers, and why the others are not.",
    "search": "Symbols whose name or path holds `text`.",
    "symbol": "A symbol, its callers and callees counted by tier, its unresolved calls.",
    "callers": "Who calls `symbol`, up to `depth` hops (1 to 3), each edge with its tier.",
    "callees": "What `symbol` calls, up to `depth` hops (1 to 3).",
    "routes": "Entry points (route handlers, pages, ...); with `symbol`, those reaching it.",
    "path": "A shortest chain of edges from `symbol` to `to`.",
    "impact": "Every symbol that reaches `symbol`, up to `depth` hops, by its strongest tier; "
    "with `base` (a git ref) and no symbol, every symbol that reaches the change since it.",
    "outline": "The declarations of `file` (a file or a folder), in order.",
    "packages": "The folders holding a package.json, with files, symbols and edges out.",
    "cycles": "Files (or packages, `level`) whose code uses each other in a ring.",
    "unknowns": "Symbols with calls the graph could not link (`file`, `name`).",
    "explain": "One edge, by the id an answer gave (`id`).",
    "implementers": "What extends or implements a class or interface (`symbol`), or overrides "
    "a method; `Interface.member` lists each implementing class's member.",
    "references": "Where `symbol` is used as a value (named, not called) or named as a type.",
    "tests": "The test functions that call `symbol`, up to `depth` hops (1 to 3).",
    "importers": "The modules whose imports or re-exports name `file`.",
    "changes": "The symbols the work tree added, edited, moved or removed against the git "
    "commit `base` (read from git, never checked out).",
}


def _properties(question: str) -> dict[str, Any]:
    properties: dict[str, Any] = dict(_PAGING)
    if question in ("status", "capabilities", "packages"):
        return properties
    if question == "search":
        return {**properties, "text": _STRING}
    if question == "cycles":
        return {**properties, **_TIER, "level": {"enum": ["files", "packages"]}}
    if question == "unknowns":
        return {**properties, **_TIER, "file": _TARGET["file"], "name": _STRING}
    if question == "explain":
        return {**properties, "id": {"type": "string", "description": "an edge id (e.…)"}}
    if question == "changes":
        return {**properties, "base": {"type": "string", "description": "a git ref"}}
    if question == "importers":
        return {**properties, **_TIER, "file": _TARGET["file"]}
    properties.update(_TARGET)
    if question in ("callers", "callees", "impact", "path", "routes", "references", "tests"):
        properties.update(_TIER)
    if question in ("callers", "callees", "impact", "path", "routes", "implementers", "tests"):
        properties["depth"] = {"type": "integer", "minimum": 1}
    if question == "path":
        properties["to"] = {"type": "string", "description": "the symbol to reach"}
        properties["edges"] = {"type": "array", "items": _STRING}
    if question == "routes":
        properties["text"] = {"type": "string", "description": "a part of METHOD /path"}
    if question == "impact":
        properties["base"] = {"type": "string", "description": "a git ref to compare with"}
    return properties


def tool_specs() -> list[dict[str, Any]]:
    """Name, description and input schema of every tool, in name order."""
    specs = []
    for question in QUESTIONS:
        description = DESCRIPTIONS.get(question) or (
            f"Not answered by this graph yet: {UNAVAILABLE[question]}."
        )
        specs.append(
            {
                "name": f"graph_{question}",
                "description": description + " Answers with the JSON of `tsograph query --json`.",
                "input_schema": {
                    "type": "object",
                    "properties": _properties(question),
                    "additionalProperties": False,
                },
            }
        )
    specs.append(
        {
            "name": "graph_refresh",
            "description": "Build the graph again from the work tree and hold the new build; "
            "answers with graph_status.",
            "input_schema": {
                "type": "object",
                "properties": {"language": _PAGING["language"]},
                "additionalProperties": False,
            },
        }
    )
    return sorted(specs, key=lambda spec: spec["name"])

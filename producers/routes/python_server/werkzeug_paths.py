"""Werkzeug rules (Flask routes) as contract templates.

Checked against werkzeug 3.1.9 (routing/rules.py `_part_re`, routing/converters.py),
the version flask 3.1.3 installs; the oracle recordings replay it:

* a variable is `<name>` or `<converter:name>`, optionally `<converter(args):name>`;
* converters: `default`/`string` `[^/]+`, `int` `\\d+`, `float` `\\d+\\.\\d+`,
  `uuid` (8-4-4-4-12 hex digits with dashes), `path` `[^/].*?` (one or more
  characters, `/` included, not starting with `/`), `any(a, b)` one of the
  words; arguments (`string(length=2)`, `int(signed=True)`) change the regex;
* a rule must start with `/`.

A `path` variable filling the last segment serves `<prefix>/{**}`; anywhere
else, converter arguments, `any` and unknown converters are dynamic, scoped
to the literal segments before them.
"""

from __future__ import annotations

import re

from tsograph.exchange.templates import PARAM, Part, canonicalize_segments
from tsograph.producers.routes.node.paths.model import PathVariant
from tsograph.producers.routes.python_server.converters import Converters, constraint
from tsograph.producers.routes.python_server.path_segments import append_literal, dynamic_variant

_VARIABLE = re.compile(
    r"<(?:(?P<converter>[a-zA-Z_][a-zA-Z0-9_]*)(?:\((?P<arguments>.*?)\))?:)?"
    r"(?P<variable>[a-zA-Z_][a-zA-Z0-9_]*)>"
)
FLOAT_PATTERN = r"^\d+\.\d+$"
UUID_PATTERN = r"^[A-Fa-f0-9]{8}-[A-Fa-f0-9]{4}-[A-Fa-f0-9]{4}-[A-Fa-f0-9]{4}-[A-Fa-f0-9]{12}$"
CONSTRAINTS: Converters = {
    "int": ("int", None),
    "float": ("regex", FLOAT_PATTERN),
    "uuid": ("regex", UUID_PATTERN),
}
_SIMPLE = ("default", "string", "int", "float", "uuid")


def _head(rule: str) -> str:
    match = _VARIABLE.search(rule) or re.search("<", rule)
    head = rule if match is None else rule[: match.start()]
    return head if match is None else head.rpartition("/")[0]


def werkzeug_variants(rule: str) -> list[PathVariant]:
    """The templates a Flask rule serves."""
    if not rule.startswith("/"):
        return [dynamic_variant(_head(rule), "malformed-template")]
    segments: list[list[Part]] = [[]]
    constraints: list[tuple[int, str, str | None]] = []
    index = 0
    matches = list(_VARIABLE.finditer(rule))
    for position, match in enumerate(matches):
        append_literal(rule[index : match.start()], segments)
        index = match.end()
        converter = match.group("converter") or "default"
        if match.group("arguments") is not None or converter not in (*_SIMPLE, "path"):
            return [dynamic_variant(_head(rule), "converter-arguments")]
        if converter == "path":
            whole_last = position == len(matches) - 1 and index == len(rule) and not segments[-1]
            if not whole_last:
                return [dynamic_variant(_head(rule), "path-converter")]
            template = canonicalize_segments(segments[:-1] or [])
            if template.dynamic:
                return [dynamic_variant(_head(rule), template.reason or "malformed-template")]
            base = template.channel.rstrip("/")
            return [PathVariant(base + "/{**}", param_constraints=tuple(constraints))]
        segments[-1].append(PARAM)
        # Every earlier variable was a `{}` (a path variable ends the rule), so the
        # position among the variables is the index among the holes.
        constraints.extend(constraint(CONSTRAINTS, converter, position))
    if "<" in rule[index:] or ">" in rule[index:]:
        return [dynamic_variant(_head(rule), "malformed-template")]
    append_literal(rule[index:], segments)
    template = canonicalize_segments(segments)
    if template.dynamic:
        return [PathVariant(template.channel, True, reason=template.reason)]
    return [PathVariant(template.channel, param_constraints=tuple(constraints))]

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

from tsograph.producers.routes.node.paths.model import PathVariant
from tsograph.producers.routes.python_server.converters import Converters
from tsograph.producers.routes.python_server.path_segments import angle_variants
from tsograph.producers.routes.python_server.path_segments import dynamic_variant

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
    variables = list(_VARIABLE.finditer(rule))
    head = _head(rule)
    return angle_variants(
        rule, head, variables, _converter, "converter-arguments", CONSTRAINTS, closed_tail=True
    )


def _converter(match: re.Match[str]) -> str | None:
    converter = match.group("converter") or "default"
    if match.group("arguments") is not None or converter not in (*_SIMPLE, "path"):
        return None
    return converter

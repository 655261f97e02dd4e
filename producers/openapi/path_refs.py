"""Following `$ref` from a path item to the objects that hold its fields.

Only local JSON pointers (`#/…`) are followed, because nothing is fetched, and
at most MAX_REF_HOPS of them in a row (MAX_TOTAL_REF_HOPS in the whole spec).
A reference that leaves the file, does not resolve to an object, loops, or
goes further is counted and the chain stops there; the fields found so far
still count. Every key a pointer passes through must be unique in its mapping,
otherwise it would be a guess which occurrence the pointer means.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

from tsograph.producers.openapi import coverage as causes
from tsograph.producers.openapi.coverage import Coverage
from tsograph.producers.openapi.repeats import RepeatedKeys
from tsograph.producers.openapi.tree import Key
from tsograph.producers.openapi.tree import Opaque
from tsograph.producers.openapi.tree import SpecMap

MAX_REF_HOPS = 16
# References followed in the whole spec. Specs reference each path item once or
# twice; the cap keeps thousands of long chains from costing hops times paths.
MAX_TOTAL_REF_HOPS = 100_000

_INDEX = re.compile(r"0|[1-9][0-9]*")


def pointer_tokens(ref: str) -> list[str] | None:
    """The reference tokens of a local `#/a/b` pointer, or None when it is not one."""
    try:
        pointer = unquote(ref[1:], errors="strict")
    except UnicodeDecodeError:
        return None
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        return None
    tokens = []
    for raw in pointer[1:].split("/"):
        if "~" in raw.replace("~0", "").replace("~1", ""):
            return None
        tokens.append(raw.replace("~1", "/").replace("~0", "~"))
    return tokens


def resolve(root: object, tokens: list[str], repeats: RepeatedKeys) -> object | None:
    """The value a pointer names, or None when it names nothing."""
    value = root
    for token in tokens:
        if isinstance(value, SpecMap):
            # A pointer names keys as JSON text; YAML may have written `200:`
            # unquoted, which is the same key once the spec is JSON.
            key: Key = token if token in value else Opaque(token)
            repeats.reject_in(value, (key,))
            if key not in value:
                return None
            value = value[key]
        elif isinstance(value, list) and _INDEX.fullmatch(token):
            index = int(token)
            if index >= len(value):
                return None
            value = value[index]
        else:
            return None
    return value


class PathItemRefs:
    """Follows path-item references; each distinct reference is resolved once."""

    def __init__(self, root: object, repeats: RepeatedKeys, coverage: Coverage) -> None:
        self._root = root
        self._repeats = repeats
        self._coverage = coverage
        # A reference's target, or the cause why it cannot be followed.
        self._targets: dict[str, SpecMap | str] = {}
        self._hops_left = MAX_TOTAL_REF_HOPS

    def chain(self, item: SpecMap) -> list[SpecMap]:
        """The path item followed by every object its `$ref` chain reaches, in order."""
        chain = [item]
        current = item
        while "$ref" in current:
            if len(chain) > MAX_REF_HOPS:
                self._coverage.skipped(causes.REF_HOP_LIMIT)
                break
            if not self._hops_left:
                self._coverage.skipped(causes.REF_BUDGET)
                break
            self._hops_left -= 1
            target = self._target(current["$ref"])
            if isinstance(target, str):
                self._coverage.skipped(target)
                break
            if any(target is seen for seen in chain):
                self._coverage.skipped(causes.CYCLIC_REF)
                break
            chain.append(target)
            current = target
        return chain

    def _target(self, ref: object) -> SpecMap | str:
        if not isinstance(ref, str):
            return causes.BROKEN_REF
        if ref not in self._targets:
            self._targets[ref] = self._resolve(ref)
        return self._targets[ref]

    def _resolve(self, ref: str) -> SpecMap | str:
        if not ref.startswith("#"):
            return causes.NON_LOCAL_REF
        tokens = pointer_tokens(ref)
        target = None if tokens is None else resolve(self._root, tokens, self._repeats)
        return target if isinstance(target, SpecMap) else causes.BROKEN_REF

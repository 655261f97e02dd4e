"""Key-shaped tokens out of everything the review writes (code-graph seed, "key-shaped token").

A run of letters, digits, `_` and `-` with a known key prefix at its start or
after a `_` or `-` in it, and an opaque run of sixteen or more letters and
digits, becomes `[redacted:` and the first eight hex digits of its SHA-256
`]`: the same token always reads the same, two tokens never match.

"Opaque" is read here as a run that mixes at least four digits with at
least four letters: identifiers of sixteen letters (`getOrganisationById`)
are the code under review, not keys, while API keys, hex and base64 secrets
mix both. Tool-made values (build ids, keys of the packet's own files) are
not repository text and are not passed through.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

KEY_PREFIXES = (
    "sk_live_",
    "sk_test_",
    "rk_live_",
    "rk_test_",
    "pk_live_",
    "whsec_",
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "glpat-",
    "xoxb-",
    "xoxp-",
    "xoxa-",
    "npm_",
    "AKIA",
    "ASIA",
    "AIza",
)
_RUN = re.compile(r"[A-Za-z0-9_-]+")
_ALNUM = re.compile(r"[A-Za-z0-9]{16,}")
OPAQUE_DIGITS = 4
OPAQUE_LETTERS = 4


def _mark(token: str) -> str:
    return "[redacted:" + hashlib.sha256(token.encode("utf-8")).hexdigest()[:8] + "]"


def _prefixed(run: str) -> bool:
    starts = [0] + [index + 1 for index, ch in enumerate(run) if ch in "_-"]
    return any(run.startswith(prefix, start) for start in starts for prefix in KEY_PREFIXES)


def _opaque(match: re.Match[str]) -> str:
    token = match.group(0)
    digits = sum(ch.isdigit() for ch in token)
    if digits >= OPAQUE_DIGITS and len(token) - digits >= OPAQUE_LETTERS:
        return _mark(token)
    return token


def _run(match: re.Match[str]) -> str:
    run = match.group(0)
    if _prefixed(run):
        return _mark(run)
    return _ALNUM.sub(_opaque, run)


_MAYBE_PREFIXED = re.compile("|".join(map(re.escape, KEY_PREFIXES)))
_FOUR_DIGITS = re.compile(r"(?:[^0-9]*[0-9]){4}")


def redact(text: str) -> str:
    # Most text holds neither a prefix nor four digits: nothing to look at closer.
    if _MAYBE_PREFIXED.search(text) is None and _FOUR_DIGITS.match(text) is None:
        return text
    return _RUN.sub(_run, text)


def redact_value(value: Any, keep: frozenset[str] = frozenset()) -> Any:
    """Every string of a JSON value redacted, but the members named in `keep` (tool-made)."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, list):
        return [redact_value(item, keep) for item in value]
    if isinstance(value, dict):
        return {
            name: item if name in keep else redact_value(item, keep) for name, item in value.items()
        }
    return value

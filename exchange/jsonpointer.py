"""RFC 6901 JSON pointers, the way every validation message names a place."""

from __future__ import annotations

from collections.abc import Iterable


def pointer(parts: Iterable[str | int]) -> str:
    """The pointer for a path of keys and indexes ("" is the whole document)."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in parts)

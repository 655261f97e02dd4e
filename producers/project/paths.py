"""Project-relative POSIX paths: the only path form the project model uses.

Every file the model knows is named by its path relative to the source root
(the project, or the enclosing workspace when one is given), with `/`
separators and no `.`/`..` segments. A path that would climb out of the root
is not representable and is treated as outside the project.
"""

from __future__ import annotations

import posixpath
import re

OUTSIDE = ".."


def normalize(path: str) -> str:
    """Normalise a relative POSIX path; "" is the root itself."""
    joined = posixpath.normpath(path) if path else "."
    return "" if joined == "." else joined


def join(base: str, relative: str) -> str:
    """Join a relative path to a directory, normalised ("" is the root)."""
    if relative.startswith("/"):
        return OUTSIDE
    return normalize(posixpath.join(base, relative) if base else relative)


def is_outside(path: str) -> bool:
    return path == OUTSIDE or path.startswith(OUTSIDE + "/")


def parent(path: str) -> str:
    return posixpath.dirname(path)


def ancestors(directory: str) -> list[str]:
    """The directory itself, then each parent up to and including the root ("")."""
    chain = [directory]
    while directory:
        directory = posixpath.dirname(directory)
        chain.append(directory)
    return chain


def glob_regex(pattern: str) -> str:
    """A regular expression for a path glob.

    `*` and `?` stay within one folder name, `**/` spans any number of
    folders, and a `**` that ends the pattern matches everything below.
    """
    out: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:[^/]+/)*")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return "".join(out)

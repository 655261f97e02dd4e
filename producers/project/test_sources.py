"""Which project files are test sources: the one rule every producer shares.

The spec's routes rule: a file named `*.test.*` or `*.spec.*`, or any file
under a `__tests__/` or `__mocks__/` folder. Route producers leave test
sources out unless asked, and bound dispatch treats them as a separate
program so mocks injected by unit tests do not block production edges.
"""

from __future__ import annotations

import re

_TEST_NAME = re.compile(r"\.(test|spec)\.")
_TEST_FOLDERS = frozenset({"__tests__", "__mocks__"})


def is_test_source(relative: str) -> bool:
    """True for a project-relative POSIX path that names a test source."""
    parts = relative.split("/")
    if any(part in _TEST_FOLDERS for part in parts[:-1]):
        return True
    return bool(_TEST_NAME.search(parts[-1]))

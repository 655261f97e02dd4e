"""Which project files are test sources: the one rule every producer shares.

The spec's routes rule: a file named `*.test.*` or `*.spec.*`, or any file
under a `__tests__/` or `__mocks__/` folder. Python: the files pytest collects
by default, a Django app's `tests.py`, and files under a `tests/` or `test/`
folder. Route producers leave test
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


# `tests.py`: the module `manage.py startapp` makes, collected by Django's DiscoverRunner and
# unittest discovery (pattern "test*.py": django 5.2.19 test/runner.py, CPython 3.11).
_PY_TEST_NAME = re.compile(r"^(test_.*|.*_test|conftest|tests)\.py$")
_PY_TEST_FOLDERS = frozenset({"tests", "test", "__tests__"})


def is_python_test_name(name: str) -> bool:
    """A file name a Python test runner collects: pytest's `test_*.py`, `*_test.py` and
    `conftest.py`, and a Django app's `tests.py`."""
    return bool(_PY_TEST_NAME.match(name))


def is_python_test(relative: str) -> bool:
    """A Python test source: a test file name (is_python_test_name), or any file under a
    `tests/` or `test/` folder."""
    parts = relative.split("/")
    if any(part in _PY_TEST_FOLDERS for part in parts[:-1]):
        return True
    return is_python_test_name(parts[-1])

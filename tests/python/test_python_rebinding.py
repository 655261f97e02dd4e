"""A name or attribute assigned more than once proves no value its first assignment gives.

Each program below calls, at run time, a function its first assignment does not
name (CPython 3.11): a direct edge to the first one would be wrong.
"""

from __future__ import annotations

from pathlib import Path

from tests.python.test_python_binding import _calls
from tests.python.test_python_binding import _graph


def test_a_local_assigned_again_holds_neither_value_for_sure(tmp_path: Path) -> None:
    graph = _graph(
        tmp_path,
        {
            "m.py": "def a(): pass\ndef b(): pass\n"
            "def run(flag):\n    x = a\n    if flag:\n        x = b\n    x()\n"
            "def outer():\n    y = a\n    def inner():\n        nonlocal y\n        y = b\n"
            "    inner()\n    y()\n"
            "def same():\n    z = a\n    z = a\n    z()\n"
        },
    )
    assert _calls(graph, "m.py#run") == set()
    assert _calls(graph, "m.py#outer") == {("m.py#outer.inner", "direct")}
    # Every assignment stores the same function: that one is proven.
    assert _calls(graph, "m.py#same") == {("m.py#a", "direct")}


def test_a_module_name_rebound_by_global_or_from_another_module_is_not_proven(
    tmp_path: Path,
) -> None:
    graph = _graph(
        tmp_path,
        {
            "g.py": "def a(): pass\ndef b(): pass\nH = a\nK = a\nJ = a\n"
            "def swap():\n    global H\n    H = b\n"
            "def run():\n    H()\n    K()\n    J()\n",
            "patch.py": "import g\ndef c(): pass\ndef patch():\n    g.K = c\n",
        },
    )
    assert _calls(graph, "g.py#run") == {("g.py#a", "direct")}  # J only
    assert graph.statistics["unresolvedCalls"] == 2


def test_a_class_field_an_instance_write_replaces_is_not_proven(tmp_path: Path) -> None:
    graph = _graph(
        tmp_path,
        {
            "m.py": "def a(): pass\ndef b(): pass\n"
            "class C:\n    handler = a\n    kept = a\n"
            "    def use(self):\n        self.handler()\n        self.kept()\n"
            "    def change(self):\n        self.handler = b\n"
        },
    )
    assert _calls(graph, "m.py#C.use") == {("m.py#a", "direct")}  # kept only


def test_an_imported_name_another_module_assigns_is_not_proven(tmp_path: Path) -> None:
    # click's CliRunner replaces `utils.should_strip_ansi`, a name utils imports.
    graph = _graph(
        tmp_path,
        {
            "a.py": "def f(): pass\n",
            "b.py": "from a import f\ndef use():\n    f()\n",
            "c.py": "import b\ndef g(): pass\ndef patch():\n    b.f = g\n",
            "d.py": "from a import f\ndef use():\n    f()\n",
        },
    )
    assert _calls(graph, "b.py#use") == set()
    assert _calls(graph, "d.py#use") == {("a.py#f", "direct")}


def test_an_overloaded_function_declares_no_one_return_type(tmp_path: Path) -> None:
    graph = _graph(
        tmp_path,
        {
            "m.py": "from typing import overload\n"
            "class C:\n    def __call__(self): pass\n"
            "@overload\ndef make(x: int) -> C: ...\n"
            "@overload\ndef make(x: str) -> int: ...\n"
            "def make(x):\n    return C() if isinstance(x, int) else 1\n"
            "def use():\n    make('a')()\n"
        },
    )
    assert ("m.py#C.__call__", "direct") not in _calls(graph, "m.py#use")


def test_a_module_function_another_module_replaces_is_not_proven(tmp_path: Path) -> None:
    graph = _graph(
        tmp_path,
        {
            "a.py": "def f(): pass\ndef g(): pass\ndef use():\n    f()\n    g()\n",
            "patch.py": "import a\ndef h(): pass\ndef patch():\n    a.f = h\n",
        },
    )
    assert _calls(graph, "a.py#use") == {("a.py#g", "direct")}


def test_a_field_written_from_itself_ends_at_the_chain_bound(tmp_path: Path) -> None:
    # `o.x = A.x` rebinds the field with its own value: following it goes round the same
    # field; the chain bound cuts it (it crashed with a RecursionError: mealie's models).
    graph = _graph(
        tmp_path,
        {
            "app.py": "def make():\n    return 1\n\n\nclass A:\n    x = make()\n\n\n"
            "def f(o):\n    o.x = A.x\n    A.x.bit_length()\n"
        },
    )
    assert _calls(graph, "app.py#f") == set()

"""Calls by item on a module-level dict literal the whole program never changes or hands out:
bound edges to the functions it holds (under that key when the key is a string literal)."""

from __future__ import annotations

from pathlib import Path

from tests.python.test_python_binding import _calls
from tests.python.test_python_binding import _graph

TABLE = "def a(): pass\ndef b(): pass\nT = {'a': a, 'b': b}\n"


def test_an_unchanged_literal_gives_every_function_or_the_one_under_the_key(
    tmp_path: Path,
) -> None:
    graph = _graph(
        tmp_path,
        {
            "t.py": TABLE + "def run(k):\n    T[k]()\n    T.get(k)\n"
            "def one():\n    T['b']()\n"
            "def missing():\n    T['c']()\n",
            "use.py": "from t import T as table\ndef far(k):\n    table[k]()\n",
        },
    )
    assert _calls(graph, "t.py#run") == {("t.py#a", "bound"), ("t.py#b", "bound")}
    assert _calls(graph, "t.py#one") == {("t.py#b", "bound")}
    assert _calls(graph, "t.py#missing") == set()
    assert _calls(graph, "use.py#far") == {("t.py#a", "bound"), ("t.py#b", "bound")}
    # Still unresolved calls of their owner in the direct mode (T.get is dict's: dynamic).
    assert graph.nodes["t.py#run"].unresolved == {"direct": 2, "bound": 1, "candidates": 1}


def test_a_table_filled_by_a_decorator_holds_what_it_decorates(tmp_path: Path) -> None:
    graph = _graph(
        tmp_path,
        {
            "reg.py": "H = {}\ndef register(f):\n    H[f.__name__] = f\n    return f\n"
            "def wrap(f):\n    def inner(*args):\n        return f(*args)\n    return inner\n",
            "app.py": "import reg\nfrom reg import register, wrap\n"
            "@register\ndef add(): pass\n"
            "@register\n@wrap\ndef count(): pass\n"
            "def run(name):\n    reg.H[name]()\n",
        },
    )
    assert _calls(graph, "app.py#run") == {("app.py#add", "bound"), ("reg.py#wrap.inner", "bound")}


def test_a_table_changed_or_handed_out_gives_no_edge(tmp_path: Path) -> None:
    changes = {
        "passed": "keep(T)\n",
        "aliased": "U = T\n",
        "updated": "T.update({})\n",
        "merged": "T |= {}\n",
        "rebound": "def swap():\n    global T\n    T = {}\n",
        "stores a lambda": "T['c'] = lambda: 1\n",
        "stored from outside": "",
    }
    for name, change in changes.items():
        root = tmp_path / name.replace(" ", "-")
        files = {
            "t.py": TABLE + "def keep(x): pass\n" + change + "def run(k):\n    T[k]()\n",
            "other.py": "import t\ndef c(): pass\ndef put(x):\n    t.T['c'] = x\n"
            if name == "stored from outside"
            else "",
        }
        graph = _graph(root, files)
        assert _calls(graph, "t.py#run") == set(), name

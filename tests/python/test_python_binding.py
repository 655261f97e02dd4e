"""Python binding rules over small programs: C3, stars, decorators, outside bases."""

from __future__ import annotations

from pathlib import Path

from tsograph.producers.graph.model import Graph
from tsograph.producers.graph.python.bases import with_bases
from tsograph.producers.graph.python.binder import PythonBinder
from tsograph.producers.graph.python.edges import build_python_graph
from tsograph.producers.project.python_modules import PythonModules


def _graph(tmp_path: Path, files: dict[str, str]) -> Graph:
    for relative, text in files.items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text)
    sources = sorted(path for path in files if path.endswith(".py"))
    facts = {path: with_bases(path, files[path].encode()) for path in sources}
    return build_python_graph(PythonBinder(facts, PythonModules.load(tmp_path, sources)))


def _edges(graph: Graph, source: str) -> set[tuple[str, str]]:
    return {(edge.target, edge.evidence) for edge in graph.edges if edge.source == source}


def test_an_order_c3_cannot_build_is_ambiguous(tmp_path: Path) -> None:
    # CPython refuses `class C(A, B)` with B(A): "Cannot create a consistent MRO".
    graph = _graph(
        tmp_path,
        {
            "m.py": "class A:\n    def f(self): pass\n"
            "class B(A): pass\n"
            "class C(A, B): pass\n"
            "def use():\n    C().f()\n"
        },
    )
    assert _edges(graph, "m.py#use") == set()
    assert "ambiguous: 2" in next(line for line in graph.limitations if "unresolved" in line)


def test_c3_prefers_the_second_base_over_the_shared_one(tmp_path: Path) -> None:
    graph = _graph(
        tmp_path,
        {
            "m.py": "class A:\n    def f(self): pass\n"
            "class B(A): pass\n"
            "class C(A):\n    def f(self): pass\n"
            "class D(B, C): pass\n"
            "def use():\n    D().f()\n"
        },
    )
    assert _edges(graph, "m.py#use") == {("m.py#C.f", "direct"), ("m.py#D", "direct")}


def test_bases_made_by_calls_or_subscripts_are_dynamic_bases(tmp_path: Path) -> None:
    graph = _graph(
        tmp_path,
        {
            "m.py": "from typing import Generic, TypeVar\nT = TypeVar('T')\n"
            "class A(Generic[T]):\n    def f(self): pass\n"
            "class B(A[int]): pass\n"
            "def mix(c): return c\n"
            "class C(mix(A)): pass\n"
            "def use(a: A, b: B, c: C):\n    a.f()\n    b.f()\n    c.f()\n"
        },
    )
    assert _edges(graph, "m.py#use") == {("m.py#A.f", "direct")}
    assert "dynamic-base: 2" in next(line for line in graph.limitations if "unresolved" in line)


def test_an_outside_base_before_the_member_keeps_the_call_external(tmp_path: Path) -> None:
    graph = _graph(
        tmp_path,
        {
            "requirements.txt": "pydantic\n",
            "m.py": "from pydantic import BaseModel\n"
            "class Mixin:\n    def json(self): pass\n"
            "class User(BaseModel, Mixin): pass\n"
            "def use():\n    User().json()\n",
        },
    )
    assert _edges(graph, "m.py#use") == set()
    assert graph.statistics["externalCalls"] == 2  # User() and .json(): BaseModel comes first


def test_two_stars_bringing_a_name_differently_are_ambiguous(tmp_path: Path) -> None:
    graph = _graph(
        tmp_path,
        {
            "a.py": "def f(): pass\n",
            "b.py": "def f(): pass\n",
            "c.py": "__all__ = []\ndef f(): pass\n",
            "hub.py": "from a import *\nfrom b import *\nfrom c import *\n",
            "one.py": "from a import *\nfrom c import *\n",
            "use.py": "import hub, one\ndef run():\n    hub.f()\n    one.f()\n",
        },
    )
    # c's __all__ lists nothing, so only a's f reaches `one`; hub gets a's and b's.
    assert _edges(graph, "use.py#run") == {("a.py#f", "direct")}


def test_decorators_hand_back_wrap_or_hide_the_function(tmp_path: Path) -> None:
    graph = _graph(
        tmp_path,
        {
            "m.py": "import functools\nimport click\n"
            "def keep(fn):\n    return fn\n"
            "def wrap(fn):\n    def inner(*a):\n        return fn(*a)\n    return inner\n"
            "@keep\n@functools.lru_cache(maxsize=2)\ndef kept(): pass\n"
            "@keep\n@wrap\ndef wrapped(): pass\n"
            "@click.command()\ndef hidden(): pass\n"
            "def use():\n    kept()\n    wrapped()\n    hidden()\n",
            "requirements.txt": "click\n",
        },
    )
    assert _edges(graph, "m.py#use") == {("m.py#kept", "direct"), ("m.py#wrap.inner", "direct")}
    assert _edges(graph, "m.py#wrap.inner") == {("m.py#wrapped", "bound")}
    # The decorators run where the functions are defined.
    assert ("m.py#keep", "direct") in _edges(graph, "m.py#<module>")

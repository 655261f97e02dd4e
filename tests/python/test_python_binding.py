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


def _calls(graph: Graph, source: str) -> set[tuple[str, str]]:
    return {
        (edge.target, edge.evidence)
        for edge in graph.edges
        if edge.source == source and "call" in edge.kinds
    }


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


def test_properties_run_their_getter_on_read_and_setter_on_write(tmp_path: Path) -> None:
    graph = _graph(
        tmp_path,
        {
            "m.py": "def replace(function):\n    return 1\n"
            "class A:\n"
            "    @property\n    def size(self) -> int:\n        return 1\n"
            "    @size.setter\n    def size(self, value: int) -> None:\n        pass\n"
            "    def plain(self): pass\n"
            "    @replace\n    @property\n    def hidden(self) -> int:\n        return 1\n"
            "def read(a: A):\n    return a.size + a.hidden\n"
            "def write():\n    a = A()\n    a.size = 2\n"
            "def method(a: A):\n    f = a.plain\n    return f\n"
        },
    )
    assert _edges(graph, "m.py#read") == {("m.py#A.size", "direct")}
    assert ("m.py#A.size", "direct") in _edges(graph, "m.py#write")
    # Reading a method is no call of it (only a use as a value).
    assert all(evidence == "direct" for _, evidence in _edges(graph, "m.py#method"))
    assert not [e for e in graph.edges if e.source == "m.py#method" and "call" in e.kinds]
    # `@size.setter` is the builtin property's method: external, not an unresolved call.
    assert not any("unresolved" in line for line in graph.limitations)


def test_calling_a_class_runs_its_new_and_init(tmp_path: Path) -> None:
    graph = _graph(
        tmp_path,
        {
            "m.py": "class A:\n"
            "    def __new__(cls, *args):\n        return super().__new__(cls)\n"
            "    def __init__(self, x): pass\n"
            "class B(A): pass\n"
            "def use():\n    B(1)\n"
        },
    )
    assert _edges(graph, "m.py#use") == {
        ("m.py#A.__new__", "direct"),
        ("m.py#A.__init__", "direct"),
    }
    # object.__new__ is past the project: external, not unresolved.
    assert not any("unresolved" in line for line in graph.limitations)


def test_functools_partial_calls_the_function_it_holds(tmp_path: Path) -> None:
    graph = _graph(
        tmp_path,
        {
            "m.py": "import functools\nfrom functools import partial\n"
            "def f(a, b): pass\n"
            "class A:\n    def m(self): pass\n"
            "g = functools.partial(f, b=1)\n"
            "def use(a: A):\n    g(1)\n    h = partial(f, 2)\n    h(3)\n"
            "    k = partial(a.m)\n    k()\n"
        },
    )
    # Through an instance a subclass may answer: no direct edge is drawn through partial.
    calls = {
        (e.target, e.evidence) for e in graph.edges if e.source == "m.py#use" and "call" in e.kinds
    }
    assert calls == {("m.py#f", "direct")}


def test_isinstance_narrows_a_name_the_body_does_not_rebind(tmp_path: Path) -> None:
    graph = _graph(
        tmp_path,
        {
            "m.py": "class A:\n    def f(self): pass\n"
            "class B:\n    def f(self): pass\n"
            "def narrowed(x):\n    if isinstance(x, A):\n        x.f()\n"
            "def rebound(x):\n    if isinstance(x, A):\n        x = B()\n        x.f()\n"
            "def outside(x):\n    if isinstance(x, A):\n        pass\n    x.f()\n"
        },
    )
    assert _calls(graph, "m.py#narrowed") == {("m.py#A.f", "direct")}
    assert ("m.py#A.f", "direct") not in _calls(graph, "m.py#rebound")
    assert _calls(graph, "m.py#outside") == set()


def test_protocol_members_are_no_targets_and_structural_matches_are_candidates(
    tmp_path: Path,
) -> None:
    graph = _graph(
        tmp_path,
        {
            "m.py": "from typing import Protocol\n"
            "class P(Protocol):\n    def run(self) -> None: ...\n"
            "class Explicit(P):\n    def run(self) -> None: pass\n"
            "class Inherits(P):\n    pass\n"
            "class Shaped:\n    def run(self) -> None: pass\n"
            "class Unrelated:\n    def other(self) -> None: pass\n"
            "def use(p: P):\n    p.run()\n"
        },
    )
    assert _edges(graph, "m.py#use") == {
        ("m.py#Explicit.run", "bound"),
        ("m.py#P.run", "bound"),  # Inherits finds the Protocol's own body
        ("m.py#Shaped.run", "candidate"),
    }
    assert any(line.startswith("candidate-dispatch: 1 ") for line in graph.limitations)


def test_abstract_members_never_answer_and_implementations_are_bound(tmp_path: Path) -> None:
    graph = _graph(
        tmp_path,
        {
            "m.py": "import abc\n"
            "class Base(abc.ABC):\n    @abc.abstractmethod\n    def run(self): ...\n"
            "class One(Base):\n    def run(self): pass\n"
            "class Two(Base):\n    def run(self): pass\n"
            "def use(b: Base):\n    b.run()\n"
        },
    )
    assert _edges(graph, "m.py#use") == {("m.py#One.run", "bound"), ("m.py#Two.run", "bound")}


def test_a_function_chosen_by_or_is_a_value_use(tmp_path: Path) -> None:
    graph = _graph(
        tmp_path,
        {
            "m.py": "def a(): pass\ndef b(): pass\n"
            "def use(flag):\n    key = a if flag else b\n    return sorted([], key=key or a)\n"
        },
    )
    assert _edges(graph, "m.py#use") == {("m.py#a", "direct"), ("m.py#b", "direct")}


def test_a_function_level_import_binds_no_name_of_the_module(tmp_path: Path) -> None:
    graph = _graph(
        tmp_path,
        {
            "a.py": "def helper(): pass\n",
            "b.py": "def run():\n    from a import helper\n    helper()\n",
            "c.py": "from b import helper\ndef use():\n    helper()\n",
        },
    )
    assert _calls(graph, "b.py#run") == {("a.py#helper", "direct")}
    # `helper` is run's local, not a name of b: importing it from b is a miss.
    assert _calls(graph, "c.py#use") == set()
    assert "miss: 1" in next(line for line in graph.limitations if "unresolved" in line)


def test_with_binds_what_enter_returns(tmp_path: Path) -> None:
    graph = _graph(
        tmp_path,
        {
            "m.py": "class Conn:\n    def run(self): pass\n"
            "class Pool:\n    def __enter__(self) -> Conn:\n        return Conn()\n"
            "    def __exit__(self, *a): pass\n    def run(self): pass\n"
            "class Same:\n    def __enter__(self):\n        return self\n"
            "    def __exit__(self, *a): pass\n    def run(self): pass\n"
            "class Unknown:\n    def __enter__(self):\n        return 1\n"
            "    def __exit__(self, *a): pass\n    def run(self): pass\n"
            "def use():\n"
            "    with Pool() as c:\n        c.run()\n"
            "    with Same() as s:\n        s.run()\n"
            "    with Unknown() as u:\n        u.run()\n"
        },
    )
    calls = {target for target, evidence in _calls(graph, "m.py#use") if evidence == "direct"}
    assert {"m.py#Conn.run", "m.py#Same.run"} <= calls
    assert "m.py#Pool.run" not in calls
    assert "m.py#Unknown.run" not in calls


def test_a_method_decorated_by_its_own_name_ends(tmp_path: Path) -> None:
    # In the class body the scopes bind `root` to the method, so its decorator names it
    # (pydantic's tests write `@root_validator(pre=True) def root_validator`): no end to follow.
    graph = _graph(
        tmp_path,
        {
            "m.py": "def root(flag):\n    def apply(fn):\n        return fn\n    return apply\n"
            "class M:\n    @root(True)\n    def root(self): pass\n"
            "    def use(self):\n        self.root()\n"
        },
    )
    assert _calls(graph, "m.py#M.use") == set()


def test_a_star_of_a_module_that_does_not_bind_the_name_brings_nothing(tmp_path: Path) -> None:
    graph = _graph(
        tmp_path,
        {
            "pkg/__init__.py": "from pkg.a import *\nfrom pkg.b import *\n",
            "pkg/a.py": "def make(): pass\n",
            "pkg/b.py": "import os\ndef other(): pass\n",
            "use.py": "from pkg import make\ndef run():\n    make()\n",
        },
    )
    assert _calls(graph, "use.py#run") == {("pkg/a.py#make", "direct")}


def test_calling_an_annotated_object_dispatches_its_call_to_overrides(tmp_path: Path) -> None:
    # pydantic: a GetCoreSchemaHandler parameter holds a subclass whose __call__ runs.
    graph = _graph(
        tmp_path,
        {
            "m.py": "class Handler:\n    def __call__(self, x):\n        raise ValueError\n"
            "class Callback(Handler):\n    def __call__(self, x):\n        return x\n"
            "def use(handler: Handler):\n    handler(1)\n"
            "def exact():\n    Callback()(1)\n"
        },
    )
    assert _calls(graph, "m.py#use") == {
        ("m.py#Handler.__call__", "bound"),
        ("m.py#Callback.__call__", "bound"),
    }
    assert ("m.py#Callback.__call__", "direct") in _calls(graph, "m.py#exact")

"""Which class syntax declares what `this.name` holds, read once for every evaluator."""

from __future__ import annotations

from tsograph.producers.lang.syntax_read import find_all
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.lang.typescript import read_syntax
from tsograph.producers.values import class_members

SOURCE = b"""
class Repo {
  db: Db = makeDb();
  static shared = 1;
  ["computed"] = 2;
  get constructor() { return 1; }
  constructor(private readonly pool: Pool, plain: number, public other = 1) {
    const inner = () => this.db;
  }
}
"""


def _class() -> Node:
    root = read_syntax("src/repo.ts", SOURCE).root
    return next(iter(find_all(root, ("class",))))


def test_fields_are_found_by_their_static_name_only() -> None:
    members = _class().items
    assert [m for m in members if class_members.is_field_named(m, "db")] == [members[0]]
    assert not any(class_members.is_field_named(m, "computed") for m in members)


def test_the_constructor_is_the_method_not_a_getter_of_that_name() -> None:
    constructors = [m for m in _class().items if class_members.is_constructor(m)]
    assert len(constructors) == 1 and constructors[0].part("parameters") is not None


def test_parameter_properties_need_a_modifier() -> None:
    constructor = next(m for m in _class().items if class_members.is_constructor(m))
    assert len(list(class_members.parameter_properties(constructor, "pool"))) == 1
    assert len(list(class_members.parameter_properties(constructor, "other"))) == 1
    assert list(class_members.parameter_properties(constructor, "plain")) == []


def test_the_class_of_this_is_found_through_arrow_functions_only() -> None:
    cls = _class()
    this = next(iter(find_all(cls, ("this",))))
    assert class_members.this_class(this) is cls
    root = read_syntax("src/a.ts", b"class A { m() { return function () { this.db; }; } }").root
    rebound = next(iter(find_all(root, ("this",))))
    assert class_members.this_class(rebound) is None
    assert list(class_members.this_declarations(rebound, "db")) == []


def test_this_declarations_come_in_class_order_with_the_constructor_last() -> None:
    cls = _class()
    this = next(iter(find_all(cls, ("this",))))
    constructor = next(m for m in cls.items if class_members.is_constructor(m))
    pool = next(iter(class_members.parameter_properties(constructor, "pool")))
    assert list(class_members.this_declarations(this, "db")) == [
        ("field", cls.items[0]),
        ("constructor", constructor),
    ]
    assert list(class_members.this_declarations(this, "pool")) == [
        ("parameter", pool),
        ("constructor", constructor),
    ]
    # Outside a class nothing declares it.
    root = read_syntax("src/free.ts", b"const f = () => this.db;\n").root
    free_this = next(iter(find_all(root, ("this",))))
    assert list(class_members.this_declarations(free_this, "db")) == []


THIS_VALUES = b"""
class A {
  kept = one;
  written = two;
  assigned: T;
  nested: T;
  static kept = three;
  constructor() {
    this.assigned = four;
    if (x) { this.nested = five; }
  }
  m() { this.written = six; return [this.kept, this.written, this.assigned, this.nested]; }
  static s() { return this.kept; }
}
"""


def test_this_value_is_an_unwritten_initializer_or_the_one_constructor_write() -> None:
    root = read_syntax("src/a.ts", THIS_VALUES).root
    uses = [
        node
        for node in find_all(root, ("member",))
        if (obj := node.part("object")) is not None
        and obj.kind == "this"
        and node.parent is not None
        and node.parent.kind in ("array", "return")
    ]
    found = {}
    writes = class_members.ThisWrites()
    for use in uses:
        prop = use.part("property")
        name = prop.value or "" if prop is not None else ""
        value = class_members.this_value(use, name, writes)
        static = class_members.this_class(use) is not None and use.parent.kind == "return"
        found[(prop.value if prop else "", static)] = None if value is None else value.value
    assert found == {
        ("kept", False): "one",
        ("written", False): None,
        ("assigned", False): "four",
        ("nested", False): None,
        ("kept", True): None,
    }

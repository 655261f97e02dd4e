"""Jest and Vitest mock setup: syntax that names a query method without running a query.

`prismaMock.user.findUnique.mockResolvedValue(row)` programs a mock; it never
reaches a database, whatever the receiver is. The names below were read from
the packages' type declarations (npm, checked 2026-12):

- MOCK_MEMBERS: the methods and fields of a mock function. jest-mock@30.5.2
  `MockInstance` (build/index.d.ts), @vitest/spy@4.1.12 `MockInstance`
  (dist/index.d.ts; `mockThrow`/`mockThrowOnce` are vitest-only), and
  `calledWith` of jest-mock-extended@4.0.1 / vitest-mock-extended@5.1.1
  `CalledWithMock`.
- MOCK_CALLS: calls whose argument is a spy target or a mocked value:
  `jest.spyOn`/`vi.spyOn`, `jest.mocked`/`vi.mocked` (jest-mock@30.5.2
  `ModuleMocker`, vitest@4.1.12 `VitestUtils`), `mockReset`/`mockClear`/`mocked`
  of jest-mock-extended and vitest-mock-extended, and `expect` (an assertion
  about a method, e.g. `expect(db.user.create).toHaveBeenCalled()`).
- MODULE_MOCKS: calls that replace a module for the file that makes them
  (@jest/environment@30.5.2 `Jest.mock`/`doMock`/`unstable_mockModule`,
  vitest@4.1.12 `vi.mock`/`vi.doMock`): every binding that file imports from
  the module is a mock.
- MOCK_TYPES: the types of mocked values (jest-mock `Mocked*`, @vitest/spy
  `Mocked*`/`MaybeMocked*`, the `*MockProxy` types of both *-mock-extended
  packages). A value annotated or cast to one of them is a mock, even when it
  was a client before the cast (`prisma as unknown as DeepMockProxy<PrismaClient>`).
"""

from __future__ import annotations

import re

from tree_sitter import Node

from tsograph.producers.lang.typescript.syntax import WRAPPERS
from tsograph.producers.schema import syntax

MOCK_MEMBERS = frozenset(
    {
        "mock",
        "mockClear",
        "mockReset",
        "mockRestore",
        "mockName",
        "mockImplementation",
        "mockImplementationOnce",
        "mockReturnThis",
        "mockReturnValue",
        "mockReturnValueOnce",
        "mockResolvedValue",
        "mockResolvedValueOnce",
        "mockRejectedValue",
        "mockRejectedValueOnce",
        "mockThrow",
        "mockThrowOnce",
        "withImplementation",
        "getMockImplementation",
        "getMockName",
        "calledWith",
    }
)
MOCK_CALLS = frozenset(
    {
        "jest.spyOn",
        "vi.spyOn",
        "jest.mocked",
        "vi.mocked",
        "mocked",
        "mockReset",
        "mockClear",
        "expect",
    }
)
MODULE_MOCKS = frozenset(
    {"jest.mock", "jest.doMock", "jest.unstable_mockModule", "vi.mock", "vi.doMock"}
)
MOCK_TYPES = frozenset(
    {
        "Mocked",
        "MockedObject",
        "MockedObjectDeep",
        "MockedClass",
        "MockedFunction",
        "MockedFunctionDeep",
        "MockedShallow",
        "MaybeMocked",
        "MaybeMockedDeep",
        "MockProxy",
        "DeepMockProxy",
        "DeepMockProxyWithFuncPropSupport",
        "CalledWithMock",
    }
)
_TYPE_NAME = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*")


def names_mock_type(type_text: str) -> bool:
    """True when a type mentions a mock type (`jest.Mocked<T>`, `DeepMockProxy<T>`, …)."""
    return any(
        match.group(0).rpartition(".")[2] in MOCK_TYPES for match in _TYPE_NAME.finditer(type_text)
    )


def is_mock_cast(node: Node) -> bool:
    """`x as DeepMockProxy<PrismaClient>` (through any parentheses and further casts)."""
    while node.type in WRAPPERS:
        children = [child for child in node.named_children if child.type != "comment"]
        if not children:
            return False
        written: Node | None = None
        if node.type == "type_assertion":  # <T>x
            written, inner = children[0], children[-1]
        elif node.type in ("as_expression", "satisfies_expression"):
            inner, written = children[0], children[-1]
        else:
            inner = children[0]
        if written is not None and written != inner and names_mock_type(syntax.text(written)):
            return True
        node = inner
    return False


def _callee(call: Node) -> str | None:
    function = call.child_by_field_name("function")
    return None if function is None else syntax.text(function)


def in_mock_setup(member: Node) -> bool:
    """True when a member chain (`db.user`, `db.user.findMany`) is mock setup, not a query:
    it continues through a mock member (`db.user.findMany.mockResolvedValue(…)`) or is
    itself the argument of a mock call (`jest.spyOn(db.user, "findMany")`,
    `expect(db.user.create).toHaveBeenCalled()`)."""
    current = member
    while True:
        parent = current.parent
        if parent is None:
            return False
        if parent.type in WRAPPERS:
            current = parent
            continue
        if parent.type == "member_expression" and parent.child_by_field_name("object") == current:
            prop = parent.child_by_field_name("property")
            if prop is not None and syntax.text(prop) in MOCK_MEMBERS:
                return True
            current = parent
            continue
        if (
            parent.type == "subscript_expression"
            and parent.child_by_field_name("object") == current
        ):
            current = parent
            continue
        if parent.type == "arguments":
            call = parent.parent
            return (
                call is not None and call.type == "call_expression" and _callee(call) in MOCK_CALLS
            )
        return False


def mocked_modules(root: Node) -> set[str]:
    """Specifiers a file replaces with `jest.mock("…")` / `vi.mock("…")` at module level."""
    found: set[str] = set()
    for statement in root.named_children:
        if statement.type != "expression_statement" or not statement.named_children:
            continue
        call = syntax.unwrap(statement.named_children[0])
        if call.type == "await_expression" and call.named_children:
            call = syntax.unwrap(call.named_children[0])
        if call.type != "call_expression" or _callee(call) not in MODULE_MOCKS:
            continue
        arguments = call.child_by_field_name("arguments")
        first = arguments.named_children[0] if arguments and arguments.named_children else None
        specifier = None if first is None else syntax.string_value(first)
        if specifier is not None:
            found.add(specifier)
    return found

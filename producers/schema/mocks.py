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

from tsograph.producers.lang.syntax_read import chain
from tsograph.producers.lang.syntax_read import string_value
from tsograph.producers.lang.syntax_read import unwrap_value
from tsograph.producers.lang.syntax_tree import Node

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


def names_mock_type(written: Node) -> bool:
    """True when a written type mentions a mock type (`jest.Mocked<T>`, `DeepMockProxy<T>`, …)."""
    return any(
        match.group(0).rpartition(".")[2] in MOCK_TYPES
        for node in written.walk()
        if node.kind in ("type_ref", "identifier", "name") and node.value
        for match in _TYPE_NAME.finditer(node.value)
    )


def is_mock_cast(node: Node) -> bool:
    """`x as DeepMockProxy<PrismaClient>` (through any further casts)."""
    while node.kind == "cast":
        written = node.part("type")
        if written is not None and names_mock_type(written):
            return True
        inner = node.part("value")
        if inner is None:
            return False
        node = inner
    return False


def _callee(call: Node) -> str | None:
    callee = call.part("callee")
    names = None if callee is None else chain(callee)
    return None if names is None else ".".join(names)


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
        if parent.kind == "cast":
            current = parent
            continue
        if parent.kind == "member" and parent.part("object") is current:
            prop = parent.part("property")
            if prop is not None and prop.value in MOCK_MEMBERS:
                return True
            current = parent
            continue
        if parent.kind == "index" and parent.part("object") is current:
            current = parent
            continue
        if parent.kind == "call" and parent.part("callee") is not current:
            return _callee(parent) in MOCK_CALLS
        return False


def mocked_modules(root: Node) -> set[str]:
    """Specifiers a file replaces with `jest.mock("…")` / `vi.mock("…")` at module level."""
    found: set[str] = set()
    for statement in root.items:
        expression = statement.part("value") if statement.kind == "statement" else None
        if expression is None:
            continue
        call = unwrap_value(expression)
        if call.kind != "call" or _callee(call) not in MODULE_MOCKS or not call.items:
            continue
        specifier = string_value(call.items[0])
        if specifier is not None:
            found.add(specifier)
    return found

"""Where a module's export comes from, read one way by every evaluator of the value layer.

`export_sites(root, name)` lists the places a module gets its export `name` from, in
the order ES modules give them precedence: the module's own exports first, in
source order (`export const`/`function`/`class`/`enum`, `export default …`,
`export { local as name }`, `export { other as name } from "m"`, `export * as name
from "m"`, and CommonJS
`module.exports = …` / `exports.name = …`), then its `export * from "m"` modules, in
order, which never re-export `default` and which a module's own export of the same
name shadows (ECMAScript's ResolveExport). An ES export of the module's own is the
export (`DECIDING`: a value the evaluator cannot prove there is not looked for
further); a CommonJS assignment and a star are tried in turn until one proves a value
(`module.exports = {}` followed by `module.exports.db = …`). What a site's value is
stays the evaluator's own question.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.values import modules
from tsograph.producers.values.scopes import Declaration
from tsograph.producers.values.scopes import statement_declarations

SiteKind = Literal["declared", "default", "local", "reexport", "module-exports", "member", "star"]
# The sites that are the export when present: the module's own ES exports.
DECIDING = frozenset({"declared", "default", "local", "reexport"})


@dataclass(frozen=True, slots=True)
class ExportSite:
    """One place an export comes from.

    declared        `declaration` says what declares it (`node` is its declarator,
                    function, class or enum)
    default         `node` is the default's declaration or expression
    local           `node` is the local name of `export { local as name }`
    reexport        `name` of module `specifier` (`export { name as x } from "m"`);
                    `name` "*" is the module's namespace (`export * as x from "m"`)
    module-exports  `node` is the value of `module.exports = …` (the whole module)
    member          `node` is the value of `exports.name = …`
    star            module `specifier` of `export * from "m"`
    """

    kind: SiteKind
    node: Node
    name: str = ""
    specifier: str = ""
    declaration: Declaration | None = None


def export_sites(root: Node, name: str) -> list[ExportSite]:
    """The sites of export `name` of module `root`, in that order (one pass; an evaluator
    that asks a module for many names keeps an `ExportIndex`)."""
    return ExportIndex().sites(root, name)


class ExportIndex:
    """Each module's export sites by name, read in one pass per module asked about."""

    __slots__ = ("_modules",)

    def __init__(self) -> None:
        # root -> (sites by exported name, `module.exports = …` sites, `export *` sites)
        self._modules: dict[
            Node, tuple[dict[str, list[ExportSite]], list[ExportSite], list[ExportSite]]
        ] = {}

    def sites(self, root: Node, name: str) -> list[ExportSite]:
        named, whole, stars = self._index(root)
        own = named.get(name, [])
        if whole:
            own = sorted([*own, *whole], key=lambda site: site.node.start)
        return own if name == "default" else [*own, *stars]

    def _index(
        self, root: Node
    ) -> tuple[dict[str, list[ExportSite]], list[ExportSite], list[ExportSite]]:
        found = self._modules.get(root)
        if found is None:
            named: dict[str, list[ExportSite]] = {}
            whole: list[ExportSite] = []
            stars: list[ExportSite] = []
            for statement in root.items:
                if statement.kind == "statement":
                    for name, site in _commonjs(statement):
                        (whole if name is None else named.setdefault(name, [])).append(site)
                elif statement.kind == "export":
                    for name, site in _own(statement):
                        named.setdefault(name, []).append(site)
                    if _is_star(statement):
                        stars.append(ExportSite("star", statement, specifier=statement.value or ""))
            found = (named, whole, stars)
            self._modules[root] = found
        return found


def _own(statement: Node) -> Iterator[tuple[str, ExportSite]]:
    declaration = statement.part("declaration")
    if "default" in statement.flags:
        value = declaration or statement.part("value")
        if value is not None:
            yield "default", ExportSite("default", value)
        return
    if declaration is not None:
        for found in statement_declarations(declaration):
            if found.name.value is not None:
                yield found.name.value, ExportSite("declared", found.node, declaration=found)
        return
    namespace = statement.part("namespace")
    if namespace is not None and namespace.value is not None and statement.value is not None:
        # `export * as ns from "m"`: the namespace object of m, as `import * as ns` gives
        # it (openstatus @openstatus/db: `export * as schema from "./schema"`).
        yield namespace.value, ExportSite("reexport", namespace, "*", statement.value)
        return
    for entry in statement.items:
        local = entry.part("name")
        alias = entry.part("alias") or local
        if local is None or alias is None or alias.value is None:
            continue
        if statement.value is not None:
            site = ExportSite("reexport", entry, local.value or "", statement.value)
        else:
            site = ExportSite("local", local, local.value or "")
        yield alias.value, site


def _commonjs(statement: Node) -> Iterator[tuple[str | None, ExportSite]]:
    """`module.exports = …` (a site of every name: None) and `exports.name = …`."""
    assignment = statement.part("value")
    if assignment is None or assignment.kind != "assign" or assignment.value != "=":
        return
    left = assignment.part("left")
    right = assignment.part("right")
    if left is None or right is None:
        return
    if modules.is_module_exports(left):
        yield None, ExportSite("module-exports", right)
        return
    member = modules.exports_member(left)
    if member is not None:
        yield member, ExportSite("member", right)


def _is_star(statement: Node) -> bool:
    """`export * from "x"` (not `export * as ns from "x"`, which exports one name)."""
    return (
        "star" in statement.flags
        and statement.part("namespace") is None
        and statement.value is not None
    )

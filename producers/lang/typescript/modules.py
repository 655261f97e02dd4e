"""ES import and export statements.

Export nodes (an export that is not itself a declaration) are decided when
the file is finished, because `export { a as b }` needs to know what `a` is.
`export default <expression>` always gives `#default` a node: for a name or
a name chain (`export default app`, `export default api.handler`) it is an
export node whose alias goes to what the name resolves to; for any other
expression it is the default declaration that owns the expression's code.
"""

from __future__ import annotations

from tree_sitter import Node

from tsograph.exchange.symbol_ids import DEFAULT
from tsograph.producers.lang.drafts import InitDraft
from tsograph.producers.lang.drafts import RefDraft
from tsograph.producers.lang.facts import Export
from tsograph.producers.lang.facts import Import
from tsograph.producers.lang.facts import ImportKind
from tsograph.producers.lang.typescript import syntax
from tsograph.producers.lang.typescript.drafts import ExportDraft
from tsograph.producers.lang.typescript.drafts import declared_export
from tsograph.producers.lang.typescript.extractor import Extractor
from tsograph.producers.lang.typescript.patterns import pattern_names

_TYPE_DECLARATIONS = frozenset(
    {"interface_declaration", "type_alias_declaration", "enum_declaration"}
)
_CLASSES = syntax.CLASS_DECLARATIONS | syntax.CLASSES
_NAMED_DECLARATIONS = syntax.FUNCTION_DECLARATIONS | syntax.CLASS_DECLARATIONS


def _source(ex: Extractor, node: Node) -> str | None:
    source = node.child_by_field_name("source")
    return None if source is None else syntax.string_value(ex.data, source)


def _has_type_keyword(ex: Extractor, node: Node) -> bool:
    """`import type` / `export type`; an ERROR holding `type` is how the bundled
    grammar reads the newer `export type * from`."""
    for child in node.children:
        kind = child.type
        if kind == "type" or (kind == "ERROR" and ex.text(child).strip() == "type"):
            return True
        if kind in ("import_clause", "export_clause", "string", "namespace_export", "*"):
            return False
    return False


# ---- imports ------------------------------------------------------------------------


def on_import(ex: Extractor, node: Node) -> None:
    ex.module_syntax = True
    type_only = _has_type_keyword(ex, node)
    specifier = _source(ex, node)
    clause = None
    for child in node.named_children:
        if child.type in ("import_clause", "import_require_clause"):
            clause = child
    if clause is not None and clause.type == "import_require_clause":
        specifier = _source(ex, clause)
        local = syntax.first_named(clause)
        if specifier is not None and local is not None:
            ex.add_import(
                Import("require", specifier, "*", ex.text(local), *ex.loc(local), type_only)
            )
        return
    if specifier is None:
        return
    if clause is None:
        ex.add_import(Import("side-effect", specifier, "", "", *ex.loc(node)))
        return
    for part in clause.named_children:
        kind = part.type
        if kind == "identifier":
            ex.add_import(
                Import("default", specifier, DEFAULT, ex.text(part), *ex.loc(part), type_only)
            )
        elif kind == "namespace_import":
            local = syntax.first_named(part)
            if local is not None:
                ex.add_import(
                    Import("namespace", specifier, "*", ex.text(local), *ex.loc(local), type_only)
                )
        elif kind == "named_imports":
            for item in part.named_children:
                if item.type == "import_specifier":
                    _import_specifier(ex, item, specifier, type_only)


def _import_specifier(ex: Extractor, item: Node, specifier: str, type_only: bool) -> None:
    name = item.child_by_field_name("name")
    alias = item.child_by_field_name("alias")
    imported = None if name is None else syntax.property_name(ex.data, name)
    local = alias if alias is not None else name
    if imported is None or local is None:
        return
    kind: ImportKind = "default" if imported == DEFAULT else "named"
    only = type_only or _has_type_keyword(ex, item)
    ex.add_import(Import(kind, specifier, imported, ex.text(local), *ex.loc(local), only))


# ---- exports ------------------------------------------------------------------------


def on_export(ex: Extractor, node: Node) -> None:
    frame = ex.frame
    if frame.path and frame.owner == ex.module:
        return  # an export inside a namespace names a namespace member, not a module export
    # Anywhere else an export is a module export: outside the top level it only
    # appears after a parse error (a missing `}`), and is kept rather than lost.
    ex.module_syntax = True
    type_only = _has_type_keyword(ex, node)
    declaration = node.child_by_field_name("declaration")
    value = node.child_by_field_name("value")
    specifier = _source(ex, node)
    keyword_default = None
    keyword_equals = None
    clause = None
    namespace = None
    star = None
    decorators: list[Node] = []
    for child in node.children:
        kind = child.type
        if kind == "default":
            keyword_default = child
        elif kind == "=":
            keyword_equals = child
        elif kind == "export_clause":
            clause = child
        elif kind == "namespace_export":
            namespace = child
        elif kind == "*":
            star = child
        elif kind == "decorator":
            decorators.append(child)
    decorated = declaration or value
    if decorators and decorated is not None:
        _decorated_class(ex, decorated, decorators, default=keyword_default is not None)
    if keyword_default is not None:
        _export_default(ex, node, keyword_default, declaration or value)
    elif keyword_equals is not None:
        expression = node.named_children[-1] if node.named_children else None
        if expression is not None:
            line, column = ex.loc(keyword_equals)
            ex.exports.append(
                ExportDraft(Export("equals", "=", line, column), ex.value_ref(expression))
            )
    elif declaration is not None:
        _export_declaration(ex, declaration)
    elif clause is not None:
        for item in clause.named_children:
            if item.type == "export_specifier":
                _export_specifier(ex, item, specifier, type_only)
    elif namespace is not None and specifier is not None:
        name_node = syntax.first_named(namespace)
        name = None if name_node is None else syntax.property_name(ex.data, name_node)
        if name_node is not None and name is not None:
            reexport(ex, *ex.loc(name_node), name, "*", specifier, type_only)
    elif star is not None and specifier is not None:
        line, column = ex.loc(star)
        ex.exports.append(
            ExportDraft(Export("star", "*", line, column, specifier=specifier, type_only=type_only))
        )


def _decorated_class(
    ex: Extractor, declaration: Node, decorators: list[Node], *, default: bool
) -> None:
    """Decorators written before `export` belong to the class, like those after it."""
    if declaration.type not in _CLASSES or not ex.frame.named:
        return
    name = declaration.child_by_field_name("name")
    if name is not None:
        path = (*ex.frame.path, ex.text(name))
    elif default:
        path = (DEFAULT,)
    else:
        return
    ex.push(decorators[-1], owner=ex.id_of(path), path=path)


def _export_default(ex: Extractor, node: Node, keyword: Node, target: Node | None) -> None:
    line, column = ex.loc(keyword)
    if target is None:
        return
    if target.type in _NAMED_DECLARATIONS and target.child_by_field_name("name") is not None:
        name_node = target.child_by_field_name("name")
        assert name_node is not None
        name = ex.text(name_node)
        ex.exports.append(
            ExportDraft(
                Export("local", DEFAULT, line, column, ex.id_of((name,))),
                RefDraft(name, ex.frame.scope),
            )
        )
        return
    value = syntax.unwrap(target)
    kind = value.type
    if syntax.name_chain(ex.data, value) is not None:
        # `export default app`: an export node, `#default`, aliasing what the name is.
        ex.exports.append(
            ExportDraft(
                Export("local", DEFAULT, line, column), ex.value_ref(value), node_unless_same=True
            )
        )
        return
    ident = ex.id_of((DEFAULT,))
    value_line, value_column = ex.loc(value)
    named_class = syntax.class_expression_name(value) is not None
    if named_class:
        # `export default (class B {})`: default holds the class default.B.
        ex.declare_default(value, InitDraft("class", RefDraft(node=value.id)))
        ex.named_values[value.id] = (ident, (DEFAULT,))
    elif kind in syntax.FUNCTIONS or kind in syntax.CLASSES or kind in _NAMED_DECLARATIONS:
        is_class = kind in syntax.CLASSES or "class" in kind
        ex.declare(
            ident,
            "class" if is_class else "function",
            DEFAULT,
            value_line,
            value_column,
            ex.module,
            has_body=kind != "function_signature",
            type=syntax.declared_type(ex.data, value.child_by_field_name("return_type")),
        )
        ex.named_values[value.id] = (ident, (DEFAULT,))
        ex.decl_of_node[value.id] = ident
    else:
        ex.declare_default(value, ex.init_of(value))
        if kind == "object":
            ex.holders[value.id] = (DEFAULT,)
        ex.push(node, owner=ident, path=(DEFAULT,))
    ex.exports.append(
        declared_export(
            Export("local", DEFAULT, line, column, ident), value.id if named_class else None
        )
    )


def _export_declaration(ex: Extractor, declaration: Node) -> None:
    kind = declaration.type
    names: list[Node] = []
    type_only = False
    if kind in _NAMED_DECLARATIONS or kind in _TYPE_DECLARATIONS:
        name = declaration.child_by_field_name("name")
        if name is not None:
            names.append(name)
        type_only = kind in ("interface_declaration", "type_alias_declaration")
    elif kind in ("lexical_declaration", "variable_declaration"):
        for declarator in declaration.named_children:
            if declarator.type != "variable_declarator":
                continue
            pattern = declarator.child_by_field_name("name")
            if pattern is not None:
                names.extend(ident for ident, _ in pattern_names(ex.data, pattern))
    seen = {draft.fact.name for draft in ex.exports if draft.fact.kind == "local"}
    for name_node in names:
        exported = ex.text(name_node)
        if exported in seen:
            continue  # overloads: one export
        seen.add(exported)
        line, column = ex.loc(name_node)
        if kind in _TYPE_DECLARATIONS:
            ex.exports.append(
                ExportDraft(Export("local", exported, line, column, type_only=type_only))
            )
            continue
        _export_local(ex, line, column, exported, exported, type_only=False)


def _export_specifier(ex: Extractor, item: Node, specifier: str | None, type_only: bool) -> None:
    name = item.child_by_field_name("name")
    alias = item.child_by_field_name("alias")
    local = None if name is None else syntax.property_name(ex.data, name)
    shown = alias if alias is not None else name
    exported = None if shown is None else syntax.property_name(ex.data, shown)
    if local is None or exported is None or shown is None:
        return
    only = type_only or _has_type_keyword(ex, item)
    if specifier is not None:
        reexport(ex, *ex.loc(shown), exported, local, specifier, only)
        return
    _export_local(ex, *ex.loc(shown), exported, local, type_only=only)


def _export_local(
    ex: Extractor, line: int, column: int, name: str, local: str, *, type_only: bool
) -> None:
    """`export { local as name }` of a name in scope; an export node of its own unless `local`
    is the declaration named `name`."""
    value = RefDraft(local, ex.frame.scope)
    ex.exports.append(
        ExportDraft(
            Export("local", name, line, column, type_only=type_only), value, node_unless_same=True
        )
    )


def reexport(
    ex: Extractor,
    line: int,
    column: int,
    name: str,
    imported: str,
    specifier: str,
    type_only: bool,
) -> None:
    """`export { imported as name } from "specifier"` (`*` imports the namespace): an
    export node of its own unless only a type is exported."""
    node = ""
    if not type_only:
        node = ex.id_of((name,))
        ex.declare(node, "export", name, line, column, ex.module, has_body=False)
    ex.exports.append(
        ExportDraft(
            Export(
                "reexport",
                name,
                line,
                column,
                node,
                specifier=specifier,
                imported=imported,
                type_only=type_only,
            )
        )
    )

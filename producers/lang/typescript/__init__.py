"""The TypeScript/JavaScript front-end: `extract(path, data)` gives a file's facts.

One tree-sitter parse, one query for the nodes facts start from, one sweep
over the captures in source order (see extractor.py), then names are
resolved against the file's scopes. The function is pure: the same path and
bytes give equal facts, whatever was extracted before. Parsers are shared
within a process and are not thread-safe: extract in parallel with
processes, not threads.
"""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

from tsograph.exchange.locations import LineIndex
from tsograph.producers.lang.facts import FileFacts
from tsograph.producers.lang.suffixes import Grammar
from tsograph.producers.lang.syntax_file import SyntaxFile
from tsograph.producers.lang.syntax_file import innermost_owner
from tsograph.producers.lang.syntax_file import paused_collection
from tsograph.producers.lang.typescript import classes
from tsograph.producers.lang.typescript import flows
from tsograph.producers.lang.typescript import functions
from tsograph.producers.lang.typescript import grammar
from tsograph.producers.lang.typescript import modules
from tsograph.producers.lang.typescript import recovery
from tsograph.producers.lang.typescript import scopes
from tsograph.producers.lang.typescript import syntax
from tsograph.producers.lang.typescript import tagged_types
from tsograph.producers.lang.typescript import uses
from tsograph.producers.lang.typescript import variables
from tsograph.producers.lang.typescript.extractor import Extractor
from tsograph.producers.lang.typescript.extractor import Handler
from tsograph.producers.lang.typescript.lowering import lower

_HANDLERS: dict[str, Handler] = {
    **dict.fromkeys(syntax.FUNCTION_DECLARATIONS, functions.on_function_declaration),
    "function_expression": functions.on_function_expression,
    "arrow_function": functions.on_function_expression,
    "generator_function": functions.on_function_expression,
    "method_definition": classes.on_method,
    "method_signature": classes.on_method,
    "abstract_method_signature": classes.on_method,
    **dict.fromkeys(syntax.CLASS_DECLARATIONS | syntax.CLASSES, classes.on_class),
    "public_field_definition": classes.on_field,
    "class_static_block": classes.on_static_block,
    "variable_declarator": variables.on_declarator,
    "statement_block": scopes.on_block,
    "switch_body": scopes.on_block,
    "for_statement": scopes.on_loop,
    "for_in_statement": scopes.on_loop,
    "catch_clause": scopes.on_catch,
    "internal_module": scopes.on_namespace,
    "ambient_declaration": scopes.on_ambient,
    "interface_declaration": scopes.on_type_declaration,
    "type_alias_declaration": scopes.on_type_declaration,
    "enum_declaration": scopes.on_type_declaration,
    "call_expression": uses.on_call,
    "new_expression": uses.on_new,
    "decorator": classes.on_decorator,
    "jsx_opening_element": uses.on_jsx,
    "jsx_self_closing_element": uses.on_jsx,
    "identifier": uses.on_value,
    "member_expression": uses.on_value,
    "shorthand_property_identifier": uses.on_shorthand,
    "import_statement": modules.on_import,
    "export_statement": modules.on_export,
    "assignment_expression": flows.on_assignment,
    "augmented_assignment_expression": flows.on_augmented_assignment,
    "return_statement": flows.on_return,
    "as_expression": uses.on_cast,
    "satisfies_expression": uses.on_cast,
    "type_assertion": uses.on_cast,
}


def extract(path: str, data: bytes) -> FileFacts:
    """The facts of one TypeScript or JavaScript file; `path` is project-relative POSIX."""
    return parse_file(path, data).facts


@dataclass(frozen=True, slots=True)
class ParsedFile:
    """A file's facts together with its syntax tree, for producers that read syntax.

    Route and schema producers look at call arguments and literals the facts do
    not keep, but must name the code they find exactly as the graph does:
    `owner_at` gives the graph node id that owns the code at a byte offset,
    from the same frames the extractor named the declarations with.
    """

    facts: FileFacts
    root: Node
    data: bytes
    spans: tuple[tuple[int, int, str], ...]  # (start, end, owner id), in source order
    starts: tuple[int, ...]
    _lines: list[LineIndex]  # built on the first `location` call; extraction alone never needs it

    def owner_at(self, offset: int) -> str:
        """The id of the innermost declaration or inline callback whose code holds `offset`.

        A function, method, class member or inline callback owns its whole node
        (name, parameters and body); code outside all of them belongs to the
        `<path>#<module>` node, as do members with computed names.
        """
        return innermost_owner(self.spans, self.starts, offset) or self.facts.declarations[0].id

    def location(self, offset: int) -> tuple[int, int]:
        """1-based line and 1-based UTF-8 byte column of a byte offset (a BOM counts)."""
        if not self._lines:
            self._lines.append(LineIndex(self.data, count_bom=True, js_breaks=True))
        return self._lines[0].position(offset)


def syntax_tree(language: Grammar, data: bytes) -> tuple[Node, bytes]:
    """The file's syntax tree and the bytes it was read from (offsets are those of `data`).

    A file that does not parse is read again with tagged-template type arguments
    blanked (see tagged_types.py); the second tree is kept when it has fewer errors.
    """
    root = grammar.parse(language, data)
    if root.has_error:
        patched = tagged_types.blank_tagged_type_arguments(data)
        if patched is not None:
            retry = grammar.parse(language, patched)
            if recovery.error_nodes(retry)[0] < recovery.error_nodes(root)[0]:
                return retry, patched
    return root, data


def parse_file(path: str, data: bytes) -> ParsedFile:
    """Parse one TypeScript or JavaScript file: facts, syntax tree and owner spans."""
    parsed, _ = _parse(path, data)
    return parsed


def read_syntax(path: str, data: bytes) -> SyntaxFile:
    """One file as producers read it: facts, the neutral syntax tree and owner spans."""
    parsed, source = _parse(path, data)
    with paused_collection():
        root = lower(parsed.root, source)
    return SyntaxFile(parsed.facts, root, data, parsed.spans)


def _parse(path: str, data: bytes) -> tuple[ParsedFile, bytes]:
    language = grammar.grammar_for(path)
    root, source = syntax_tree(language, data)
    extractor = Extractor(path, source, language)
    extractor.sweep(grammar.captures(language, root), _HANDLERS)
    errors = 0
    if root.has_error:
        errors, outermost = recovery.error_nodes(root)
        recovery.recover_type_reexports(extractor, outermost)
    spans = tuple(extractor.owner_spans)
    parsed = ParsedFile(
        extractor.facts(errors), root, data, spans, tuple(start for start, _, _ in spans), []
    )
    return parsed, source

"""Only the front-ends see syntax trees: no module outside producers/lang/ imports tree-sitter."""

from __future__ import annotations

import re

from tests.cli_helpers import REPO

_IMPORT = re.compile(r"^\s*(?:from|import)\s+tree_sitter(?:_language_pack)?\b", re.MULTILINE)


def test_tree_sitter_is_imported_only_by_the_front_ends() -> None:
    offenders = [
        path.relative_to(REPO).as_posix()
        for folder in ("producers", "exchange", "schemas")
        for path in sorted((REPO / folder).rglob("*.py"))
        if _IMPORT.search(path.read_text("utf-8"))
        and not path.relative_to(REPO).as_posix().startswith("producers/lang/")
    ]
    assert offenders == []


def test_the_front_ends_do_import_it() -> None:
    # The check above would pass on a tree where nothing parses at all.
    front_ends = REPO / "producers" / "lang"
    assert any(_IMPORT.search(path.read_text("utf-8")) for path in front_ends.rglob("*.py"))


_GRAMMAR = re.compile(r"producers\.lang\.\w+\.grammar\b|producers\.lang\.\w+ import grammar\b")


def test_no_producer_reaches_a_front_end_parser_through_its_grammar_module() -> None:
    # The grammar modules hand out the parser's own trees; importing one outside the
    # front-ends would see syntax trees without importing tree-sitter by name.
    offenders = [
        path.relative_to(REPO).as_posix()
        for folder in ("producers", "exchange", "schemas")
        for path in sorted((REPO / folder).rglob("*.py"))
        if _GRAMMAR.search(path.read_text("utf-8"))
        and not path.relative_to(REPO).as_posix().startswith("producers/lang/")
    ]
    assert offenders == []

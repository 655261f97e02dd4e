"""The shared lexical SQL relation extractor: which relations a piece of SQL names.

Interface (stable; the Prisma producer and the ORM/driver collectors use it):

    extract(sql, strict=False) -> SqlRelations
        .relations   tuple[Relation, ...] in text order, each with
                     .name    the channel-ready name: segments joined by "." with each
                              segment escaped ("%" -> "%25", a "." inside a quoted
                              identifier -> "%2E"), e.g. "s.t", "a%2Eb"
                     .schema  the qualifier ("" when unqualified; escaped like .name)
                     .table   the last segment (escaped)
                     .keyword the character offset of the keyword that opened it
                     .verb    the statement kind: the lowercased head verb of the
                              statement (select, insert, update, delete, ...), "" if unknown
        .unresolved  how many relation positions held something unreadable
                     (a placeholder `FROM ?`, `FROM {}`, a function `FROM f(x)`,
                     a keyword at the end of the text)
    looks_like_sql(text, strict=False) -> bool   the SQL gate for plain string literals
    escape_name(name) -> str                     one identifier as one channel segment

Behaviour follows the family's shared extractor (dartograph sql_relations.dart,
cartograph SqlRelations.swift, tsograph's TypeScript port), rule by rule, so the
same SQL gives the same relations in every producer: relation keywords FROM, JOIN,
INTO (after INSERT/SELECT/MERGE/REPLACE), UPDATE (statement head followed by SET),
TABLE (after a DDL verb), TRUNCATE (statement head), ON (GRANT … ON, CREATE
INDEX/TRIGGER/POLICY … ON); comments and string literals skipped; quoted
identifiers ("…", `…`, […]) kept verbatim; comma lists and aliases; `name:` labels
at a statement head skipped; GRANT operands emitted only in GRANT form.
`strict` accepts only uppercase verbs and keywords (prose filter for plain
literals). One addition required by issue 9: names a statement defines as
common table expressions (`WITH x AS (…)`) are not relations and are dropped.
Offsets are Python string indices (code points); the shared vectors use ASCII
before keywords, where code points and UTF-16 units agree.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Token:
    text: str
    quoted: bool
    offset: int


@dataclass(frozen=True, slots=True)
class Relation:
    name: str
    keyword: int
    verb: str

    @property
    def schema(self) -> str:
        head, sep, _ = self.name.rpartition(".")
        return head if sep else ""

    @property
    def table(self) -> str:
        return self.name.rpartition(".")[2]


@dataclass(frozen=True, slots=True)
class SqlRelations:
    relations: tuple[Relation, ...]
    unresolved: int


_SYMBOLS = frozenset(".,();{}$?:@")
PLACEHOLDERS = frozenset("{}$?:@")
_RELATION_KEYWORDS = frozenset({"from", "join", "into", "update", "table", "truncate", "on"})
_VERBS = frozenset(
    {
        "select",
        "insert",
        "delete",
        "create",
        "alter",
        "drop",
        "replace",
        "merge",
        "lock",
        "unlock",
        "rename",
        "describe",
        "desc",
        "analyze",
        "vacuum",
        "grant",
        "revoke",
    }
)
# str.lower maps character by character, so a verb token of a text is a substring of the
# lowered text: a text in which none occurs is not lexed.
_VERB_TEXT = re.compile("|".join(sorted(_VERBS | {"update", "truncate"})))
_INTO_VERBS = frozenset({"insert", "select", "merge", "replace"})
_CREATE_ON_KINDS = frozenset({"index", "trigger", "policy"})
_TABLE_VERBS = frozenset(
    {
        "alter",
        "drop",
        "create",
        "truncate",
        "rename",
        "lock",
        "unlock",
        "describe",
        "desc",
        "analyze",
        "vacuum",
    }
)
_GRANT_TERMINATORS = frozenset({"to", "from", ";"})
_GRANT_TABLE_KINDS = frozenset({"table", "tables", "view", "materialized"})
_GRANT_OTHER_KINDS = frozenset(
    [
        "all",
        "sequence",
        "schema",
        "database",
        "domain",
        "type",
        "function",
        "procedure",
        "routine",
        "foreign",
        "server",
        "wrapper",
        "language",
        "large",
        "publication",
        "subscription",
        "statistics",
        "tablespace",
        "collation",
        "conversion",
        "extension",
        "aggregate",
        "operator",
        "policy",
        "cast",
        "fdw",
        "parser",
        "template",
        "dictionary",
        "configuration",
    ]
)
_GRANT_PRIVILEGES = frozenset(
    [
        "select",
        "insert",
        "update",
        "delete",
        "truncate",
        "references",
        "trigger",
        "execute",
        "usage",
        "create",
        "connect",
        "temporary",
        "temp",
        "maintain",
        "all",
    ]
)
# Words that end an operand list instead of naming a relation. `table` is absent
# (`UPDATE table SET`), the prose articles `the` and `an` are present (`a` is a common alias).
_CLAUSE_WORDS = frozenset(
    [
        "where",
        "set",
        "on",
        "group",
        "order",
        "by",
        "having",
        "limit",
        "offset",
        "union",
        "intersect",
        "except",
        "values",
        "returning",
        "as",
        "left",
        "right",
        "inner",
        "outer",
        "full",
        "cross",
        "natural",
        "lateral",
        "using",
        "and",
        "or",
        "not",
        "null",
        "select",
        "insert",
        "delete",
        "from",
        "join",
        "into",
        "update",
        "truncate",
        "with",
        "for",
        "in",
        "is",
        "case",
        "when",
        "then",
        "else",
        "end",
        "distinct",
        "asc",
        "desc",
        "if",
        "exists",
        "only",
        "between",
        "like",
        "to",
        "grant",
        "revoke",
        "option",
        "cascade",
        "restrict",
        "privileges",
        "the",
        "an",
    ]
)


def _ident_start(char: str) -> bool:
    return (
        char == "_" or char == "$" or ("a" <= char <= "z") or ("A" <= char <= "Z") or char >= "\x80"
    )


def _ident_part(char: str) -> bool:
    return _ident_start(char) or "0" <= char <= "9"


def escape_name(name: str) -> str:
    """One identifier as one channel segment: `%` -> `%25`, `.` -> `%2E`."""
    return name.replace("%", "%25").replace(".", "%2E")


def lex(text: str) -> list[Token]:
    """Identifiers, quoted identifiers and the symbols the rules look at; nothing else."""
    tokens: list[Token] = []
    index, size = 0, len(text)
    while index < size:
        char = text[index]
        if char in '"`[':
            close = "]" if char == "[" else char
            end = text.find(close, index + 1)
            end = size if end < 0 else end
            tokens.append(Token(text[index + 1 : end], True, index))
            index = end + 1
        elif _ident_start(char):
            end = index + 1
            while end < size and _ident_part(text[end]):
                end += 1
            tokens.append(Token(text[index:end], False, index))
            index = end
        elif text.startswith("--", index):
            end = text.find("\n", index)
            index = size if end < 0 else end
        elif text.startswith("/*", index):
            end = text.find("*/", index + 2)
            index = size if end < 0 else end + 2
        elif char == "'":
            index = _skip_string(text, index + 1)
        else:
            if char in _SYMBOLS:
                tokens.append(Token(char, False, index))
            index += 1
    return tokens


def _skip_string(text: str, index: int) -> int:
    size = len(text)
    while index < size:
        char = text[index]
        if char == "\\" or (char == "'" and text.startswith("''", index)):
            index += 2
        elif char == "'":
            return index + 1
        else:
            index += 1
    return index


def _is_name(token: Token) -> bool:
    return not token.quoted and bool(token.text) and _ident_start(token.text[0])


def _upper(token: Token) -> bool:
    return token.text == token.text.upper()


def looks_like_sql(text: str, strict: bool = False) -> bool:
    """A strong SQL verb anywhere, or UPDATE/TRUNCATE first; uppercase only when strict."""
    if _VERB_TEXT.search(text.lower()) is None:
        return False  # most string literals: no token of the text can be a verb
    head = True
    for token in lex(text):
        if not _is_name(token):
            continue
        lower = token.text.lower()
        if lower in _VERBS and (not strict or _upper(token)):
            return True
        if head:
            head = False
            if lower in ("update", "truncate") and (not strict or _upper(token)):
                return True
    return False


def extract(text: str, strict: bool = False) -> SqlRelations:
    """The relations `text` names and the count of relation positions it could not read."""
    scan = _Scan(lex(text), strict)
    for index in range(len(scan.tokens)):
        scan.visit(index)
    return SqlRelations(tuple(scan.out), scan.unresolved)


# What a template's substitution is written as before extract_substituted reads the text:
# a private-use character, which lexes as part of an identifier (like any char >= U+0080),
# so a substitution glued to a name stays in that name instead of ending it.
SUBSTITUTION = "\ue000"


def extract_substituted(text: str, strict: bool = False) -> SqlRelations:
    """extract() of a template's text with each substitution written SUBSTITUTION.

    A relation name holding a substitution is not proven: it counts as an unread
    operand. Written `?`, a substitution made names of its neighbours: `"${t}"` gave
    a table `?`, `log_${month}` a table `log_`, `s.${t}` a table `s` (openstatus
    packages/db seed.mts: DELETE FROM "${row.name}").
    """
    found = extract(text, strict)
    kept = tuple(relation for relation in found.relations if SUBSTITUTION not in relation.name)
    return SqlRelations(kept, found.unresolved + len(found.relations) - len(kept))


class _Scan:
    """State of one extraction: consumed tokens, statement heads and verbs, results."""

    def __init__(self, tokens: list[Token], strict: bool) -> None:
        self.tokens = tokens
        self.strict = strict
        count = len(tokens)
        self.consumed = [False] * count
        self.head = [False] * count
        self.verb: list[str] = [""] * count
        self.statement = [0] * count
        self.seen: set[tuple[int, str]] = set()
        self.out: list[Relation] = []
        self.unresolved = 0
        self.ctes: list[frozenset[str]] = []
        self._mark_statements()

    def _ok(self, token: Token) -> bool:
        return not self.strict or _upper(token)

    def _symbol(self, index: int, symbol: str) -> bool:
        return (
            0 <= index < len(self.tokens)
            and not self.tokens[index].quoted
            and (self.tokens[index].text == symbol)
        )

    def _mark_statements(self) -> None:
        pending, verb, statement, index = True, "", 0, 0
        starts: list[int] = [0]
        while index < len(self.tokens):
            token = self.tokens[index]
            if self._symbol(index, ";"):
                pending, verb = True, ""
                statement += 1
                starts.append(index + 1)
                self.statement[index] = statement - 1
                index += 1
                continue
            if pending and _is_name(token):
                # `label:` before a statement (SQLDelight, drift) is not its head; `::` is a cast.
                if self._symbol(index + 1, ":") and not self._symbol(index + 2, ":"):
                    index += 2
                    continue
                self.head[index] = True
                verb = token.text.lower() if self._ok(token) else ""
                pending = False
            self.verb[index] = verb
            self.statement[index] = statement
            index += 1
        self.ctes = [self._cte_names(start) for start in starts]

    def _cte_names(self, start: int) -> frozenset[str]:
        """Names a statement starting at `start` defines with `WITH [RECURSIVE] n [(cols)] AS (`."""
        tokens = self.tokens
        index = start
        while index < len(tokens) and not _is_name(tokens[index]):
            if self._symbol(index, ";"):
                return frozenset()
            index += 1
        if index >= len(tokens) or tokens[index].text.lower() != "with":
            return frozenset()
        index += 1
        if index < len(tokens) and tokens[index].text.lower() == "recursive":
            index += 1
        names: set[str] = set()
        while index < len(tokens):
            token = tokens[index]
            if not (token.quoted or _is_name(token)):
                break
            name = escape_name(token.text) if token.quoted else token.text.replace("%", "%25")
            index += 1
            if self._symbol(index, "("):
                index = _skip_parens(tokens, index) or len(tokens)
            if index >= len(tokens) or tokens[index].text.lower() != "as":
                break
            index += 1
            while index < len(tokens) and tokens[index].text.lower() in ("not", "materialized"):
                index += 1
            if not self._symbol(index, "("):
                break
            names.add(name)
            after = _skip_parens(tokens, index)
            if after is None or not self._symbol(after, ","):
                break
            index = after + 1
        return frozenset(names)

    def _before(self, end: int) -> list[Token]:
        found: list[Token] = []
        for index in range(end - 1, -1, -1):
            if self.tokens[index].text == ";" and not self.tokens[index].quoted:
                break
            found.append(self.tokens[index])
        return found

    def _after_has(self, start: int, word: str) -> bool:
        for token in self.tokens[start:]:
            if token.text == ";" and not token.quoted:
                return False
            if not token.quoted and token.text.lower() == word and self._ok(token):
                return True
        return False

    def _preceded_by(self, index: int, test: Callable[[str], bool]) -> bool:
        return any(
            not token.quoted and self._ok(token) and test(token.text.lower())
            for token in self._before(index)
        )

    def _fires(self, index: int, word: str, grant: bool) -> bool:
        if word == "update":  # not prose "update the …", not upsert's DO UPDATE SET
            return self.head[index] and self._after_has(index + 1, "set")
        if word == "truncate":
            return self.head[index]
        if word == "into":  # not prose "merged the branch into main"
            return self._preceded_by(index, lambda lower: lower in _INTO_VERBS)
        if word == "table":
            return self._table_keyword(index)
        if word == "on":
            grant_on = grant and self._preceded_by(index, lambda lower: lower in _GRANT_PRIVILEGES)
            create_on = self.verb[index] == "create" and self._preceded_by(
                index, lambda lower: lower in _CREATE_ON_KINDS
            )
            return grant_on or create_on
        return not grant  # FROM / JOIN; in GRANT/REVOKE, FROM names a role

    def _table_keyword(self, index: int) -> bool:
        for previous in range(index - 1, -1, -1):
            token = self.tokens[previous]
            if not _is_name(token):
                continue
            if self.strict and not _upper(token):
                return False
            return token.text.lower() in _TABLE_VERBS
        return False

    def visit(self, index: int) -> None:
        keyword = self.tokens[index]
        lower = keyword.text.lower()
        if (
            self.consumed[index]
            or keyword.quoted
            or lower not in _RELATION_KEYWORDS
            or not self._ok(keyword)
        ):
            return
        grant = self.verb[index] in ("grant", "revoke")
        if not self._fires(index, lower, grant):
            return
        following = self._skip_modifiers(index + 1, lower == "truncate")
        if lower == "on" and grant:
            after_kind = self._grant_object_kind(following)
            if after_kind is None:
                return
            following = after_kind
        if following >= len(self.tokens):
            self.unresolved += 1  # a keyword with nothing after it: "SELECT 1 FROM"
            return
        self._operands(following, index, lower == "on" and grant)

    def _skip_modifiers(self, index: int, after_truncate: bool) -> int:
        while index < len(self.tokens) and not self.tokens[index].quoted:
            lower = self.tokens[index].text.lower()
            if lower not in ("only", "if", "not", "exists") and not (
                after_truncate and lower == "table"
            ):
                break
            self.consumed[index] = True
            index += 1
        return index

    def _grant_object_kind(self, start: int) -> int | None:
        if start >= len(self.tokens) or self.tokens[start].quoted:
            return start
        kind = self.tokens[start].text.lower()
        if kind in _GRANT_TABLE_KINDS:
            index = start
            while (
                index < len(self.tokens) and self.tokens[index].text.lower() in _GRANT_TABLE_KINDS
            ):
                self.consumed[index] = True
                index += 1
            return index
        if kind not in _GRANT_OTHER_KINDS:
            return start
        self._swallow_object(start)
        return None

    def _swallow_object(self, index: int) -> None:
        while index < len(self.tokens):
            token = self.tokens[index]
            if self._symbol(index, "("):
                after = _skip_parens(self.tokens, index)
                if after is None:
                    self.unresolved += 1
                    return
                index = after
            elif _is_name(token) or self._symbol(index, "."):
                self.consumed[index] = True
                index += 1
            else:
                if not token.quoted and token.text in PLACEHOLDERS:
                    self.unresolved += 1
                return

    def _operands(self, start: int, keyword: int, buffered: bool) -> None:
        buffer: list[str] = []
        index = end = start
        while index < len(self.tokens):
            operand_end = self._operand(index, keyword, buffer if buffered else None)
            if operand_end is None:
                break
            end = self._skip_alias(operand_end)
            if not self._symbol(end, ","):
                break
            index = end + 1
        if buffered and self._grant_terminator(end):
            for name in buffer:
                self._emit(name, keyword)

    def _operand(self, index: int, keyword: int, buffer: list[str] | None) -> int | None:
        if self._symbol(index, "("):
            after = _skip_parens(self.tokens, index)
            if after is None:
                self.unresolved += 1  # an unclosed parenthesis
            return after
        read = _qualified_name(self.tokens, index)
        if read is None:
            # A clause keyword in the name position ends the list normally; anything
            # else there (a placeholder) is an operand that could not be read.
            token = self.tokens[index] if index < len(self.tokens) else None
            if not (token is not None and _is_name(token) and token.text.lower() in _CLAUSE_WORDS):
                self.unresolved += 1
            return None
        name, after = read
        for consumed in range(index, after):
            self.consumed[consumed] = True
        # A function in FROM/JOIN (`FROM generate_series(…)`) is no relation identity.
        if self.tokens[keyword].text.lower() in ("from", "join") and self._symbol(after, "("):
            self.unresolved += 1
            return _skip_parens(self.tokens, after)
        if buffer is None:
            self._emit(name, keyword)
        else:
            buffer.append(name)
        return after

    def _skip_alias(self, index: int) -> int:
        start = index
        token = self.tokens[index] if index < len(self.tokens) else None
        following = self.tokens[index + 1] if index + 1 < len(self.tokens) else None
        if (
            token is not None
            and not token.quoted
            and token.text.lower() == "as"
            and following is not None
            and _is_name(following)
        ):
            index += 2
        elif token is not None and _is_name(token) and self._symbol(index + 1, ","):
            index += 1
        for consumed in range(start, index):
            self.consumed[consumed] = True
        return index

    def _grant_terminator(self, index: int) -> bool:
        if index >= len(self.tokens):
            return True
        token = self.tokens[index]
        return not token.quoted and token.text.lower() in _GRANT_TERMINATORS

    def _emit(self, name: str, keyword: int) -> None:
        if (keyword, name) in self.seen or name in self.ctes[self.statement[keyword]]:
            return
        self.seen.add((keyword, name))
        self.out.append(Relation(name, self.tokens[keyword].offset, self.verb[keyword]))


def _skip_parens(tokens: list[Token], start: int) -> int | None:
    depth = 0
    for index in range(start, len(tokens)):
        token = tokens[index]
        if token.quoted:
            continue
        if token.text == "(":
            depth += 1
        elif token.text == ")":
            depth -= 1
            if depth == 0:
                return index + 1
    return None


def _segment(token: Token) -> str:
    return escape_name(token.text) if token.quoted else token.text.replace("%", "%25")


def _qualified_name(tokens: list[Token], start: int) -> tuple[str, int] | None:
    """`ident(.ident)*` at `start`: (escaped name, index after it), or None."""
    if start >= len(tokens):
        return None
    first = tokens[start]
    if first.quoted:
        if not first.text:
            return None
    elif not _is_name(first) or first.text.lower() in _CLAUSE_WORDS:
        return None
    parts = [_segment(first)]
    index = start + 1
    while index + 1 < len(tokens) and tokens[index].text == "." and not tokens[index].quoted:
        following = tokens[index + 1]
        if not following.quoted and (
            not _is_name(following) or following.text.lower() in _CLAUSE_WORDS
        ):
            break
        parts.append(_segment(following))
        index += 2
    return ".".join(parts), index

"""What the facts do not cover, counted by cause, and the limitation lines for it.

Nothing the spec holds is dropped silently: a skipped entry, a template that
cannot be matched exactly, a server prefix that could not be proven and an
operationId unsafe to write each leave a count here, and the document carries
one limitation line per kind with a breakdown by cause.
"""

from __future__ import annotations

from collections import Counter

from tsograph.exchange.limitations import counted

# Causes under `contract-coverage:` for input that produced no fact.
NON_ABSOLUTE_PATH_KEY = "path-key-not-starting-with-slash"
NON_OBJECT_PATHS = "non-object-paths"
NON_OBJECT_PATH_ITEM = "non-object-path-item"
NON_OBJECT_OPERATION = "non-object-operation"
UNKNOWN_PATH_ITEM_FIELD = "unknown-path-item-field"
NON_LOCAL_REF = "non-local-ref"
BROKEN_REF = "broken-ref"
CYCLIC_REF = "cyclic-ref"
REF_HOP_LIMIT = "ref-hop-limit"
REF_BUDGET = "ref-budget-exhausted"
SHADOWED_REF_FIELD = "field-shadowed-by-ref-sibling"

# Causes under `contract-coverage:` for an operation whose fact another one holds.
FOLDED_TAIL = "path-key-query-or-fragment"
FOLDED_SAME_TEMPLATE = "same-template"

# Causes under `unsafe-operation-ids:`.
ID_NOT_TEXT = "not-a-string"
ID_EMPTY = "empty"
ID_FORBIDDEN_CHARACTERS = "forbidden-characters"
ID_TOO_LONG = "too-long"


class Coverage:
    def __init__(self) -> None:
        self._skipped: Counter[str] = Counter()
        self._dynamic: Counter[str] = Counter()
        self._folded: Counter[str] = Counter()
        self._unresolved: dict[object, str] = {}
        self._unsafe_ids: Counter[str] = Counter()

    def skipped(self, cause: str) -> None:
        self._skipped[cause] += 1

    def dynamic(self, cause: str) -> None:
        self._dynamic[cause] += 1

    def folded(self, cause: str) -> None:
        """A fact not written because another operation holds its method and channel."""
        self._folded[cause] += 1

    def unresolved_server(self, identity: object, cause: str) -> None:
        """One server object (or the basePath) whose prefix could not be proven."""
        self._unresolved.setdefault(identity, cause)

    def unsafe_operation_id(self, cause: str) -> None:
        self._unsafe_ids[cause] += 1

    def lines(self) -> list[str]:
        counts = (
            (
                "contract-coverage:",
                self._skipped,
                "spec entry(ies) were skipped and produced no facts",
            ),
            (
                "contract-coverage:",
                self._dynamic,
                "fact(s) have dynamic templates that cannot be matched exactly",
            ),
            (
                "contract-coverage:",
                self._folded,
                "operation(s) share a method and channel with another operation "
                "and were folded into its fact",
            ),
            (
                "unresolved-contract-servers:",
                Counter(self._unresolved.values()),
                "server URL(s) or base path(s) could not be resolved to a fixed path prefix, "
                "so their facts are anchored to the base",
            ),
            (
                "unsafe-operation-ids:",
                self._unsafe_ids,
                "operationId(s) were omitted because they cannot be written safely",
            ),
        )
        return [
            counted(prefix, reasons.total(), text, breakdown=reasons)
            for prefix, reasons, text in counts
            if reasons
        ]

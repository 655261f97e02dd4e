"""How the calls no direct edge links end in each traversal mode, for both languages' graphs.

A call the direct rules leave open is counted once on its owner and once by
reason. Bound dispatch then links it or leaves it; the candidates mode links
what bound edges link plus the calls that get candidate edges. The counts by
owner become each node's `unresolved` per mode, and the counts by reason the
`unresolved-calls:` line each mode reports (the reasons of the calls that mode
still leaves unlinked).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field

from tsograph.producers.graph.call_lines import unresolved_line
from tsograph.producers.graph.model import Node
from tsograph.producers.graph.model import with_unresolved


@dataclass
class CallTally:
    # Calls no direct edge links, by owner and by reason.
    unresolved: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    # Of those, by mode: the reasons of the calls it links after all, and the calls
    # it still leaves without an edge, by owner.
    bound_linked: Counter[str] = field(default_factory=Counter)
    bound_unresolved: Counter[str] = field(default_factory=Counter)
    candidate_linked: Counter[str] = field(default_factory=Counter)
    candidate_unresolved: Counter[str] = field(default_factory=Counter)

    def open(self, owner: str, reason: str) -> None:
        """A call of `owner` no direct edge links, for `reason`."""
        self.unresolved[owner] += 1
        self.reasons[reason] += 1

    def settle(self, owner: str, reason: str, *, bound: bool, candidates: bool) -> None:
        """How an open call ended: whether bound edges link it, whether candidate edges do."""
        if bound:
            self.bound_linked[reason] += 1
        else:
            self.bound_unresolved[owner] += 1
        if bound or candidates:
            self.candidate_linked[reason] += 1
        else:
            self.candidate_unresolved[owner] += 1

    def mark_nodes(self, nodes: dict[str, Node]) -> None:
        """Each node's unresolved calls per mode; a node has bound or candidate counts only
        when it has direct ones."""
        per_mode: dict[str, Mapping[str, int]] = {
            "direct": self.unresolved,
            "bound": {n: self.bound_unresolved[n] for n in self.unresolved},
            "candidates": {n: self.candidate_unresolved[n] for n in self.unresolved},
        }
        with_unresolved(nodes, per_mode)

    def unresolved_lines(self) -> dict[str, list[str]]:
        """Each mode's `unresolved-calls:` line (none where it links every call)."""
        return {
            "direct": unresolved_line(self.reasons),
            "bound": unresolved_line(+(self.reasons - self.bound_linked)),
            "candidates": unresolved_line(+(self.reasons - self.candidate_linked)),
        }

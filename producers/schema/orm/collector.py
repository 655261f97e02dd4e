"""What one ORM (or the raw drivers) contributes to a run: evaluator hooks and three phases.

A collector is a row of collect.ORMS. The evaluator asks its hooks what a package call
(`package-call`), a method call (`method`), a call of a value the evaluator does not know
(`call`) or a class (`class`) is, and its member hooks what a member of a value of its
own kinds is; the phases run over every collector in turn: `read_options` (naming
rules that apply to the whole project), `declare` (tables, entities, models) and `uses`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tsograph.producers.schema.orm.orm_evaluator import Hook
    from tsograph.producers.schema.orm.orm_run import OrmRun
    from tsograph.producers.schema.orm.receivers import Val


class OrmCollector:
    def hooks(self) -> dict[str, Hook]:
        return {}

    def member_hooks(self) -> dict[str, Callable[[Val, str], Val | None]]:
        return {}

    def read_options(self, run: OrmRun) -> None:
        return None

    def declare(self, run: OrmRun) -> None:
        return None

    def uses(self, run: OrmRun) -> None:
        return None

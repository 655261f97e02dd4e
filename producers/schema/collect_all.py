"""One `tsograph schema` run over a project: the collectors in order, or the kept result.

The collectors are a table (`collectors()`): each is a function of the run's SchemaScan
(schema_scan.py), which none of them runs itself, so no collector module is imported by the
module it imports SchemaScan from.
"""

from __future__ import annotations

from collections.abc import Callable

from tsograph.exchange.documents import bridge_facts
from tsograph.exchange.errors import InvalidDocumentError
from tsograph.exchange.validation import validate
from tsograph.producers import progress
from tsograph.producers.project.fsread import recording
from tsograph.producers.project.model import ProjectModel
from tsograph.producers.schema.facts import Fact
from tsograph.producers.schema.result_cache import ResultCache
from tsograph.producers.schema.result_cache import SchemaResult
from tsograph.producers.schema.result_cache import schema_key
from tsograph.producers.schema.schema_scan import SchemaScan
from tsograph.producers.schema.walk import walk_schema_sources

Collector = Callable[[SchemaScan], None]
# Any valid time stamp: the document facts_pass checks is never written.
CHECK_TIME = "2026-01-01T00:00:00.000Z"


def collectors() -> tuple[Collector, ...]:
    """The collectors in order, imported only by a run that finds no kept result. Prisma
    first: it removes its generator output folders from the sources every later collector
    reads; the strict SQL literal pass after the others: it reads only unclaimed literals.
    The workspace packages a service run does not read are named last."""
    from tsograph.producers.schema import prisma_collector
    from tsograph.producers.schema import sql_literals
    from tsograph.producers.schema import workspace_packages
    from tsograph.producers.schema.orm import collect as orm

    return (prisma_collector.collect, orm.collect, sql_literals.collect, workspace_packages.collect)


def scan_project(model: ProjectModel) -> SchemaScan:
    """The relation-use facts of the run's project model (its sources, tests when it keeps
    them), or its result kept from an earlier run."""
    root, include_tests = model.root, model.include_tests
    with recording() as dependencies:
        scan = SchemaScan(root, walk_schema_sources(root, include_tests, model.sources), model)
    # Files are read as collectors ask for them; most projects read most of them.
    progress.phase("parsing sources", len(scan.files.sources))
    cache = ResultCache(model.syntax_files.cache.directory)
    key = schema_key(model, include_tests) if cache.directory is not None else ""
    stored = cache.load(root, key) if key else None
    if stored is not None:
        scan.facts = stored.facts
        scan.read = [root / path for path in stored.read]
        scan.stored_lines = stored.limitations
        scan.facts_checked = True  # an entry is stored only once its facts passed
        return scan
    with recording() as read_by_collectors:
        for collect in collectors():
            collect(scan)
    scan.facts_checked = facts_pass(scan.facts)
    read = [path.relative_to(root).as_posix() for path in scan.read if path.is_relative_to(root)]
    if key and len(read) == len(scan.read) and scan.facts_checked:
        result = SchemaResult(scan.facts, read, scan.limitation_lines())
        cache.save(key, [*dependencies, *read_by_collectors], scan.probes.seen, result)
    return scan


def facts_pass(facts: list[Fact]) -> bool:
    """Whether the facts pass the bridge-facts schema and rules in a document of the run's
    kind. Checked once, before they are kept: the document that writes them (now or from
    the cache later) need not check them again. A failure is left to that document, which
    reports it as an internal error."""
    document = bridge_facts(
        platform="js",
        target="persistence" if facts else None,
        roles=["client"],
        service=None,
        project="facts",
        generated=CHECK_TIME,
        source_modified=None,
        limitations=(),
        facts=facts,
    )
    try:
        validate(document, "bridge-facts")
    except InvalidDocumentError:
        return False
    return True

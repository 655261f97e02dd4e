"""`tsograph schema --project ROOT`: relation-use facts of Prisma, ORMs and SQL text.

Exit codes: 0 with a document on stdout (zero facts is a valid result, not a
proof of completeness), 2 when the project cannot be read, there are more than
100,000 facts or the output is too large, 64 for wrong arguments.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING
from typing import Any

from tsograph.exchange.documents import bridge_facts
from tsograph.exchange.documents import generated_at
from tsograph.exchange.documents import project_name
from tsograph.exchange.documents import source_modified_at
from tsograph.exchange.writer import check_fact_budget
from tsograph.producers.command_args import add_cache_arguments
from tsograph.producers.command_args import add_output_arguments
from tsograph.producers.command_args import add_source_arguments
from tsograph.producers.command_args import syntax_files
from tsograph.producers.help_text import add_command
from tsograph.producers.output_formats import emit
from tsograph.producers.project.languages import LANGUAGES
from tsograph.producers.project.model import ProjectModel
from tsograph.producers.project.walk import walk
from tsograph.producers.schema.language import schema_language
from tsograph.producers.service_runs import add_service_arguments
from tsograph.producers.service_runs import output_of
from tsograph.producers.service_runs import rebase_facts
from tsograph.producers.service_runs import rebase_limitations
from tsograph.producers.service_runs import targets

if TYPE_CHECKING:
    from tsograph.producers.schema.python.relation_scan import PySchemaScan
    from tsograph.producers.schema.schema_scan import SchemaScan

# The code is the database's client: relation-use facts describe calls into it.
ROLES = ("client",)


def register(subparsers: Any) -> None:
    parser = add_command(subparsers, "schema")
    add_source_arguments(parser)
    parser.add_argument(
        "--language",
        choices=LANGUAGES,
        help="the sources to read: js (TypeScript/JavaScript) or python (default: the only "
        "language the project holds; with both, python when Python files import database "
        "code and no package.json declares a JavaScript server or database package)",
    )
    add_service_arguments(parser)
    add_cache_arguments(parser)
    add_output_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    generated = generated_at(args.generated_at)
    for target in targets(args, "schema"):
        files = syntax_files(args)
        sources = walk(target.project)
        language = schema_language(
            target.project, sources, args.language, args.include_tests, files
        )
        model = ProjectModel.load(
            target.project, args.include_tests, files, target.enclosing, sources
        )
        platform, scan, checked = _scan(language, model)
        check_fact_budget(len(scan.facts))
        document = bridge_facts(
            platform=platform,
            target="persistence" if scan.facts else None,
            roles=list(ROLES),
            service=None,
            project=project_name(target.root),
            generated=generated,
            source_modified=source_modified_at(scan.read),
            limitations=rebase_limitations(scan.limitation_lines(), target.folder),
            facts=rebase_facts(scan.facts, target.folder),
            source_sets={"tests": "included" if args.include_tests else "excluded"},
        )
        with output_of(target, platform):
            emit(document, args.format, trusted=("facts",) if checked else ())
    return 0


def _scan(language: str, model: ProjectModel) -> tuple[str, SchemaScan | PySchemaScan, bool]:
    """The platform, the scan of the run's language, and whether its facts passed the
    document checks already. Only that language's collectors are imported (and a warm run
    imports none of them: collect_all.collectors)."""
    if language == "python":
        from tsograph.producers.schema.python.collect_all import scan_python

        return "python", scan_python(model), False
    from tsograph.producers.schema.collect_all import scan_project

    scan = scan_project(model)
    return "js", scan, scan.facts_checked

"""Which language's database code `schema` reads at one project root.

A document has one platform, so one run reads one language; `--language`
chooses. Without it, a root holding sources of one language reads that one. A
root holding both reads Python when its Python files import database code
(SQLAlchemy, SQLModel, Flask-SQLAlchemy, Django's ORM or a DB-API driver) and
no package.json under it declares a JavaScript server or database package,
JavaScript in the opposite case, and asks for `--language` when both hold
database code. A JavaScript app with a few Python scripts and no database
code in them stays a JavaScript project, as before Python was read; a Django
project with a package.json for its front-end build is read as Python (it
used to give an empty JavaScript document).
"""

from __future__ import annotations

from pathlib import Path

from tsograph.exchange.errors import UsageError
from tsograph.producers.project.model import ProjectModel
from tsograph.producers.project.syntax_cache import SyntaxFiles
from tsograph.producers.project.walk import SourceSet
from tsograph.producers.services import SERVICE_PACKAGES

# Top-level modules whose import is database code the Python schema scan reads
# (schema/python/: handles.py, dbapi.py, the model readers).
PYTHON_DATABASE_MODULES = frozenset(
    {"sqlalchemy", "sqlmodel", "flask_sqlalchemy", "sqlite3", "psycopg", "psycopg2"}
    | {"asyncpg", "pymysql"}
)
_NAMED = tuple(name.encode() for name in (*PYTHON_DATABASE_MODULES, "django"))


def _python_database(model: ProjectModel) -> bool:
    for walked in model.sources.python_sources:
        # Only files that name a database module are parsed for the question.
        data = model.data(walked.path)
        if data is None or not any(name in data for name in _NAMED):
            continue
        syntax = model.syntax(walked.path)
        if syntax is None:
            continue
        for item in syntax.facts.imports:
            specifier = item.specifier
            if specifier.split(".")[0] in PYTHON_DATABASE_MODULES:
                return True
            # Django is also the web framework: only its ORM's modules count here.
            if specifier == "django.db" or specifier.startswith("django.db."):
                return True
    return False


def _javascript_database(model: ProjectModel) -> bool:
    packages = model.workspace.by_directory.values()
    wanted = SERVICE_PACKAGES["schema"]
    return any(any(name in package.dependencies for name in wanted) for package in packages)


def schema_language(
    root: Path, sources: SourceSet, asked: str | None, include_tests: bool, syntax: SyntaxFiles
) -> str:
    """`sources`: the walk of `root`, which the scan then reads too (walked once)."""
    if asked is not None:
        return asked
    if not sources.python_sources:
        return "js"
    if not sources.sources:
        return "python"
    model = ProjectModel.load(root, include_tests, syntax, sources=sources)
    python = _python_database(model)
    if not python:
        return "js"
    if _javascript_database(model):
        raise UsageError(
            "the project holds JavaScript and Python database code; choose one with "
            "--language js or --language python"
        )
    return "python"

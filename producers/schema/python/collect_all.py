"""Runs the Python schema collectors over a project: models first, then the queries that
name them, then DB-API SQL. Apart from relation_scan.py so that the collectors, which read the
scan's record, are not imported by it (no import cycle)."""

from __future__ import annotations

from tsograph.producers import progress
from tsograph.producers.lang.syntax_file import paused_collection
from tsograph.producers.project.model import ProjectModel
from tsograph.producers.project.test_sources import is_python_test
from tsograph.producers.routes.python_client.project import PyProject
from tsograph.producers.schema.python import dbapi
from tsograph.producers.schema.python import django_models
from tsograph.producers.schema.python import sqlalchemy_models
from tsograph.producers.schema.python.handles import library_value
from tsograph.producers.schema.python.relation_scan import PySchemaScan


def scan_python(model: ProjectModel) -> PySchemaScan:
    """The relation-use facts of the Python sources of the run's project model."""
    root, include_tests = model.root, model.include_tests
    with paused_collection():
        project = PyProject(model, library_value, frozenset({("flask_sqlalchemy", "SQLAlchemy")}))
        paths = [path for path in project.paths if include_tests or not is_python_test(path)]
        scan = PySchemaScan(project, paths)
        project.preload(paths)
        progress.phase("reading models", len(paths))
        alchemy = sqlalchemy_models.collect_models(scan)
        django = django_models.collect_models(scan)
        sqlalchemy_models.collect_queries(scan, alchemy)
        django_models.collect_queries(scan, django)
        dbapi.collect(scan)
        scan.read = [root / path for path in paths if project.data(path) is not None]
    return scan

"""A warm `schema` run on an unchanged project takes its whole result from the cache.

Any change to what a run read makes the next run read the project again: a
source, a schema file, the listing of a schema or TypedSQL folder, package.json.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.schema.support import FIXTURES
from tests.schema.support import copy_project
from tests.schema.support import run_schema
from tsograph.producers.schema import collect_all
from tsograph.producers.schema.schema_scan import SchemaScan


def test_a_warm_run_collects_nothing_and_writes_the_same_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = copy_project(FIXTURES / "prisma-app" / "project", tmp_path / "app")
    cache = str(tmp_path / "cache")
    uncached = run_schema(project, "--no-cache")
    cold = run_schema(project, "--cache-dir", cache)
    assert cold.code == 0 and cold.stdout == uncached.stdout

    def refuse(scan: SchemaScan) -> None:
        raise AssertionError("a warm run ran the collectors")

    monkeypatch.setattr(collect_all, "collectors", lambda: (refuse,))
    warm = run_schema(project, "--cache-dir", cache)
    assert warm.code == 0 and warm.stdout == cold.stdout and warm.stderr == ""


def _remove_a_source(project: Path) -> None:
    (project / "src" / "raw.ts").unlink()


def _edit_the_schema(project: Path) -> None:
    schema = project / "prisma" / "schema.prisma"
    schema.write_text(schema.read_text() + "\nmodel Extra {\n  id Int @id\n}\n")


def _add_a_typed_sql_file(project: Path) -> None:
    (project / "prisma" / "sql" / "countUsers.sql").write_text('SELECT count(*) FROM "User"\n')


def _drop_the_client_dependency(project: Path) -> None:
    (project / "package.json").write_text('{"name": "prisma-app", "private": true}\n')


def _add_a_schema_file(project: Path) -> None:
    (project / "db" / "schema" / "extra.prisma").write_text("model Extra {\n  id Int @id\n}\n")


CHANGES: dict[str, tuple[str, Callable[[Path], None]]] = {
    "source": ("prisma-app", _remove_a_source),
    "schema-file": ("prisma-app", _edit_the_schema),
    "typed-sql-folder": ("prisma-app", _add_a_typed_sql_file),
    "package-json": ("prisma-app", _drop_the_client_dependency),
    "schema-folder": ("multi-file", _add_a_schema_file),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_change_to_what_the_run_read_is_seen(change: str, tmp_path: Path) -> None:
    case, edit = CHANGES[change]
    project = copy_project(FIXTURES / case / "project", tmp_path / case)
    cache = str(tmp_path / "cache")
    before = run_schema(project, "--cache-dir", cache)
    assert before.code == 0
    edit(project)
    after = run_schema(project, "--cache-dir", cache)
    fresh = run_schema(project, "--no-cache")
    assert after.code == fresh.code == 0
    assert fresh.stdout != before.stdout, "the change does not show in the document"
    assert after.stdout == fresh.stdout

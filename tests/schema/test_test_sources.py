"""Test sources and mock setup (issue 14 item 4): left out by default, never a query.

The jest-mocks case is the Express realworld app's pattern: a jest-mock-extended
`mockDeep<PrismaClient>()` behind `jest.mock`, programmed with
`prismaMock.user.findUnique.mockResolvedValue(…)` in `*.test.ts` files.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.schema.support import FIXTURES
from tests.schema.support import assert_schema_golden
from tests.schema.support import copy_project
from tests.schema.support import document_of
from tests.schema.support import write_project
from tsograph.producers.lang.typescript import read_syntax
from tsograph.producers.project.model import ProjectModel
from tsograph.producers.schema import mocks
from tsograph.producers.schema.prisma.client_provenance import ClientIndex
from tsograph.producers.schema.schema_scan import SchemaScan
from tsograph.producers.schema.walk import walk_schema_sources

CASE = FIXTURES / "jest-mocks"


def source_facts(document: dict[str, Any]) -> set[tuple[str, str | None, str, bool]]:
    return {
        (f["location"]["path"], f.get("method"), f["channel"], f.get("testSource", False))
        for f in document["facts"]
        if not f["location"]["path"].endswith(".prisma")
    }


def test_test_sources_are_left_out_by_default(tmp_path: Path) -> None:
    document = document_of(copy_project(CASE / "project", tmp_path / "p"))
    assert document["sourceSets"] == {"tests": "excluded"}
    assert source_facts(document) == {
        ("src/users.ts", None, "User", False),
        ("src/users.ts", "id", "User", False),
    }


def test_include_tests_marks_test_facts_and_never_reads_mock_setup(tmp_path: Path) -> None:
    document = document_of(copy_project(CASE / "project", tmp_path / "p"), "--include-tests")
    assert document["sourceSets"] == {"tests": "included"}
    # The one real query in a test source; every mock chain, spy, mocked module and
    # mock-typed value is left out.
    assert source_facts(document) == {
        ("src/users.ts", None, "User", False),
        ("src/users.ts", "id", "User", False),
        ("src/__tests__/seed.ts", None, "Article", True),
        ("src/__tests__/seed.ts", "title", "Article", True),
    }


def test_golden_with_tests(tmp_path: Path) -> None:
    # expected.json (without the flag) is compared by test_prisma_golden.
    assert_schema_golden(CASE, tmp_path, "--include-tests", expected="expected-include-tests.json")


@pytest.mark.parametrize(
    ("annotation", "mock"),
    [
        ("DeepMockProxy<PrismaClient>", True),
        ("jest.Mocked<PrismaClient>", True),
        ("MockProxy<PrismaClient> & PrismaClient", True),
        ("vi.MockedObject<PrismaClient>", True),
        ("PrismaClient", False),
        ("Omit<PrismaClient, '$connect'>", False),
        ("MockingBird", False),
    ],
)
def test_mock_types(annotation: str, mock: bool) -> None:
    root = read_syntax("a.ts", f"let x: {annotation};".encode()).root
    written = next(node for node in root.walk() if node.kind == "declarator").part("type")
    assert written is not None and mocks.names_mock_type(written) is mock


def test_a_cast_to_a_mock_type_is_not_a_client(tmp_path: Path) -> None:
    project = copy_project(CASE / "project", tmp_path / "p")
    model = ProjectModel.load(project, include_tests=True)
    scan = SchemaScan(project, walk_schema_sources(project, True, model.sources), model)
    index = ClientIndex(scan, [])
    info = index.file("src/testing/prisma-mock.ts")
    assert info is not None
    assert info.mocked == {"../db"}
    assert not index.export_is_client("src/testing/prisma-mock.ts", "default")
    assert index.export_is_client("src/db.ts", "default")


def test_a_prisma_project_inside_a_test_folder_is_a_test_source(tmp_path: Path) -> None:
    project = write_project(
        tmp_path / "p",
        {
            "package.json": "{}",
            "src/app.ts": "export const app = 1;\n",
            "src/__tests__/fixture-app/package.json": '{"dependencies": {"prisma": "6.19.0"}}',
            "src/__tests__/fixture-app/schema.prisma": 'datasource db {\n  provider = "sqlite"\n}\n'
            "model job {\n  id Int @id\n}\n",
            "src/__tests__/fixture-app/seed.ts": "export const seed = 1;\n",
        },
    )
    assert document_of(project)["facts"] == []
    included = document_of(project, "--include-tests")["facts"]
    assert {(f["channel"], f.get("method"), f.get("testSource")) for f in included} == {
        ("job", None, True),
        ("job", "id", True),
    }

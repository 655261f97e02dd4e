"""Naming rules replayed against recordings of the real packages (oracle/orm-naming/).

recorded.json holds what inflection 1.13.4, Sequelize 6.37.8, TypeORM 1.1.1 and 0.3.31,
drizzle-orm 0.45.3 and knex 3.3.0 produced for the synthetic declarations of cases.json
(record.mjs). The fixtures typeorm-app, sequelize-app and mixed-packages-app declare the
same entities, models and tables, so their declaration facts must name exactly the
recorded tables and columns (precision and recall 1.0).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.schema.orm.support import case_document
from tests.schema.orm.support import declarations
from tests.schema.orm.support import document_of
from tests.schema.orm.support import recorded
from tests.schema.orm.support import write_project
from tsograph.producers.schema.orm import drizzle
from tsograph.producers.schema.orm import inflection
from tsograph.producers.schema.orm import typeorm_naming

RECORDED = recorded()


@pytest.mark.parametrize("word", sorted(RECORDED["inflection"]["words"]))
def test_inflection_words(word: str) -> None:
    expected = RECORDED["inflection"]["words"][word]
    assert inflection.pluralize(word) == expected["pluralize"] == expected["sequelizePluralize"]
    assert inflection.singularize(word) == expected["singularize"]
    assert expected["singularize"] == expected["sequelizeSingularize"]


@pytest.mark.parametrize("word", sorted(RECORDED["inflection"]["underscore"]))
def test_underscore_and_camelize(word: str) -> None:
    expected = RECORDED["inflection"]["underscore"][word]
    assert inflection.underscore(word) == expected["underscore"]
    assert inflection.camelize(word) == expected["camelize"]


@pytest.mark.parametrize("package", ["typeorm", "typeorm03"])
def test_typeorm_strings(package: str) -> None:
    version03 = package == "typeorm03"
    for text, expected in RECORDED[package]["strings"].items():
        assert typeorm_naming.snake_case(text) == expected["snakeCase"], text
        assert typeorm_naming.camel_case(text) == expected["camelCase"], text
        assert typeorm_naming.title_case(text) == expected["titleCase"], text
        assert typeorm_naming.table_name(text, None, version03=version03) == expected["tableName"]
        empty = typeorm_naming.table_name(text, "", version03=version03)
        assert empty == expected["tableNameEmpty"], text


def test_typeorm_versions_differ_only_on_empty_names() -> None:
    strings_1x = RECORDED["typeorm"]["strings"]
    strings_03 = RECORDED["typeorm03"]["strings"]
    assert all(strings_1x[text]["tableNameEmpty"] == "" for text in strings_1x)
    assert all(
        strings_03[text]["tableNameEmpty"] == strings_03[text]["tableName"] for text in strings_03
    )
    assert RECORDED["typeorm"]["tables"] == RECORDED["typeorm03"]["tables"]


def test_drizzle_casing_functions() -> None:
    for key, expected in RECORDED["drizzle"]["keys"].items():
        assert drizzle.to_snake_case(key) == expected["snake_case"], key
        assert drizzle.to_camel_case(key) == expected["camelCase"], key


@pytest.mark.parametrize("casing", ["none", "snake_case", "camelCase"])
def test_drizzle_keys_become_the_columns_the_query_builder_selects(casing: str) -> None:
    selected = re.findall(r'"((?:[^"]|"")*)"', RECORDED["drizzle"]["selected"][casing])
    keys = [key for key in RECORDED["drizzle"]["keys"] if key]
    option = None if casing == "none" else casing
    expected = [drizzle.convert(option, key) for key in keys] + ["explicit_name", "t"]
    assert selected == expected


def _channel(table: Any) -> str:
    if isinstance(table, dict):
        return (
            f"{table['schema']}.{table['tableName']}" if table.get("schema") else table["tableName"]
        )
    return str(table)


def test_typeorm_fixture_declares_exactly_the_recorded_tables(tmp_path: Path) -> None:
    expected: set[tuple[str, str | None]] = set()
    for table in RECORDED["typeorm"]["tables"].values():
        channel = _channel(table)
        expected.add((channel, None))
        expected.update((channel, column) for column in table["columns"].values())
    document = case_document("typeorm-app", tmp_path)
    assert declarations(document, "src/entities/") == expected


def test_sequelize_fixture_declares_exactly_the_recorded_tables(tmp_path: Path) -> None:
    expected: set[tuple[str, str | None]] = set()
    for model in RECORDED["sequelize"]["tables"].values():
        channel = _channel(model["table"])
        expected.add((channel, None))
        expected.update((channel, column) for column in model["fields"].values())
    for association in RECORDED["sequelize"]["associations"]:
        if association["type"] == "belongsToMany":
            channel = association["throughTable"]
            expected.add((channel, None))
            expected.update((channel, column) for column in association["throughFields"].values())
    document = case_document("sequelize-app", tmp_path)
    assert declarations(document, "src/models/") == expected


def test_drizzle_schema_tables_and_creators_match_get_table_config(tmp_path: Path) -> None:
    document = case_document("mixed-packages-app", tmp_path)
    found = declarations(document, "src/schema.ts")
    schema_table = RECORDED["drizzle"]["tables"]["schemaTable"]
    creator_table = RECORDED["drizzle"]["tables"]["creatorTable"]
    for table in (schema_table, creator_table):
        channel = f"{table['schema']}.{table['name']}" if table["schema"] else table["name"]
        assert (channel, None) in found
        assert {(channel, column) for column in table["columns"]} <= found


def test_knex_aliases_and_schemas_name_the_tables_knex_compiles() -> None:
    sql = RECORDED["knex"]["sql"]
    assert sql['["users as u"]'] == sql['["users AS u"]'] == sql['[{"u":"users"}]']
    assert sql['["users as u"]'] == 'select "id" from "users" as "u"'
    assert sql['["s.users"]'] == 'select "id" from "s"."users"'
    assert sql['withSchema:["users"]'] == 'select "id" from "s"."users"'


def test_drizzle_fixture_declares_exactly_the_columns_drizzle_selects(tmp_path: Path) -> None:
    expected: set[tuple[str, str | None]] = set()
    for table, sql in RECORDED["drizzleD1Fixture"].items():
        selected = re.match(r'select (.*) from "', sql)
        assert selected is not None
        expected.add((table, None))
        expected.update((table, column) for column in re.findall(r'"([^"]+)"', selected.group(1)))
    document = case_document("drizzle-d1-app", tmp_path)
    assert declarations(document, "src/db/") == expected


@pytest.mark.parametrize("label", ["instance", "define", "model"])
def test_sequelize_schema_precedence(label: str, tmp_path: Path) -> None:
    instance = {
        "instance": '{ schema: "inst" }',
        "define": '{ schema: "inst", define: { schema: "def" } }',
        "model": '{ schema: "inst", define: { schema: "def" } }',
    }[label]
    model = '{ schema: "own" }' if label == "model" else "{}"
    project = write_project(
        tmp_path / label,
        {
            "src/m.js": (
                'const { Sequelize, DataTypes } = require("sequelize");\n'
                f'const sequelize = new Sequelize("sqlite::memory:", {instance});\n'
                f'sequelize.define("Invoice", {{ total: DataTypes.INTEGER }}, {model});\n'
            )
        },
    )
    expected = RECORDED["sequelize"]["schemas"][label]
    channels = {fact["channel"] for fact in document_of(project)["facts"]}
    assert channels == {f"{expected['schema']}.{expected['tableName']}"}

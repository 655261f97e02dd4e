"""The one provenance table: what package exports are, for every producer that asks."""

from __future__ import annotations

from tsograph.producers.routes.client.client_libraries import client_export
from tsograph.producers.routes.node import frameworks
from tsograph.producers.values.provenance import PROVENANCE
from tsograph.producers.values.provenance import kind_of


def test_a_hono_app_is_read_with_new_only() -> None:
    # hono@4.13.12: `Hono` is a class, so calling it without `new` throws; @hono/zod-openapi
    # 1.6.3's OpenAPIHono is a subclass of it.
    assert kind_of("hono", "Hono", "new") == "hono"
    assert kind_of("hono", "Hono", "call") is None
    assert [key for key, kind in PROVENANCE.items() if kind == "hono"] == [
        ("hono", "Hono", "new"),
        ("@hono/zod-openapi", "OpenAPIHono", "new"),
    ]


def test_call_or_new_rows_answer_both_uses() -> None:
    assert kind_of("pg", "Pool", "new") == kind_of("pg", "Pool", "call") == "sql"
    assert kind_of("pg", "Pool", "value") is None


def test_clients_are_the_request_functions_themselves() -> None:
    assert client_export("axios", "default") == "axios"
    assert client_export("axios", "") == "axios"  # require("axios")
    assert client_export("ky", "default") == "ky"
    assert client_export("ky", "") is None  # ky is an ES module only
    assert client_export("express", "") is None  # a row of another kind


def test_every_framework_kind_is_constructed_by_exactly_one_framework() -> None:
    made = [kind for framework in frameworks.FRAMEWORKS for kind in framework.makes]
    assert len(made) == len(set(made))
    assert set(made) <= set(PROVENANCE.values())

"""`graph --details`: each edge's call sites, the relations and the declared types.

The details are opt-in, so a snapshot without --details is the one every
golden under fixtures/graph holds; with it, the same nodes and edges gain
`sites`, and `relations` and `types` are added. Goldens compared byte for
byte; regenerate on purpose with TSOGRAPH_REGENERATE=1.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.cli_helpers import REPO
from tests.cli_helpers import tsograph
from tests.golden import assert_matches_golden
from tsograph.exchange.errors import InvalidDocumentError
from tsograph.exchange.validation import validate
from tsograph.producers.graph.snapshot_checks import validate_snapshot

GENERATED_AT = "2026-09-27T00:00:00.000Z"
RELATIONS = REPO / "fixtures" / "graph" / "relations"
SHOP = REPO / "fixtures" / "python-graph" / "shop"


def graph(project: Path, tmp_path: Path, *extra: str) -> dict[str, Any]:
    result = tsograph(
        "graph",
        "--project",
        project,
        "--generated-at",
        GENERATED_AT,
        "--cache-dir",
        tmp_path / "cache",
        *extra,
    )
    assert result.code == 0, result.stderr
    document: dict[str, Any] = orjson.loads(result.stdout)
    validate(document)
    return document


def _relations(document: dict[str, Any]) -> set[tuple[str, str, str, int]]:
    return {
        (item["kind"], item["from"], item["to"], item["site"]["line"])
        for item in document["relations"]
    }


def test_js_details_golden_and_the_plain_snapshot_is_unchanged(tmp_path: Path) -> None:
    plain = graph(RELATIONS, tmp_path)
    detailed = graph(RELATIONS, tmp_path, "--details")
    assert "relations" not in plain and "types" not in plain
    assert all("sites" not in edge for edge in plain["edges"])
    assert plain["graphRevision"] == detailed["graphRevision"]
    stripped = [{k: v for k, v in edge.items() if k != "sites"} for edge in detailed["edges"]]
    assert stripped == plain["edges"]
    assert_matches_golden(
        orjson.dumps(detailed, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n",
        RELATIONS / "expected-details.json",
    )
    lib = "src/lib/repo.ts#"
    assert {
        ("extends", lib + "SqlRepo", lib + "BaseRepo", 16),
        ("extends", lib + "ReadRepo", lib + "Repo", 6),
        ("implements", lib + "BaseRepo", lib + "Repo", 10),
        ("implements", lib + "SqlRepo", lib + "ReadRepo", 16),
        ("overrides", lib + "SqlRepo.save", lib + "BaseRepo.save", 17),
        ("type", "src/lib/service.ts#store", lib + "Repo", 4),
        ("type", "src/lib/service.ts#open", lib + "SqlRepo", 8),
        ("type", "src/lib/service.ts#open", lib + "ReadRepo", 9),
        ("imports", "src/lib/service.ts#<module>", "src/lib/repo.ts#<module>", 1),
        ("imports", "src/lib/service.ts#<module>", "src/lib/repo.ts#<module>", 2),
    } <= _relations(detailed)
    # The candidate edges of `repo.save(item)` through the interface carry its one site.
    sites = {
        (edge["to"], edge["evidence"]): [(s["line"], s["column"]) for s in edge["sites"]]
        for edge in detailed["edges"]
        if edge["from"] == "src/lib/service.ts#store"
    }
    assert sites == {
        (lib + "BaseRepo.save", "candidate"): [(5, 8)],
        (lib + "SqlRepo.save", "candidate"): [(5, 8)],
    }


def test_python_details_golden(tmp_path: Path) -> None:
    detailed = graph(SHOP, tmp_path, "--details")
    assert_matches_golden(
        orjson.dumps(detailed, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n",
        REPO / "fixtures" / "python-graph" / "expected" / "shop-details.json",
    )
    models = "shop/models.py#"
    assert {
        ("extends", models + "Special", models + "Taxed", 40),
        ("extends", models + "Special", models + "Discounted", 40),
        ("overrides", models + "Taxed.price", models + "Priced.price", 21),
        ("type", "shop/service.py#summarize", models + "Order", 8),
    } <= _relations(detailed)


def test_details_are_json_only(tmp_path: Path) -> None:
    result = tsograph(
        "graph", "--project", RELATIONS, "--no-cache", "--details", "--format", "ndjson"
    )
    assert result.code == 64
    assert "--details" in result.stderr


@pytest.mark.parametrize(
    ("change", "pointer"),
    [
        (lambda d: d["relations"][0].update({"to": "src/x.ts#Nothing"}), "/relations/0/to"),
        (lambda d: d["types"].append(dict(d["types"][0])), "/types/2/id"),
        (lambda d: d["edges"][0]["sites"].append(d["edges"][0]["sites"][0]), "/edges/"),
        (lambda d: d["relations"][0].update({"kind": "calls"}), "/relations/0/kind"),
    ],
)
def test_validation_rejects_broken_details(tmp_path: Path, change: Any, pointer: str) -> None:
    document = graph(RELATIONS, tmp_path, "--details")
    document["edges"] = [edge for edge in document["edges"] if "sites" in edge]
    change(document)
    with pytest.raises(InvalidDocumentError) as error:
        validate_snapshot(document)
    assert (error.value.pointer or "").startswith(pointer)

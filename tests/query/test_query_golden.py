"""Golden answers of `tsograph query` on the graph fixtures, compared byte for byte.

Each case runs the command line with --no-cache (so `graph.mode` is always
"built") and compares stdout with fixtures/query/<case>.json (or .txt for
the readable form). Regenerate on purpose with TSOGRAPH_REGENERATE=1.
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.cli_helpers import REPO
from tests.cli_helpers import tsograph
from tests.golden import assert_matches_golden

GOLDEN = REPO / "fixtures" / "query"
GRAPHS = REPO / "fixtures" / "graph"

# (golden name, graph fixture, question words, exit code)
CASES = [
    ("basics-status", "basics", ["status"], 0),
    ("basics-capabilities", "basics", ["capabilities"], 0),
    ("basics-search", "basics", ["search", "job"], 0),
    ("basics-symbol", "basics", ["symbol", "listJobs"], 0),
    ("basics-symbol-line", "basics", ["symbol", "src/lib/jobs.ts:8"], 0),
    ("basics-callers", "basics", ["callers", "listJobs"], 0),
    ("basics-callers-depth", "basics", ["callers", "listJobs", "--depth", "3"], 0),
    ("basics-callers-page1", "basics", ["callers", "listJobs", "--depth", "2", "--limit", "2"], 0),
    ("basics-callers-tokens", "basics", ["callers", "listJobs", "--tokens", "150"], 0),
    ("basics-callers-ambiguous", "basics", ["callers", "save"], 0),
    ("basics-callers-class-method", "basics", ["callers", "Repo.save"], 0),
    ("basics-callers-unknown", "basics", ["callers", "nope"], 2),
    ("basics-callees", "basics", ["callees", "listJobs", "--depth", "2"], 0),
    ("basics-routes", "basics", ["routes"], 0),
    ("basics-routes-handler", "basics", ["routes", "listJobs"], 0),
    ("basics-path", "basics", ["path", "JobList", "all"], 0),
    ("basics-impact", "basics", ["impact", "listJobs"], 0),
    ("basics-outline", "basics", ["outline", "src/lib/jobs.ts"], 0),
    ("basics-packages", "basics", ["packages"], 0),
    ("basics-cycles", "basics", ["cycles"], 0),
    ("basics-unknowns", "basics", ["unknowns", "--file", "src/components/JobList.tsx"], 0),
    ("basics-implementers", "basics", ["implementers", "Repo"], 0),
    ("relations-implementers", "relations", ["implementers", "Repo"], 0),
    ("relations-implementers-class", "relations", ["implementers", "BaseRepo"], 0),
    ("relations-implementers-method", "relations", ["implementers", "BaseRepo.save"], 0),
    ("relations-implementers-member", "relations", ["implementers", "Repo.save"], 0),
    ("relations-implementers-depth", "relations", ["implementers", "Repo", "--depth", "1"], 0),
    ("relations-references-type", "relations", ["references", "SqlRepo"], 0),
    ("relations-references-interface", "relations", ["references", "ReadRepo"], 0),
    ("relations-references-value", "relations", ["references", "open"], 0),
    ("relations-tests", "relations", ["tests", "SqlRepo.find"], 0),
    ("relations-importers", "relations", ["importers", "src/lib/repo.ts"], 0),
    ("relations-importers-unknown", "relations", ["importers", "src/lib/none.ts"], 2),
    ("relations-callers-sites", "relations", ["callers", "open"], 0),
    # `as`, `<T>`, `satisfies` and `instanceof` (a type use, and a value use of the class).
    ("casts-references", "casts", ["references", "Circle"], 0),
    ("casts-references-local", "casts", ["references", "Local"], 0),
    # Python: every question on the Python graph fixtures.
    ("py-status", "py:shop", ["status"], 0),
    ("py-capabilities", "py:shop", ["capabilities"], 0),
    ("py-search", "py:shop", ["search", "price"], 0),
    ("py-symbol", "py:shop", ["symbol", "Order.total"], 0),
    ("py-symbol-line", "py:shop", ["symbol", "shop/models.py:21"], 0),
    ("py-callers", "py:shop", ["callers", "Priced.price", "--depth", "2"], 0),
    ("py-callers-page1", "py:shop", ["callers", "Priced.price", "--depth", "2", "--limit", "2"], 0),
    (
        "py-callers-tokens",
        "py:shop",
        ["callers", "Priced.price", "--depth", "2", "--tokens", "120"],
        0,
    ),
    ("py-callers-ambiguous", "py:shop", ["callers", "price"], 0),
    ("py-callers-unknown", "py:shop", ["callers", "nothing_here"], 2),
    ("py-callees", "py:shop", ["callees", "summarize"], 0),
    ("py-implementers", "py:shop", ["implementers", "Priced"], 0),
    ("py-implementers-method", "py:shop", ["implementers", "Priced.price"], 0),
    ("py-references", "py:shop", ["references", "Order"], 0),
    ("py-routes", "py:shop", ["routes"], 0),
    ("py-tests", "py:pytests", ["tests", "twice"], 0),
    ("py-tests-tier", "py:pytests", ["tests", "twice", "--tier", "direct"], 0),
    ("py-path", "py:shop", ["path", "main", "Priced.price"], 0),
    ("py-impact", "py:shop", ["impact", "Priced.price"], 0),
    ("py-importers", "py:shop", ["importers", "shop/models.py"], 0),
    ("py-outline", "py:shop", ["outline", "shop/models.py"], 0),
    ("py-packages", "py:shop", ["packages"], 0),
    ("py-cycles", "py:shop", ["cycles"], 0),
    ("py-unknowns", "py:shop", ["unknowns"], 0),
    ("basics-outline-parent", "basics", ["outline", "../basics"], 2),
    ("dispatch-callers-tiers", "dispatch", ["callers", "SqlItemStore.findItem"], 0),
    (
        "dispatch-callers-direct",
        "dispatch",
        ["callers", "SqlItemStore.findItem", "--tier", "direct"],
        0,
    ),
    ("dispatch-impact", "dispatch", ["impact", "SqlItemStore.saveItem"], 0),
]


PYTHON_PROJECTS = {
    "shop": REPO / "fixtures" / "python-graph" / "shop",
    "pytests": REPO / "fixtures" / "query" / "projects" / "pytests",
}


# JavaScript projects that only the query goldens read (no graph golden of their own).
QUERY_PROJECTS = {"casts": REPO / "fixtures" / "query" / "projects" / "casts"}


def ask(graph: str, *words: str) -> tuple[int, bytes, str]:
    if graph.startswith("py:"):
        project = PYTHON_PROJECTS[graph[3:]]
    else:
        project = QUERY_PROJECTS.get(graph, GRAPHS / graph)
    result = tsograph("query", *words, "--project", project, "--no-cache")
    return result.code, result.stdout, result.stderr


@pytest.mark.parametrize(("name", "graph", "words", "code"), CASES, ids=[c[0] for c in CASES])
def test_json_answer_matches_golden(name: str, graph: str, words: list[str], code: int) -> None:
    exit_code, stdout, stderr = ask(graph, *words, "--json")
    assert exit_code == code, stderr
    if code == 2:
        # One line on stderr, and the same refusal as a document.
        assert stderr.count("\n") == 1 and stderr.startswith("tsograph: query ")
        assert orjson.loads(stdout)["error"]["message"] in stderr
    assert_matches_golden(stdout, GOLDEN / f"{name}.json")


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("basics-callers", ["callers", "listJobs"]),
        ("basics-callers-ambiguous", ["callers", "save"]),
        ("basics-capabilities", ["capabilities"]),
    ],
)
def test_readable_answer_matches_golden(name: str, words: list[str]) -> None:
    exit_code, stdout, stderr = ask("basics", *words)
    assert exit_code == 0, stderr
    assert_matches_golden(stdout, GOLDEN / f"{name}.txt")


def test_cursor_reads_the_next_page_and_the_pages_make_the_whole_list() -> None:
    words = ["callers", "listJobs", "--depth", "2"]
    _, whole, _ = ask("basics", *words, "--json")
    _, first, _ = ask("basics", *words, "--limit", "2", "--json")
    cursor = orjson.loads(first)["truncated"]["cursor"]
    assert cursor is not None
    code, second, stderr = ask("basics", *words, "--limit", "2", "--cursor", cursor, "--json")
    assert code == 0, stderr
    assert_matches_golden(second, GOLDEN / "basics-callers-page2.json")
    pages = orjson.loads(first)["items"] + orjson.loads(second)["items"]
    cursor = orjson.loads(second)["truncated"]["cursor"]
    while cursor is not None:
        _, page, _ = ask("basics", *words, "--limit", "2", "--cursor", cursor, "--json")
        pages += orjson.loads(page)["items"]
        cursor = orjson.loads(page)["truncated"]["cursor"]
    assert pages == orjson.loads(whole)["items"]
    assert orjson.loads(second)["counts"] == orjson.loads(whole)["counts"]


def test_token_cut_keeps_the_counts_and_its_cursor_goes_on() -> None:
    _, cut, _ = ask("basics", "callers", "listJobs", "--tokens", "150", "--json")
    document = orjson.loads(cut)
    assert document["truncated"]["by"] == "tokens"
    assert document["truncated"]["omittedExact"] is True
    assert len(document["items"]) + document["truncated"]["omitted"] == document["total"]
    code, rest, _ = ask(
        "basics", "callers", "listJobs", "--cursor", document["truncated"]["cursor"], "--json"
    )
    assert code == 0
    assert len(orjson.loads(rest)["items"]) == document["truncated"]["omitted"]


def test_cursor_of_another_question_is_refused() -> None:
    _, first, _ = ask("basics", "callers", "listJobs", "--limit", "1", "--json")
    cursor = orjson.loads(first)["truncated"]["cursor"]
    code, _, stderr = ask("basics", "callees", "listJobs", "--cursor", cursor)
    assert code == 2
    assert "another question" in stderr


@pytest.mark.parametrize(
    "words",
    [
        ["callers", "listJobs", "--depth", "4"],
        ["callers", "listJobs", "--limit", "501"],
        ["callers", "listJobs", "--tier", "sure"],
        ["status", "--depth", "2"],
    ],
)
def test_usage_errors_exit_64(words: list[str], tmp_path: Path) -> None:
    code, stdout, stderr = ask("basics", *words)
    assert code == 64, stderr
    assert stdout == b""

"""The `tsograph openapi` rules under "Input safety" that need no large input.

The inputs that are large or built to exhaust resources run in a subprocess
with time and memory measured, in test_hostile_inputs.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.openapi.support import SERVICE
from tests.openapi.support import facts_of
from tests.openapi.support import invoke
from tests.openapi.support import routes
from tests.openapi.support import run_spec
from tests.openapi.support import write_spec
from tsograph.exchange import writer
from tsograph.producers.openapi import parsing

HEADER_30 = 'openapi: 3.0.3\ninfo: {title: t, version: "1"}\n'


def rejected(tmp_path: Path, spec: str | bytes, name: str = "openapi.yaml") -> str:
    """Run a spec that must fail with exit 2; returns the one stderr line."""
    result = run_spec(tmp_path, spec, name)
    assert (result.code, result.stdout) == (2, b""), result.stderr
    assert result.stderr.count("\n") == 1
    return result.stderr


# Duplicate keys where they could change facts: rejected.

ROUTE_BEARING_DUPLICATES = {
    "root-key": HEADER_30 + "paths: {}\npaths: {/a: {get: {}}}\n",
    "version-key": HEADER_30 + "openapi: 3.1.0\npaths: {}\n",
    "paths-key": HEADER_30 + "paths:\n  /a: {get: {}}\n  /a: {put: {}}\n",
    "path-item-key": HEADER_30 + "paths:\n  /a:\n    get: {}\n    get: {}\n",
    "path-item-summary": HEADER_30 + "paths:\n  /a:\n    summary: x\n    summary: y\n",
    "ref-target-key": HEADER_30
    + ("paths:\n  /a: {$ref: '#/x-items/a'}\nx-items:\n  a:\n    get: {}\n    get: {}\n"),
    "operation-id": HEADER_30
    + "paths:\n  /a:\n    get:\n      operationId: a\n      operationId: b\n",
    "operation-servers": HEADER_30
    + ("paths:\n  /a:\n    get:\n      servers: [{url: /x}]\n      servers: [{url: /y}]\n"),
    "server-object-key": HEADER_30
    + ("servers:\n  - url: /x\n    url: /y\npaths: {/a: {get: {}}}\n"),
    "server-variables-key": HEADER_30
    + (
        "servers:\n  - url: '/{v}'\n    variables:\n      v: {default: a}\n      v: {default: b}\n"
        "paths: {/a: {get: {}}}\n"
    ),
    "server-variable-key": HEADER_30
    + (
        "servers:\n  - url: '/{v}'\n    variables:\n"
        "      v:\n        default: a\n        default: b\n"
        "paths: {/a: {get: {}}}\n"
    ),
    "ref-pointer-key": HEADER_30
    + ("paths:\n  /a: {$ref: '#/x-items/a'}\nx-items:\n  a: {get: {}}\n  a: {put: {}}\n"),
}


@pytest.mark.parametrize("spec", ROUTE_BEARING_DUPLICATES.values(), ids=ROUTE_BEARING_DUPLICATES)
def test_duplicate_key_in_route_bearing_section_is_rejected(tmp_path: Path, spec: str) -> None:
    message = rejected(tmp_path, spec)
    assert "repeats a mapping key at line" in message and "remove the duplicate" in message


def test_duplicate_json_key_in_a_path_item_is_rejected(tmp_path: Path) -> None:
    spec = '{"openapi": "3.0.3", "paths": {"/a": {"get": {}, "get": {"operationId": "x"}}}}'
    assert "at line 1" in rejected(tmp_path, spec, "openapi.json")


def test_duplicate_keys_elsewhere_are_ignored_first_wins_with_limitation(tmp_path: Path) -> None:
    spec = HEADER_30 + (
        "x-meta: {a: 1, a: 2}\n"
        "paths:\n"
        "  /a:\n"
        "    get:\n"
        "      operationId: one\n"
        "      responses: {'200': {description: a}, '200': {description: b}}\n"
        "components: {schemas: {A: {type: object}, A: {type: string}}}\n"
    )
    document = run_spec(tmp_path, spec).document()
    assert routes(document["facts"]) == {("GET", "/a", "root")}
    assert document["limitations"] == [
        "duplicate-mapping-keys: 3 duplicate key(s) outside route-bearing sections were "
        "ignored (first at line 3)"
    ]


def test_duplicate_key_inside_an_unused_ref_target_is_ignored(tmp_path: Path) -> None:
    spec = HEADER_30 + (
        "paths: {/a: {$ref: '#/x-items/used'}}\n"
        "x-items:\n  used: {get: {}}\n  unused: {get: {}, get: {}}\n"
    )
    document = run_spec(tmp_path, spec).document()
    assert document["limitations"][0].startswith("duplicate-mapping-keys: 1 ")


def test_first_occurrence_of_an_ignored_duplicate_wins(tmp_path: Path) -> None:
    spec = HEADER_30 + (
        "paths: {/a: {$ref: '#/x-items/a/0'}}\n"
        "x-items: {a: [{get: {operationId: first}}], b: 1, b: 2}\n"
    )
    [fact] = facts_of(tmp_path, spec)
    assert fact["operationId"] == "first"


# Keys YAML allows and tsograph rejects.


def test_alias_mapping_key_is_rejected(tmp_path: Path) -> None:
    spec = HEADER_30 + "x-name: &name get\npaths:\n  /a:\n    *name : {}\n"
    assert "uses an alias as a mapping key (at line 6, column 5)" in rejected(tmp_path, spec)


@pytest.mark.parametrize("key", ["[a, b]", "{a: b}", "? [a]\n    "])
def test_collection_mapping_key_is_rejected(tmp_path: Path, key: str) -> None:
    spec = HEADER_30 + f"paths:\n  /a:\n    {key}: {{}}\n"
    assert "uses a sequence or mapping as a mapping key" in rejected(tmp_path, spec)


@pytest.mark.parametrize("key", ["<<", "!!merge <<", "!!merge x"])
def test_merge_key_is_rejected(tmp_path: Path, key: str) -> None:
    spec = HEADER_30 + f"x-base: &base {{get: {{}}}}\npaths:\n  /a:\n    {key}: *base\n"
    assert "uses a YAML merge key (<<)" in rejected(tmp_path, spec)


def test_quoted_merge_spelling_is_an_ordinary_key(tmp_path: Path) -> None:
    spec = HEADER_30 + "paths:\n  /a:\n    '<<': {}\n    get: {}\n"
    assert routes(facts_of(tmp_path, spec)) == {("GET", "/a", "root")}


# Aliases and tags.


def test_aliases_are_followed(tmp_path: Path) -> None:
    spec = HEADER_30 + (
        "x-servers: &servers [{url: /v1}]\n"
        "x-item: &item {get: {operationId: shared, servers: *servers}}\n"
        "paths:\n  /a: *item\n  /b: *item\n"
    )
    facts = facts_of(tmp_path, spec)
    assert routes(facts) == {("GET", "/v1/a", "root"), ("GET", "/v1/b", "root")}
    assert {fact["location"]["line"] for fact in facts} == {4}


def test_alias_before_its_anchor_is_complete_is_rejected(tmp_path: Path) -> None:
    spec = HEADER_30 + "paths: &paths\n  /a: *paths\n"
    assert "uses an alias with no complete anchor before it" in rejected(tmp_path, spec)


def test_alias_to_an_unknown_anchor_is_rejected(tmp_path: Path) -> None:
    assert "no complete anchor" in rejected(tmp_path, HEADER_30 + "paths: *nowhere\n")


def test_custom_tags_are_never_executed(tmp_path: Path) -> None:
    marker = tmp_path / "executed"
    spec = HEADER_30 + (
        f"x-run: !!python/object/apply:os.system ['touch {marker}']\n"
        "x-new: !!python/object/new:builtins.ValueError [boom]\n"
        "paths:\n"
        "  /a: !!python/object/apply:os.system\n"
        "    get: {operationId: !!python/name:os.system x}\n"
        "  /b: {get: {operationId: !!str plain}}\n"
    )
    document = run_spec(tmp_path / "project", spec).document()
    assert not marker.exists()
    assert {(fact["channel"], fact.get("operationId")) for fact in document["facts"]} == {
        ("/a", None),
        ("/b", "plain"),
    }
    assert document["limitations"] == [
        "unsafe-operation-ids: 1 operationId(s) were omitted because they cannot be written "
        "safely (not-a-string: 1)"
    ]


# Documents that are not one mapping.


def test_second_yaml_document_is_reported_with_its_position(tmp_path: Path) -> None:
    spec = HEADER_30 + "paths: {}\n---\n" + HEADER_30 + "paths: {}\n"
    assert "holds a second YAML document (at line 4, column 1)" in rejected(tmp_path, spec)


def test_document_end_marker_alone_is_one_document(tmp_path: Path) -> None:
    spec = "---\n" + HEADER_30 + "paths: {/a: {get: {}}}\n...\n"
    assert routes(facts_of(tmp_path, spec)) == {("GET", "/a", "root")}


@pytest.mark.parametrize("spec", ["", "# only a comment\n", "\n\n"])
def test_empty_spec_is_rejected(tmp_path: Path, spec: str) -> None:
    assert "is empty" in rejected(tmp_path, spec)


@pytest.mark.parametrize("spec", ["[]", "- a\n", "just text\n", "---\n"])
def test_top_level_that_is_not_a_mapping_is_rejected(tmp_path: Path, spec: str) -> None:
    assert "the top level is not a mapping" in rejected(tmp_path, spec)


@pytest.mark.parametrize(
    "header",
    [
        "openapi: 3.2.0\n",
        "openapi: 3.0\n",
        "swagger: '1.2'\n",
        "info: {}\n",
        "swagger: '2.0'\nopenapi: 3.0.3\n",
    ],
    ids=["openapi-3.2", "openapi-3.0-float", "swagger-1.2", "missing", "both"],
)
def test_unsupported_or_missing_version_is_rejected(tmp_path: Path, header: str) -> None:
    message = rejected(tmp_path, header + "paths: {}\n")
    assert "swagger" in message and "openapi" in message


def test_unquoted_swagger_version_is_accepted(tmp_path: Path) -> None:
    assert routes(facts_of(tmp_path, "swagger: 2.0\npaths: {/a: {get: {}}}\n")) == {
        ("GET", "/a", "root")
    }


# Encodings.


def test_invalid_utf8_is_reported_with_line_and_column(tmp_path: Path) -> None:
    message = rejected(tmp_path, HEADER_30.encode() + b"paths: {/\xff: {get: {}}}\n")
    assert "is not valid UTF-8 (first bad byte at line 3, column 10)" in message


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-32"])
def test_utf16_and_utf32_are_rejected(tmp_path: Path, codec: str) -> None:
    spec = (HEADER_30 + "paths: {}\n").encode(codec)
    assert "is not UTF-8" in rejected(tmp_path, spec)


# JSON and YAML readers.


def test_json_with_keys_yaml_cannot_read_is_read_as_json(tmp_path: Path) -> None:
    long_key = "/" + "k" * 1500
    spec = (
        '{"openapi": "3.0.3", "info": {"title": "\\ud83d\\ude00"},\n'
        f' "paths": {{"{long_key}"\n : {{"get": {{}}}}}}}}'
    )
    assert routes(facts_of(tmp_path, spec, "openapi.json")) == {("GET", long_key, "root")}


def test_json_that_is_not_strict_is_read_as_yaml(tmp_path: Path) -> None:
    spec = '{"openapi": "3.0.3", "paths": {"/a": {"get": {},},},}'
    assert routes(facts_of(tmp_path, spec, "openapi.json")) == {("GET", "/a", "root")}


def test_invalid_json_reports_the_json_error(tmp_path: Path) -> None:
    message = rejected(tmp_path, '{"openapi": "3.0.3",\n "paths": {"/a" {}}}', "openapi.json")
    assert "is not valid JSON at line 2, column 17" in message


def test_invalid_yaml_reports_the_yaml_error(tmp_path: Path) -> None:
    message = rejected(tmp_path, HEADER_30 + "paths: [\n")
    assert "is not valid YAML at line" in message and "fix the syntax" in message


def test_control_character_is_rejected(tmp_path: Path) -> None:
    message = rejected(tmp_path, HEADER_30 + "paths: {/a\x01: {get: {}}}\n")
    assert "holds a character YAML does not allow (line 3, column 11)" in message


# Output limits. The 100,000-fact cap runs as a hostile input; the
# 16 Mi-character cap is lowered here, since reaching the real one takes
# thousands of facts, which the writer validates one by one before rendering.


def test_output_over_the_character_cap_fails_without_a_partial_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = HEADER_30 + "paths: {/a: {get: {}}}\n"
    monkeypatch.setattr(writer, "MAX_OUTPUT_CHARS", 200)
    assert "even without indentation" in rejected(tmp_path, spec)


def test_output_over_the_cap_only_by_indentation_is_written_compact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = HEADER_30 + "paths: {/a: {get: {}}}\n"
    pretty = run_spec(tmp_path / "pretty", spec).stdout
    monkeypatch.setattr(writer, "MAX_OUTPUT_CHARS", len(pretty) - 1)
    compact = run_spec(tmp_path / "compact", spec).stdout
    assert b"\n" not in compact.rstrip(b"\n") and len(compact) < len(pretty)


# Failures of the parser itself.


def test_stack_exhaustion_in_the_parser_exits_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def overflow(*_: object) -> None:
        raise RecursionError

    monkeypatch.setattr(parsing, "compose_yaml", overflow)
    assert "nests too deeply to be read" in rejected(tmp_path, HEADER_30 + "paths: {}\n")


def test_unexpected_error_is_an_internal_error_with_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def defect(*_: object) -> None:
        raise KeyError("spec text that must not be printed")

    monkeypatch.setattr(parsing, "compose_yaml", defect)
    assert rejected(tmp_path, HEADER_30 + "paths: {}\n") == "tsograph: internal error (KeyError)\n"


# Messages.


def test_failure_messages_name_no_absolute_path_and_no_spec_text(tmp_path: Path) -> None:
    secret = "SECRET-VALUE-42"
    spec = HEADER_30 + f"paths:\n  /{secret}:\n    get: {{}}\n    get: {{}}\n"
    message = rejected(tmp_path / "project", spec)
    assert secret not in message and str(tmp_path) not in message
    assert message.startswith("tsograph: openapi.yaml: ")


def test_spec_that_cannot_be_read_exits_2(tmp_path: Path) -> None:
    (tmp_path / "project").mkdir()
    result = invoke(
        "openapi",
        str(tmp_path / "project" / "missing.yaml"),
        "--service",
        SERVICE,
        "--project",
        str(tmp_path / "project"),
    )
    assert (result.code, result.stdout) == (2, b"")
    assert (
        "missing.yaml: no such file; check the spec" in result.stderr
        and str(tmp_path) not in result.stderr
    )


def test_folder_given_as_the_spec_exits_2(tmp_path: Path) -> None:
    write_spec(tmp_path / "project" / "api", HEADER_30)
    result = invoke(
        "openapi",
        str(tmp_path / "project" / "api"),
        "--service",
        SERVICE,
        "--project",
        str(tmp_path / "project"),
    )
    assert (result.code, result.stdout) == (2, b"")
    assert "api: is a folder" in result.stderr

"""The `tsograph openapi` rules under "How facts are built": one test per rule."""

from __future__ import annotations

from pathlib import Path

from tests.openapi.support import facts_of, routes, run_spec

HEADER_30 = 'openapi: 3.0.3\ninfo: {title: t, version: "1"}\n'
HEADER_20 = 'swagger: "2.0"\ninfo: {title: t, version: "1"}\n'


def channels(tmp_path: Path, spec: str) -> set[str]:
    return {fact["channel"] for fact in facts_of(tmp_path, spec)}


def test_document_is_an_openapi_http_server_document(tmp_path: Path) -> None:
    document = run_spec(tmp_path, HEADER_30 + "paths: {/a: {get: {}}}\n").document()
    assert (document["platform"], document["target"], document["roles"]) == (
        "openapi",
        "http",
        ["server"],
    )
    assert document["service"] == "example-api"
    assert [fact["kind"] for fact in document["facts"]] == ["route-contract"]
    assert document["facts"][0]["service"] == "example-api"


def test_one_fact_per_path_and_method(tmp_path: Path) -> None:
    spec = HEADER_30 + "paths:\n  /a: {get: {}, post: {}}\n  /b: {get: {}}\n"
    assert routes(facts_of(tmp_path, spec)) == {
        ("GET", "/a", "root"),
        ("POST", "/a", "root"),
        ("GET", "/b", "root"),
    }


def test_server_path_prefix_is_prepended_and_scheme_host_port_dropped(tmp_path: Path) -> None:
    spec = (
        HEADER_30 + "servers: [{url: 'https://api.example.test:8443/v1'}]\npaths: {/a: {get: {}}}\n"
    )
    assert channels(tmp_path, spec) == {"/v1/a"}


def test_whole_segment_parameter_becomes_empty_braces(tmp_path: Path) -> None:
    assert channels(tmp_path, HEADER_30 + "paths: {'/items/{itemId}': {get: {}}}\n") == {
        "/items/{}"
    }


def test_partial_segment_parameter_keeps_literal_skeleton(tmp_path: Path) -> None:
    spec = HEADER_30 + "paths: {'/files/{name}.json': {get: {}}}\n"
    [fact] = facts_of(tmp_path, spec)
    assert (fact["channel"], fact["dynamic"]) == ("/files/{}.json", False)


def test_segment_with_two_parameters_is_dynamic(tmp_path: Path) -> None:
    [fact] = facts_of(tmp_path, HEADER_30 + "paths: {'/files/{name}.{ext}': {get: {}}}\n")
    assert (fact["channel"], fact["dynamic"]) == ("/files/{}.{}", True)


def test_literals_are_pchar_with_uppercase_escapes(tmp_path: Path) -> None:
    spec = HEADER_30 + "paths: {'/café/a b/x|y/%2f': {get: {}}}\n"
    assert channels(tmp_path, spec) == {"/caf%C3%A9/a%20b/x%7Cy/%2F"}


def test_unreserved_characters_are_never_encoded(tmp_path: Path) -> None:
    spec = HEADER_30 + "paths: {'/%41%7e-._~/a:b@c': {get: {}}}\n"
    assert channels(tmp_path, spec) == {"/A~-._~/a:b@c"}


def test_duplicate_and_trailing_slashes_and_letter_case_are_kept(tmp_path: Path) -> None:
    spec = HEADER_30 + "paths: {/Users//Profile/: {get: {}}}\n"
    assert channels(tmp_path, spec) == {"/Users//Profile/"}


def test_query_and_header_parameters_are_not_part_of_the_channel(tmp_path: Path) -> None:
    spec = HEADER_30 + (
        "paths:\n  /search:\n    get:\n      parameters:\n"
        "        - {name: q, in: query, schema: {type: string}}\n"
        "        - {name: X-Trace, in: header, schema: {type: string}}\n"
    )
    assert channels(tmp_path, spec) == {"/search"}


def test_method_is_the_uppercase_operation_key(tmp_path: Path) -> None:
    spec = HEADER_30 + "paths: {/a: {get: {}, delete: {}, options: {}}}\n"
    assert {fact["method"] for fact in facts_of(tmp_path, spec)} == {"GET", "DELETE", "OPTIONS"}


def test_method_keys_are_case_sensitive(tmp_path: Path) -> None:
    document = run_spec(
        tmp_path, HEADER_30 + "paths: {/a: {GET: {}, Post: {}, put: {}}}\n"
    ).document()
    assert routes(document["facts"]) == {("PUT", "/a", "root")}
    assert document["limitations"] == [
        "contract-coverage: 2 spec entry(ies) were skipped and produced no facts "
        "(unknown-path-item-field: 2)"
    ]


def test_trace_is_an_operation_in_3x_only(tmp_path: Path) -> None:
    assert routes(facts_of(tmp_path / "v3", HEADER_30 + "paths: {/a: {trace: {}}}\n")) == {
        ("TRACE", "/a", "root")
    }
    document = run_spec(tmp_path / "v2", HEADER_20 + "paths: {/a: {trace: {}}}\n").document()
    assert document["facts"] == []
    assert "unknown-path-item-field: 1" in document["limitations"][0]


def test_location_is_the_method_key_line_and_byte_column(tmp_path: Path) -> None:
    spec = HEADER_30 + "paths:\n  /a:\n    summary: x\n    post: {}\n"
    [fact] = facts_of(tmp_path, spec)
    assert fact["location"] == {"path": "openapi.yaml", "line": 6, "column": 5}


def test_multibyte_characters_count_as_their_utf8_length(tmp_path: Path) -> None:
    spec = HEADER_30 + "paths: {/é€: {get: {}}}\n"
    [fact] = facts_of(tmp_path, spec)
    line = spec.splitlines()[2].encode()
    assert fact["location"]["column"] == line.index(b"get") + 1 == 18


def test_escapes_before_the_key_count_as_written_bytes_in_json(tmp_path: Path) -> None:
    spec = (
        '{"openapi": "3.0.3", "info": {"title": "\\u0041\\"\\n", "version": "1"}, '
        '"paths": {"/\\u00e9": {"get": {}}}}'
    )
    [fact] = facts_of(tmp_path, spec, "openapi.json")
    assert fact["channel"] == "/%C3%A9"
    assert fact["location"]["column"] == spec.encode().index(b'"get"') + 1


def test_escapes_before_the_key_count_as_written_bytes_in_yaml(tmp_path: Path) -> None:
    spec = HEADER_30 + 'paths: {"/\\u00e9\\"\\x41": {"get": {}}}\n'
    [fact] = facts_of(tmp_path, spec)
    line = spec.splitlines()[2].encode()
    assert fact["channel"] == "/%C3%A9%22A"
    assert fact["location"] == {
        "path": "openapi.yaml",
        "line": 3,
        "column": line.index(b'"get"') + 1,
    }


def test_leading_byte_order_mark_is_not_counted(tmp_path: Path) -> None:
    spec = b'\xef\xbb\xbf{"openapi": "3.0.3", "info": {}, "paths": {"/a": {"get": {}}}}'
    [fact] = facts_of(tmp_path, spec, "openapi.json")
    assert fact["location"]["column"] == spec.index(b'"get"') + 1 - 3


def test_crlf_and_cr_end_lines(tmp_path: Path) -> None:
    spec = HEADER_30.replace("\n", "\r\n") + "paths:\r\n  /a:\r\n    get: {}\r\n"
    [fact] = facts_of(tmp_path, spec)
    assert (fact["location"]["line"], fact["location"]["column"]) == (5, 5)


def test_operation_id_is_written_as_operation_id_and_qualified_name(tmp_path: Path) -> None:
    spec = HEADER_30 + "paths: {/a: {get: {operationId: listA}, post: {}}}\n"
    by_method = {fact["method"]: fact for fact in facts_of(tmp_path, spec)}
    assert by_method["GET"]["operationId"] == "listA"
    assert by_method["GET"]["symbol"] == {"qualifiedName": "listA"}
    assert "operationId" not in by_method["POST"] and "symbol" not in by_method["POST"]


def test_server_precedence_operation_over_path_item_over_root(tmp_path: Path) -> None:
    spec = HEADER_30 + (
        "servers: [{url: /root}]\n"
        "paths:\n"
        "  /a:\n"
        "    servers: [{url: /item}]\n"
        "    get: {servers: [{url: /op}]}\n"
        "    put: {}\n"
        "  /b: {get: {}}\n"
    )
    assert routes(facts_of(tmp_path, spec)) == {
        ("GET", "/op/a", "root"),
        ("PUT", "/item/a", "root"),
        ("GET", "/root/b", "root"),
    }


def test_default_server_is_slash(tmp_path: Path) -> None:
    assert channels(tmp_path, HEADER_30 + "paths: {/a: {get: {}}}\n") == {"/a"}


def test_empty_servers_array_counts_as_absent(tmp_path: Path) -> None:
    spec = HEADER_30 + (
        "servers: [{url: /root}]\npaths:\n  /a:\n    servers: []\n    get: {servers: []}\n"
    )
    assert channels(tmp_path, spec) == {"/root/a"}

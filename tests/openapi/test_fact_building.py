"""The `tsograph openapi` rules under "How facts are built": one test per rule."""

from __future__ import annotations

from pathlib import Path

from tests.openapi.support import facts_of
from tests.openapi.support import routes
from tests.openapi.support import run_spec

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


# Path keys with a query or a fragment (box-openapi writes `/oauth2/token#refresh`
# beside `/oauth2/token`): a request never carries the `#` tail to the server, and
# the `?` tail is the query, so the channel is the part before either.


def test_fragment_and_query_tails_of_a_path_key_are_not_part_of_the_channel(
    tmp_path: Path,
) -> None:
    spec = HEADER_30 + (
        "paths:\n  '/a#tail': {put: {}}\n  '/b?x=1': {get: {}}\n  '/c?q#f': {post: {}}\n"
    )
    assert routes(facts_of(tmp_path, spec)) == {
        ("PUT", "/a", "root"),
        ("GET", "/b", "root"),
        ("POST", "/c", "root"),
    }


def test_hash_inside_a_parameter_name_does_not_cut_the_key(tmp_path: Path) -> None:
    spec = HEADER_30 + "paths: {'/a/{x#y}/b': {get: {}}}\n"
    assert channels(tmp_path, spec) == {"/a/{}/b"}


def test_keys_folding_to_one_method_and_channel_give_one_fact_the_plain_key_wins(
    tmp_path: Path,
) -> None:
    spec = HEADER_30 + (
        "paths:\n"
        "  '/token#refresh':\n"
        "    post: {operationId: refreshToken}\n"
        "  /token:\n"
        "    post: {operationId: requestToken}\n"
        "    get: {}\n"
    )
    document = run_spec(tmp_path, spec).document()
    posts = [fact for fact in document["facts"] if fact["method"] == "POST"]
    assert [(f["channel"], f["operationId"], f["location"]["line"]) for f in posts] == [
        ("/token", "requestToken", 7)
    ]
    assert document["limitations"] == [
        "contract-coverage: 1 operation(s) share a method and channel with another operation "
        "and were folded into its fact (path-key-query-or-fragment: 1)"
    ]


def test_tails_folding_without_a_plain_key_keep_the_first_in_spec_order(tmp_path: Path) -> None:
    spec = HEADER_30 + (
        "servers: [{url: /v1}, {url: /v2}]\n"
        "paths:\n"
        "  '/schema#add':\n"
        "    put: {operationId: add}\n"
        "  '/schema#update':\n"
        "    put: {operationId: update}\n"
    )
    document = run_spec(tmp_path, spec).document()
    assert [(f["channel"], f["operationId"]) for f in document["facts"]] == [
        ("/v1/schema", "add"),
        ("/v2/schema", "add"),
    ]
    # One folded fact per server prefix: two facts were not written.
    assert document["limitations"] == [
        "contract-coverage: 2 operation(s) share a method and channel with another operation "
        "and were folded into its fact (path-key-query-or-fragment: 2)"
    ]


def test_two_keys_of_one_template_give_one_fact_the_first_wins(tmp_path: Path) -> None:
    spec = HEADER_30 + (
        "paths:\n  '/a/{x}':\n    get: {operationId: first}\n"
        "  '/a/{y}':\n    get: {operationId: second}\n"
    )
    document = run_spec(tmp_path, spec).document()
    assert [(f["channel"], f["operationId"]) for f in document["facts"]] == [("/a/{}", "first")]
    assert document["limitations"] == [
        "contract-coverage: 1 operation(s) share a method and channel with another operation "
        "and were folded into its fact (same-template: 1)"
    ]


def test_one_operation_under_two_servers_of_one_prefix_is_not_a_fold(tmp_path: Path) -> None:
    spec = HEADER_30 + (
        "servers: [{url: 'https://a.test/v1'}, {url: 'https://b.test/v1'}]\n"
        "paths: {/a: {get: {}}}\n"
    )
    document = run_spec(tmp_path, spec).document()
    assert len(document["facts"]) == 1 and document["limitations"] == []

"""The `tsograph openapi` rules under "Fail-closed decisions": one test per rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.openapi.support import facts_of
from tests.openapi.support import limitations_of
from tests.openapi.support import routes
from tests.openapi.support import run_spec

HEADER_30 = 'openapi: 3.0.3\ninfo: {title: t, version: "1"}\n'
HEADER_31 = 'openapi: 3.1.0\ninfo: {title: t, version: "1"}\n'
HEADER_20 = 'swagger: "2.0"\ninfo: {title: t, version: "1"}\n'


def served(tmp_path: Path, servers: str, path: str = "/a") -> set[tuple[str, str]]:
    """(channel, pathAnchor) of a GET on `path` under the given `servers:` YAML."""
    spec = HEADER_30 + f"servers:\n{servers}\npaths: {{'{path}': {{get: {{}}}}}}\n"
    return {(fact["channel"], fact["pathAnchor"]) for fact in facts_of(tmp_path, spec)}


def unresolved(tmp_path: Path, servers: str) -> list[str]:
    spec = HEADER_30 + f"servers:\n{servers}\npaths: {{/a: {{get: {{}}}}}}\n"
    return [
        line
        for line in limitations_of(tmp_path, spec)
        if line.startswith("unresolved-contract-servers:")
    ]


def one_server(url: str, **defaults: str) -> str:
    lines = [f"  - url: '{url}'"]
    if defaults:
        lines.append("    variables:")
        lines.extend(f"      {name}: {{default: '{value}'}}" for name, value in defaults.items())
    return "\n".join(lines)


# Server variables in the path.


def test_enum_variable_expands_to_one_fact_per_value(tmp_path: Path) -> None:
    servers = (
        "  - url: https://h/{v}/{r}\n    variables:\n"
        "      v: {enum: [v1, v2], default: v1}\n      r: {enum: [eu, us], default: eu}"
    )
    assert served(tmp_path, servers) == {
        ("/v1/eu/a", "root"),
        ("/v1/us/a", "root"),
        ("/v2/eu/a", "root"),
        ("/v2/us/a", "root"),
    }


def test_256_enum_combinations_are_expanded(tmp_path: Path) -> None:
    values = ", ".join(f"'{index}'" for index in range(16))
    servers = (
        f"  - url: https://h/{{x}}/{{y}}\n    variables:\n"
        f"      x: {{enum: [{values}], default: '0'}}\n      y: {{enum: [{values}], default: '0'}}"
    )
    result = served(tmp_path, servers)
    assert len(result) == 256 and all(anchor == "root" for _, anchor in result)


def test_more_than_256_enum_combinations_fail_closed_to_base(tmp_path: Path) -> None:
    x_values = ", ".join(f"'{index}'" for index in range(16))
    y_values = ", ".join(f"'{index}'" for index in range(17))
    servers = (
        f"  - url: https://h/{{x}}/{{y}}\n    variables:\n"
        f"      x: {{enum: [{x_values}], default: '0'}}\n"
        f"      y: {{enum: [{y_values}], default: '0'}}"
    )
    assert served(tmp_path / "facts", servers) == {("/a", "base")}
    assert unresolved(tmp_path / "limits", servers) == [
        "unresolved-contract-servers: 1 server URL(s) or base path(s) could not be resolved "
        "to a fixed path prefix, so their facts are anchored to the base "
        "(too-many-combinations: 1)"
    ]


def test_open_path_variable_is_base_with_literal_tail(tmp_path: Path) -> None:
    servers = one_server("https://h/{version}/api/", version="v1")
    assert served(tmp_path / "facts", servers) == {("/api/a", "base")}
    assert unresolved(tmp_path / "limits", servers) == [
        "unresolved-contract-servers: 1 server URL(s) or base path(s) could not be resolved "
        "to a fixed path prefix, so their facts are anchored to the base (open-path-variable: 1)"
    ]


def test_open_variable_inside_a_segment_keeps_the_tail_from_the_next_slash(tmp_path: Path) -> None:
    assert served(tmp_path, one_server("https://h/v{n}x/api", n="1")) == {("/api/a", "base")}


def test_undeclared_variable_is_base(tmp_path: Path) -> None:
    assert served(tmp_path, "  - url: https://h/{missing}/api") == {("/a", "base")}


def test_leading_variable_without_authority_is_base(tmp_path: Path) -> None:
    servers = one_server("{base}/v1", base="https://h")
    assert served(tmp_path / "facts", servers) == {("/v1/a", "base")}
    assert "(leading-variable: 1)" in unresolved(tmp_path / "limits", servers)[0]


# Open variables in the host.


def test_variable_inside_host_label_stays_root(tmp_path: Path) -> None:
    servers = one_server("https://{tenant}.example.com/api", tenant="acme")
    assert served(tmp_path / "facts", servers) == {("/api/a", "root")}
    assert unresolved(tmp_path / "limits", servers) == []


def test_variable_inside_host_label_after_double_slash_stays_root(tmp_path: Path) -> None:
    assert served(tmp_path, one_server("//api-{env}.example.com/api", env="prod")) == {
        ("/api/a", "root")
    }


def test_host_variable_needs_a_literal_scheme_or_double_slash(tmp_path: Path) -> None:
    assert served(tmp_path, one_server("{tenant}.example.com/api", tenant="acme")) == {
        ("/api/a", "base")
    }


@pytest.mark.parametrize(
    ("url", "defaults", "cause"),
    [
        ("https://api{env}/x", {"env": ""}, "host-variable"),
        ("https://{host}/x", {"host": "api.example.com"}, "host-variable"),
        ("https://{host}:8080/x", {"host": "api.example.com"}, "host-variable"),
        ("https://h:{port}/x", {"port": "8080"}, "port-variable"),
        ("https://{user}@h/x", {"user": "demo"}, "userinfo-variable"),
        ("https://demo@{tenant}.h/x", {"tenant": "acme"}, "userinfo-variable"),
        ("{scheme}://h/x", {"scheme": "https"}, "scheme-variable"),
    ],
    ids=[
        "end-of-host",
        "whole-host",
        "whole-host-before-port",
        "port",
        "userinfo",
        "userinfo-elsewhere",
        "scheme",
    ],
)
def test_authority_variables_that_can_reach_the_path_are_base(
    tmp_path: Path, url: str, defaults: dict[str, str], cause: str
) -> None:
    servers = one_server(url, **defaults)
    assert served(tmp_path / "facts", servers) == {("/x/a", "base")}
    assert f"({cause}: 1)" in unresolved(tmp_path / "limits", servers)[0]


@pytest.mark.parametrize("character", ["/", "@", ":", "[", "]"])
def test_host_variable_default_with_a_delimiter_is_base(tmp_path: Path, character: str) -> None:
    servers = one_server("https://{tenant}.example.com/x", tenant=f"a{character}b")
    assert served(tmp_path, servers) == {("/x/a", "base")}


# Relative URLs and ambiguous spellings.


@pytest.mark.parametrize("url", ["v1", "./v1"])
def test_relative_server_urls_are_base(tmp_path: Path, url: str) -> None:
    servers = f"  - url: '{url}'"
    assert served(tmp_path / "facts", servers) == {("/v1/a", "base")}
    assert "(relative-url: 1)" in unresolved(tmp_path / "limits", servers)[0]


def test_absolute_path_server_is_root(tmp_path: Path) -> None:
    assert served(tmp_path, "  - url: /v1") == {("/v1/a", "root")}


@pytest.mark.parametrize(
    "url",
    [
        "https://h/a/../b",
        "https://h/a/./b",
        "https://h/a/%2E%2e/b",
        "https://h\\\\v1",
        "https://h/v1\\t",
        "https://h/\\nv1",
        "https://h/\\rv1",
        "http:/v1",
    ],
    ids=[
        "dot-dot",
        "dot",
        "encoded-dots",
        "backslash",
        "tab",
        "line-feed",
        "carriage-return",
        "scheme-without-slashes",
    ],
)
def test_ambiguous_server_url_spellings_are_base(tmp_path: Path, url: str) -> None:
    servers = f'  - url: "{url}"'
    assert served(tmp_path / "facts", servers) == {("/a", "base")}
    assert "(ambiguous-spelling: 1)" in unresolved(tmp_path / "limits", servers)[0]


@pytest.mark.parametrize("value", ["v1?debug=1", "v1#top"])
def test_open_variable_value_with_query_or_fragment_is_base(tmp_path: Path, value: str) -> None:
    in_host = one_server("https://{t}.example.com/api", t=value)
    in_path = one_server("https://h/{p}/api", p=value)
    assert served(tmp_path / "host", in_host) == {("/a", "base")}
    assert served(tmp_path / "path", in_path) == {("/a", "base")}


# Several servers.


def test_one_fact_per_distinct_server_prefix(tmp_path: Path) -> None:
    servers = (
        "  - url: https://eu.h/v1\n  - url: https://us.h/v1\n  - url: https://h/v2/\n  - url: /v2"
    )
    assert served(tmp_path, servers) == {("/v1/a", "root"), ("/v2/a", "root")}


def test_resolved_and_unresolved_servers_give_root_and_base_facts(tmp_path: Path) -> None:
    servers = "  - url: https://h/v1\n" + one_server("https://h/{stage}/v1", stage="prod")
    assert served(tmp_path, servers) == {("/v1/a", "root"), ("/v1/a", "base")}


# Swagger 2.0 basePath.


def test_swagger2_base_path_prefixes_channels(tmp_path: Path) -> None:
    spec = (
        HEADER_20
        + "host: h.example.com:8080\nschemes: [https]\nbasePath: /api/v2/\npaths: {/a: {get: {}}}\n"
    )
    assert routes(facts_of(tmp_path, spec)) == {("GET", "/api/v2/a", "root")}


def test_swagger2_without_base_path_is_served_at_the_root(tmp_path: Path) -> None:
    assert routes(facts_of(tmp_path, HEADER_20 + "paths: {/a: {get: {}}}\n")) == {
        ("GET", "/a", "root")
    }


@pytest.mark.parametrize(
    "base_path", ["api", "/api/{version}", "/api?x=1", "/api#top", "/a/../b", "/a\\\\b"]
)
def test_swagger2_base_path_that_cannot_be_proven_is_base(tmp_path: Path, base_path: str) -> None:
    spec = HEADER_20 + f'basePath: "{base_path}"\npaths: {{/a: {{get: {{}}}}}}\n'
    document = run_spec(tmp_path, spec).document()
    assert routes(document["facts"]) == {("GET", "/a", "base")}
    assert document["limitations"][0].startswith("unresolved-contract-servers: 1 ")


# Path keys.


@pytest.mark.parametrize("path", ["/a/../b", "/a/./b", "/a/%2E%2E/b", "/a/%2e/b"])
def test_dot_segments_in_path_keys_are_dynamic(tmp_path: Path, path: str) -> None:
    [fact] = facts_of(tmp_path, HEADER_30 + f"paths: {{'{path}': {{get: {{}}}}}}\n")
    assert fact["dynamic"] is True


def test_templates_longer_than_2048_characters_are_dynamic(tmp_path: Path) -> None:
    path = "/" + "/".join(["segment"] * 257)
    assert len(path) == 2056
    [fact] = facts_of(tmp_path, HEADER_30 + f'paths:\n  ? "{path}"\n  : {{get: {{}}}}\n')
    assert fact["dynamic"] is True and len(fact["channel"]) <= 2048


def test_template_of_exactly_2048_characters_is_exact(tmp_path: Path) -> None:
    path = "/" + "a" * 2047
    [fact] = facts_of(tmp_path, HEADER_30 + f'paths:\n  ? "{path}"\n  : {{get: {{}}}}\n')
    assert (fact["dynamic"], len(fact["channel"])) == (False, 2048)


def test_prefix_and_path_together_longer_than_2048_characters_are_dynamic(tmp_path: Path) -> None:
    prefix = "/" + "p" * 1500
    spec = HEADER_30 + f"servers: [{{url: '{prefix}'}}]\npaths: {{'/{'q' * 600}': {{get: {{}}}}}}\n"
    [fact] = facts_of(tmp_path, spec)
    assert fact["dynamic"] is True


# $ref.


def test_local_ref_to_a_path_item_is_followed(tmp_path: Path) -> None:
    spec = (
        HEADER_30
        + "paths:\n  /users: {get: {operationId: list}}\n  /people: {$ref: '#/paths/~1users'}\n"
    )
    facts = facts_of(tmp_path, spec)
    assert routes(facts) == {("GET", "/users", "root"), ("GET", "/people", "root")}
    assert len({(fact["location"]["line"], fact["location"]["column"]) for fact in facts}) == 1


def test_ref_to_components_path_items_is_followed(tmp_path: Path) -> None:
    spec = HEADER_31 + (
        "paths:\n  /users: {$ref: '#/components/pathItems/Users'}\n"
        "components:\n  pathItems:\n    Users:\n      get: {operationId: listUsers}\n"
    )
    [fact] = facts_of(tmp_path, spec)
    assert (fact["channel"], fact["operationId"], fact["location"]["line"]) == (
        "/users",
        "listUsers",
        8,
    )


def chain_spec(hops: int) -> str:
    """/a reaches an operation after `hops` references."""
    items = [f"  - {{$ref: '#/x-items/{index + 1}'}}" for index in range(hops - 1)]
    return HEADER_30 + (
        "paths:\n  /a: {$ref: '#/x-items/0'}\nx-items:\n"
        + "".join(item + "\n" for item in items)
        + "  - {get: {}}\n"
    )


def test_ref_chain_of_16_hops_is_followed(tmp_path: Path) -> None:
    document = run_spec(tmp_path, chain_spec(16)).document()
    assert routes(document["facts"]) == {("GET", "/a", "root")}
    assert document["limitations"] == []


def test_ref_chain_longer_than_16_hops_is_counted(tmp_path: Path) -> None:
    document = run_spec(tmp_path, chain_spec(17)).document()
    assert document["facts"] == []
    assert document["limitations"] == [
        "contract-coverage: 1 spec entry(ies) were skipped and produced no facts (ref-hop-limit: 1)"
    ]


@pytest.mark.parametrize(
    "ref",
    ["https://specs.example.test/a.yaml#/paths/~1a", "other.yaml#/paths/~1a", "other.yaml"],
)
def test_non_local_ref_is_counted_and_never_fetched(tmp_path: Path, ref: str) -> None:
    spec = HEADER_30 + f"paths:\n  /a: {{$ref: '{ref}'}}\n"
    assert limitations_of(tmp_path, spec) == [
        "contract-coverage: 1 spec entry(ies) were skipped and produced no facts (non-local-ref: 1)"
    ]


@pytest.mark.parametrize(
    "ref", ["#/components/pathItems/Missing", "#/x-list/7", "#no-pointer", "#/x-list/0", "#/a~2b"]
)
def test_broken_ref_is_counted(tmp_path: Path, ref: str) -> None:
    spec = HEADER_30 + f"paths:\n  /a: {{$ref: '{ref}'}}\nx-list: [not-an-object]\n"
    assert limitations_of(tmp_path, spec) == [
        "contract-coverage: 1 spec entry(ies) were skipped and produced no facts (broken-ref: 1)"
    ]


def test_cyclic_ref_is_counted(tmp_path: Path) -> None:
    spec = HEADER_30 + (
        "paths:\n  /a: {$ref: '#/x-items/one'}\n"
        "x-items:\n  one: {$ref: '#/x-items/two'}\n  two: {$ref: '#/x-items/one'}\n"
    )
    assert limitations_of(tmp_path, spec) == [
        "contract-coverage: 1 spec entry(ies) were skipped and produced no facts (cyclic-ref: 1)"
    ]


def test_ref_pointer_escapes_and_percent_encoding_are_decoded(tmp_path: Path) -> None:
    spec = HEADER_30 + (
        "paths:\n  /a: {$ref: '#/x-items/a~1b~0c%20d'}\nx-items:\n  a/b~c d: {get: {}}\n"
    )
    assert routes(facts_of(tmp_path, spec)) == {("GET", "/a", "root")}


# Skipped input is counted.


def test_paths_key_not_starting_with_slash_is_counted(tmp_path: Path) -> None:
    spec = HEADER_30 + "paths:\n  users: {get: {}}\n  x-extension: {get: {}}\n"
    document = run_spec(tmp_path, spec).document()
    assert document["facts"] == []
    assert document["limitations"] == [
        "contract-coverage: 1 spec entry(ies) were skipped and produced no facts "
        "(path-key-not-starting-with-slash: 1)"
    ]


def test_non_object_path_items_and_operations_are_counted(tmp_path: Path) -> None:
    spec = HEADER_30 + "paths:\n  /a:\n  /b: [get]\n  /c: {get: text, put: [], post: {}}\n"
    document = run_spec(tmp_path, spec).document()
    assert routes(document["facts"]) == {("POST", "/c", "root")}
    assert document["limitations"] == [
        "contract-coverage: 4 spec entry(ies) were skipped and produced no facts "
        "(non-object-operation: 2, non-object-path-item: 2)"
    ]


def test_non_object_paths_is_counted(tmp_path: Path) -> None:
    assert limitations_of(tmp_path, HEADER_30 + "paths: [/a]\n") == [
        "contract-coverage: 1 spec entry(ies) were skipped and produced no facts "
        "(non-object-paths: 1)"
    ]


def test_unknown_path_item_fields_are_counted(tmp_path: Path) -> None:
    spec = (
        HEADER_30 + "paths:\n  /a: {connect: {}, summary: s, x-note: n, parameters: [], get: {}}\n"
    )
    assert limitations_of(tmp_path, spec) == [
        "contract-coverage: 1 spec entry(ies) were skipped and produced no facts "
        "(unknown-path-item-field: 1)"
    ]


def test_dynamic_templates_are_counted(tmp_path: Path) -> None:
    spec = HEADER_30 + "paths:\n  /a/../b: {get: {}}\n  '/f/{a}{b}': {get: {}, put: {}}\n"
    assert limitations_of(tmp_path, spec) == [
        "contract-coverage: 3 fact(s) have dynamic templates that cannot be matched exactly "
        "(dot-segment: 1, multi-parameter-segment: 2)"
    ]


def test_operation_from_the_path_item_wins_over_its_ref_target_and_is_counted(
    tmp_path: Path,
) -> None:
    spec = HEADER_30 + (
        "paths:\n  /a:\n    $ref: '#/x-items/a'\n    get: {operationId: local}\n"
        "x-items:\n  a: {get: {operationId: target}, put: {}}\n"
    )
    document = run_spec(tmp_path, spec).document()
    assert {(fact["method"], fact.get("operationId")) for fact in document["facts"]} == {
        ("GET", "local"),
        ("PUT", None),
    }
    assert document["limitations"] == [
        "contract-coverage: 1 spec entry(ies) were skipped and produced no facts "
        "(field-shadowed-by-ref-sibling: 1)"
    ]


# operationIds.


@pytest.mark.parametrize(
    "operation_id",
    ['"a\\tb"', '"a\\u0085b"', '"a\\u2029b"', '"a\\x7fb"'],
    ids=["tab", "next-line", "paragraph-separator", "delete"],
)
def test_operation_id_with_forbidden_characters_is_omitted_and_counted(
    tmp_path: Path, operation_id: str
) -> None:
    document = run_spec(
        tmp_path, HEADER_30 + f"paths: {{/a: {{get: {{operationId: {operation_id}}}}}}}\n"
    ).document()
    assert "operationId" not in document["facts"][0] and "symbol" not in document["facts"][0]
    assert document["limitations"] == [
        "unsafe-operation-ids: 1 operationId(s) were omitted because they cannot be written "
        "safely (forbidden-characters: 1)"
    ]


def test_operation_id_longer_than_1024_characters_is_omitted_and_counted(tmp_path: Path) -> None:
    spec = HEADER_30 + (
        f"paths:\n  /a: {{get: {{operationId: {'x' * 1025}}}}}\n"
        f"  /b: {{get: {{operationId: {'y' * 1024}}}}}\n"
    )
    document = run_spec(tmp_path, spec).document()
    by_channel = {fact["channel"]: fact for fact in document["facts"]}
    assert "operationId" not in by_channel["/a"]
    assert by_channel["/b"]["operationId"] == "y" * 1024
    assert document["limitations"] == [
        "unsafe-operation-ids: 1 operationId(s) were omitted because they cannot be written "
        "safely (too-long: 1)"
    ]


def test_lone_surrogate_operation_id_from_json_is_omitted(tmp_path: Path) -> None:
    spec = '{"openapi": "3.0.3", "info": {}, "paths": {"/a": {"get": {"operationId": "\\ud800"}}}}'
    document = run_spec(tmp_path, spec, "openapi.json").document()
    assert "operationId" not in document["facts"][0]
    assert "(forbidden-characters: 1)" in document["limitations"][0]


# Webhooks.


def test_webhooks_are_not_emitted(tmp_path: Path) -> None:
    spec = (
        HEADER_31
        + "webhooks:\n  orderPlaced:\n    post: {operationId: notify}\npaths: {/a: {get: {}}}\n"
    )
    document = run_spec(tmp_path, spec).document()
    assert routes(document["facts"]) == {("GET", "/a", "root")}
    assert document["limitations"] == []

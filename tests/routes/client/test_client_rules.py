"""One small project per rule of `routes --role client`, checked on the facts it produces."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.routes.client.support import FIXTURES
from tests.routes.client.support import calls_of
from tests.routes.client.support import document_of
from tests.routes.client.support import run_client
from tests.routes.support import write_project

KY1 = json.dumps({"dependencies": {"ky": "^1.7.0", "axios": "^1.7.0"}})
KY2 = json.dumps({"dependencies": {"ky": "~2.1.0"}})


def one(root: Path, code: str, package: str = KY1) -> tuple[object, ...]:
    calls = calls_of(root, {"package.json": package, "src/a.ts": code})
    assert len(calls) == 1, calls
    return calls[0]


# One request per project (package.json: KY1): the rule, the code, the call it makes.
ONE_REQUEST = {
    "global fetch defaults to GET and strips query and fragment": (
        'fetch("/api/x?y=1#z");',
        ("GET", "/api/x", "root", False, False),
    ),
    "the fetch method comes from init, case-insensitively": (
        'fetch("/api/x", { method: "patch" });',
        ("PATCH", "/api/x", "root", False, False),
    ),
    "a full segment interpolation is a parameter": (
        "export const f = (id: string) => fetch(`/users/${id}/posts`);",
        ("GET", "/users/{}/posts", "root", False, False),
    ),
    "a partial segment interpolation is dynamic": (
        "export const f = (id: string) => fetch(`/users/u-${id}`);",
        ("GET", "/users/u-{}", "root", True, False),
    ),
    "a type alias or an interface does not hide a const of the same name": (
        'type base = string;\ninterface base {}\nconst base = "/api";\nfetch(base + "/x");',
        ("GET", "/api/x", "root", False, False),
    ),
    "mutable bindings are not values": (
        'let base = "/api";\nbase = "/other";\nfetch(base + "/x");',
        ("GET", "/x", "base", True, False),
    ),
    "an unknown leading value keeps the suffix dynamic": (
        "fetch(`${process.env.API}/users`);",
        ("GET", "/users", "base", True, False),
    ),
    "an unknown URL makes the method unproven": (
        "export const f = (u: string) => { console.log(u); return fetch(u); };",
        ("ANY", "/", "base", True, True),
    ),
    "an absolute URL keeps only the path, without userinfo (axios sends userinfo)": (
        'import axios from "axios";\naxios.get("https://user:pw@api.example.com/v1/../v2/items");',
        ("GET", "/v2/items", "root", False, False),
    ),
    "a relative URL is anchored at the base": (
        'fetch("api/items");',
        ("GET", "/api/items", "base", False, False),
    ),
    "an unknown axios spread leaves method and base unproven": (
        'import axios from "axios";\nexport const f = (o: object) => axios({ ...o, url: "/u" });',
        ("ANY", "/u", "base", False, True),
    ),
    "an axios env base is a base anchor": (
        'import axios from "axios";\n'
        "const api = axios.create({ baseURL: process.env.API_URL });\n"
        'api.get("/users/me");',
        ("GET", "/users/me", "base", False, False),
    ),
    "build placeholders are unknown text": (
        'fetch("{{API_URL}}/users");',
        ("GET", "/users", "base", True, False),
    ),
    "commonjs require of axios": (
        'const axios = require("axios");\naxios.post("/api/x");',
        ("POST", "/api/x", "root", False, False),
    ),
    "const objects written through are not closed": (
        'import axios from "axios";\n'
        'const config = { baseURL: "/api" };\n'
        'config.baseURL = "/other";\n'
        "const api = axios.create(config);\n"
        'api.get("/x");',
        ("GET", "/x", "base", False, False),
    ),
    "promise steps after the request are forwarding": (
        'import axios from "axios";\n'
        "const get = (url: string) => axios.get(url).then((r) => r.data).catch(() => null);\n"
        'get("/a");',
        ("GET", "/a", "root", False, False),
    ),
}


@pytest.mark.parametrize("rule", list(ONE_REQUEST))
def test_one_request(tmp_path: Path, rule: str) -> None:
    code, expected = ONE_REQUEST[rule]
    assert one(tmp_path, code) == expected


# Requests that are not represented as facts: the rule, the package.json (None: none),
# the code and the breakdown entry of client-call-coverage that counts them.
NOT_EMITTED = {
    "other schemes": (None, 'fetch("data:text/plain,x");', "not-http-url: 1"),
    "ky 1: a leading slash with prefixUrl throws": (
        KY1,
        'import ky from "ky";\nky.get("/users", { prefixUrl: "/api" });',
        "throws-before-sending: 1",
    ),
    "ky query is not a contract method": (
        KY2,
        'import ky from "ky";\nky.query("/s");',
        "non-contract-method: 1",
    ),
    "computed method access": (
        KY1,
        'import axios from "axios";\nexport const f = (m: string) => axios[m]("/x");',
        "computed-method-access: 1",
    ),
    "Request and URL objects": (
        None,
        'const request = new Request("/a");\nfetch(request);\nfetch(new URL("/b", location.href));',
        "url-or-request-object: 2",
    ),
    "imported fetch": (None, 'import fetch from "node-fetch";\nfetch("/a");', "imported-fetch: 1"),
}


@pytest.mark.parametrize("rule", list(NOT_EMITTED))
def test_requests_not_represented_are_counted_not_emitted(tmp_path: Path, rule: str) -> None:
    package, code, counted = NOT_EMITTED[rule]
    files = {"src/a.ts": code} if package is None else {"package.json": package, "src/a.ts": code}
    document = document_of(write_project(tmp_path, files))
    assert document["facts"] == []
    assert any(counted in line for line in document["limitations"])


def test_local_fetch_shadows_the_global(tmp_path: Path) -> None:
    code = "function f(fetch: any) { return fetch('/a'); }\nconst g = () => { const fetch = 1; };"
    assert calls_of(tmp_path, {"src/a.ts": code}) == []


def test_window_and_globalthis_fetch_are_global(tmp_path: Path) -> None:
    calls = calls_of(tmp_path, {"src/a.ts": 'window.fetch("/w");\nglobalThis.fetch("/g");'})
    assert [call[1] for call in calls] == ["/g", "/w"]


def test_a_conditional_fetch_init_gives_the_method_both_branches_give(tmp_path: Path) -> None:
    # linkwarden: fetch(url, cond ? { headers } : undefined) sends GET either way.
    code = (
        "export function f(c: boolean, h: Record<string, string>) {\n"
        '  fetch("/a", c ? { headers: h } : undefined);\n'
        '  fetch("/b", c ? { method: "post" } : { method: "POST", headers: h });\n'
        '  fetch("/c", c ? { method: "PUT" } : undefined);\n'
        "}\n"
    )
    assert calls_of(tmp_path, {"src/a.ts": code}) == [
        ("GET", "/a", "root", False, False),
        ("POST", "/b", "root", False, False),
        ("ANY", "/c", "root", False, True),
    ]


def test_a_conditional_url_tail_that_is_a_query_or_nothing_changes_no_path(
    tmp_path: Path,
) -> None:
    # linkwarden packages/router/tags.tsx: "/api/v1/tags" + (paged ? `?cursor=${n}` : "").
    code = (
        "export function f(paged: boolean, n: number, q: string) {\n"
        '  fetch("/api/v1/tags" +\n'
        '    (paged ? `?cursor=${n}${q ? "&" + q : ""}` : q ? `?${q}` : ""));\n'
        '  fetch("/api/v1/" + (paged ? "tags" : "tags"));\n'
        '  fetch("/api/v1/tags" + (paged ? "" : "?all=1") + "/more");\n'
        '  fetch("/api/v1/" + (paged ? "tags" : "links"));\n'
        "}\n"
    )
    assert calls_of(tmp_path, {"src/a.ts": code}) == [
        ("GET", "/api/v1/tags", "root", False, False),
        ("GET", "/api/v1/tags", "root", False, False),
        ("GET", "/api/v1/tags{}", "root", True, False),
        ("GET", "/api/v1/{}", "root", False, False),
    ]


def test_concatenation_and_consts_across_files(tmp_path: Path) -> None:
    files = {
        "src/config.ts": 'export const BASE = "/api";\nexport const PATHS = { me: "/me" };',
        "src/a.ts": 'import { BASE, PATHS } from "./config";\nfetch(BASE + PATHS.me + "/x");',
    }
    assert calls_of(tmp_path, files) == [("GET", "/api/me/x", "root", False, False)]


@pytest.mark.parametrize(
    ("literal", "channel"),
    [
        ("/files/0f8fad5b-d9cb-11d0-b39b-00a0c91e6bf6", "/files/{}"),
        ("/blobs/9f86d081884c7d659a2feaa0c55ad015", "/blobs/{}"),
        ("/t/aZ3kQ9mX2pL7vR4tY8wB1nC6", "/t/{}"),
        ("/api/webhooks/123456789/abcdefgh", "/api/webhooks/{}/abcdefgh"),
        ("/api/internationalization", "/api/internationalization"),
        ("/posts/how-to-build-2024-guide-v2", "/posts/how-to-build-2024-guide-v2"),
        ("/v2/users", "/v2/users"),
    ],
)
def test_secret_like_segments_are_masked(tmp_path: Path, literal: str, channel: str) -> None:
    assert one(tmp_path, f'fetch("{literal}");')[1] == channel


def test_axios_create_joins_base_url(tmp_path: Path) -> None:
    code = (
        'import axios from "axios";\n'
        'const api = axios.create({ baseURL: "https://x.io/api/" });\n'
        'api.get("/users"); api.post("orders", {}); api.request({ url: "a", method: "put" });\n'
        'axios({ url: "/b" }); axios("/c", { method: "options" }); api.delete("https://y.io/z");'
    )
    calls = calls_of(tmp_path, {"package.json": KY1, "src/a.ts": code})
    assert calls == [
        ("PUT", "/api/a", "root", False, False),
        ("POST", "/api/orders", "root", False, False),
        ("GET", "/api/users", "root", False, False),
        ("GET", "/b", "root", False, False),
        ("OPTIONS", "/c", "root", False, False),
        ("DELETE", "/z", "root", False, False),
    ]


def test_axios_instance_create_inherits_and_allow_absolute_false_joins(tmp_path: Path) -> None:
    code = (
        'import axios from "axios";\n'
        'const a = axios.create({ baseURL: "/api" });\n'
        "const b = a.create({ allowAbsoluteUrls: false });\n"
        'b.get("/x"); b.get("https://h.io/y");'
    )
    calls = calls_of(tmp_path, {"package.json": KY1, "src/a.ts": code})
    assert [call[1] for call in calls] == ["/api/https://h.io/y", "/api/x"]


def test_axios_without_import_is_not_axios(tmp_path: Path) -> None:
    assert calls_of(tmp_path, {"src/a.ts": 'axios.get("/x");'}) == []


def test_axios_interceptors_and_mutated_defaults_are_reported(tmp_path: Path) -> None:
    code = (
        'import axios from "axios";\n'
        'const api = axios.create({ baseURL: "/api" });\n'
        "api.interceptors.request.use((c) => c);\n"
        'api.defaults.baseURL = "/elsewhere";\n'
        'api.get("/x");'
    )
    document = document_of(write_project(tmp_path, {"package.json": KY1, "src/a.ts": code}))
    assert [(f["channel"], f["pathAnchor"]) for f in document["facts"]] == [("/x", "base")]
    assert any(
        "axios-request-interceptors: 1" in line and "mutated-defaults: 1" in line
        for line in document["limitations"]
    )


def test_ky1_prefix_url(tmp_path: Path) -> None:
    code = (
        'import ky from "ky";\n'
        'const api = ky.create({ prefixUrl: "https://x.io/api" });\n'
        'api.get("users").json(); api("items", { method: "POST" });\n'
        'ky.extend({ prefixUrl: "/p" }).get("q");'
    )
    calls = calls_of(tmp_path, {"package.json": KY1, "src/a.ts": code})
    assert calls == [
        ("POST", "/api/items", "root", False, False),
        ("GET", "/api/users", "root", False, False),
        ("GET", "/p/q", "root", False, False),
    ]


def test_ky2_prefix_and_base_url(tmp_path: Path) -> None:
    code = (
        'import ky from "ky";\n'
        'const p = ky.create({ prefix: "/api/" });\n'
        'const b = ky.create({ baseUrl: "https://x.io/api/v1/" });\n'
        'p.get("/users"); b.get("items"); b.get("/root"); b.get("../up");'
    )
    calls = calls_of(tmp_path, {"package.json": KY2, "src/a.ts": code})
    assert [call[1] for call in calls] == ["/api/up", "/api/users", "/api/v1/items", "/root"]


def test_ky2_create_does_not_inherit_but_extend_does(tmp_path: Path) -> None:
    code = (
        'import ky from "ky";\n'
        'const p = ky.create({ prefix: "/api" });\n'
        'p.create({}).get("a"); p.extend({}).get("b");'
    )
    calls = calls_of(tmp_path, {"package.json": KY2, "src/a.ts": code})
    assert [call[1:3] for call in calls] == [("/a", "base"), ("/api/b", "root")]


def test_ky_dialect_needs_one_declared_major(tmp_path: Path) -> None:
    code = 'import ky from "ky";\nky.get("users", { prefixUrl: "/api" });'
    package = json.dumps({"dependencies": {"ky": "*"}})
    assert one(tmp_path, code, package) == ("GET", "/users", "base", False, False)


def test_wrapper_fact_belongs_to_the_invocation(tmp_path: Path) -> None:
    code = (
        "const thttp = (url: string, options?: RequestInit) => fetch(url, options);\n"
        "export function screen() {\n"
        '  thttp("/a", { method: "DELETE" });\n'
        '  return thttp("/b");\n'
        "}"
    )
    document = document_of(write_project(tmp_path, {"src/a.ts": code}))
    facts = [
        (f["method"], f["channel"], f["location"]["line"], f["symbol"]["usr"])
        for f in document["facts"]
    ]
    assert facts == [("DELETE", "/a", 3, "src/a.ts#screen"), ("GET", "/b", 4, "src/a.ts#screen")]


def test_escaped_wrapper_keeps_its_inner_dynamic_request(tmp_path: Path) -> None:
    code = 'const get = (url: string) => fetch(url);\nget("/a");\nexport const handlers = [get];'
    calls = calls_of(tmp_path, {"src/a.ts": code})
    assert calls == [("ANY", "/", "base", True, True), ("GET", "/a", "root", False, False)]


def test_exported_wrapper_keeps_its_inner_request(tmp_path: Path) -> None:
    code = 'export async function get(url: string) {\n  return await fetch(url);\n}\nget("/a");'
    assert len(calls_of(tmp_path, {"src/a.ts": code})) == 2


def test_wrapper_with_extra_statements_or_defaults_is_not_followed(tmp_path: Path) -> None:
    code = (
        "const a = (url: string) => { log(url); return fetch(url); };\n"
        'const b = (url = "/d") => fetch(url);\n'
        'a("/x"); b("/y");'
    )
    calls = calls_of(tmp_path, {"src/a.ts": code})
    assert calls == [("ANY", "/", "base", True, True)] * 2


def test_object_literal_methods_and_aliases_are_followed(tmp_path: Path) -> None:
    code = (
        'import axios from "axios";\n'
        'const http = axios.create({ baseURL: "/api" });\n'
        "const users = { get: (id: string) => http.get(`/users/${id}`) };\n"
        "const load = users.get;\n"
        'users.get("me");\n'
    )
    calls = calls_of(tmp_path, {"package.json": KY1, "src/a.ts": code})
    assert calls == [("GET", "/api/users/me", "root", False, False)]


def test_class_methods_are_not_wrappers(tmp_path: Path) -> None:
    code = 'class Api { get(url: string) { return fetch(url); } }\nnew Api().get("/x");'
    assert calls_of(tmp_path, {"src/a.ts": code}) == [("ANY", "/", "base", True, True)]


def test_inline_callbacks_keep_their_graph_id(tmp_path: Path) -> None:
    code = "export function Screen() {\n  useEffect(() => {\n    fetch('/x');\n  }, []);\n}"
    document = document_of(write_project(tmp_path, {"src/a.tsx": code}))
    fact = document["facts"][0]
    assert fact["symbol"]["usr"] == "src/a.tsx#Screen.useEffect()"
    assert fact["location"] == {"path": "src/a.tsx", "line": 3, "column": 5}


def test_columns_are_utf8_bytes(tmp_path: Path) -> None:
    document = document_of(write_project(tmp_path, {"src/a.ts": 'const é = 1; fetch("/x");'}))
    assert document["facts"][0]["location"]["column"] == 15


def test_tests_are_excluded_unless_asked(tmp_path: Path) -> None:
    root = write_project(
        tmp_path, {"src/a.test.ts": 'fetch("/t");', "src/__mocks__/m.ts": 'fetch("/m");'}
    )
    assert document_of(root)["facts"] == []
    assert document_of(root)["sourceSets"] == {"tests": "excluded"}
    included = document_of(root, "--include-tests")
    assert [f.get("testSource") for f in included["facts"]] == [True, True]


ZERO_COUNT = re.compile(r"^[a-z0-9-]+: 0 ")


def test_coverage_limitation_is_present_for_zero_calls_without_a_zero_count(
    tmp_path: Path,
) -> None:
    document = document_of(write_project(tmp_path, {"src/a.ts": "export const x = 1;"}))
    assert document["facts"] == []
    assert document["roles"] == ["client"] and document["target"] == "http"
    # A zero count reads as an alarm; the scope of what is seen stays stated.
    assert document["limitations"] == [
        "client-call-coverage: calls on receivers not proven to be fetch, axios, ky or a "
        "modelled transport are not seen"
    ]


@pytest.mark.parametrize(
    "golden", sorted(FIXTURES.glob("*/expected.json")), ids=lambda p: p.parent.name
)
def test_no_client_limitation_has_a_zero_count(golden: Path) -> None:
    limitations = json.loads(golden.read_text(encoding="utf-8"))["limitations"]
    assert [line for line in limitations if ZERO_COUNT.match(line)] == []


def test_client_model_matches_declaration_identity(tmp_path: Path) -> None:
    files = {
        "src/t.ts": (
            "export class Http { get(p: string) {} }\nexport class Other { get(p: string) {} }"
        ),
        "src/a.ts": (
            'import { Http, Other } from "./t";\n'
            "export function f(h: Http, o: Other) { h.get(`/x/${1}`); o.get('/no'); }"
        ),
    }
    model = tmp_path / "model.json"
    model.write_text(
        json.dumps(
            {
                "version": 1,
                "transports": [
                    {
                        "source": "src/t.ts",
                        "type": "Http",
                        "method": "get",
                        "verb": "GET",
                        "pathArgument": 0,
                        "basePrefix": "/api",
                    },
                ],
            }
        ),
        encoding="utf-8",
    )
    calls = calls_of(tmp_path / "p", files, "--client-model", str(model))
    assert calls == [("GET", "/api/x/1", "root", False, False)]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[]", "invalid model at /"),
        ('{"version": 2, "transports": []}', "invalid model at /version"),
        ('{"version": 1, "transports": [{"source": "a"}]}', "invalid model at /transports/0"),
        ("{", "--client-model model.json: not JSON ("),
    ],
)
def test_malformed_model_is_exit_2_with_one_line(
    tmp_path: Path, content: str, message: str
) -> None:
    model = tmp_path / "model.json"
    model.write_text(content, encoding="utf-8")
    project = write_project(tmp_path / "p", {"src/a.ts": ""})
    result = run_client(project, "--client-model", str(model))
    assert result.code == 2 and result.stdout == b""
    assert result.stderr.count("\n") == 1 and message in result.stderr
    assert str(tmp_path) not in result.stderr


def test_client_model_with_server_role_is_a_usage_error(tmp_path: Path) -> None:
    from tests.routes.support import run_routes

    result = run_routes(write_project(tmp_path, {"src/a.ts": ""}), "--client-model", "m.json")
    assert result.code == 64 and result.stdout == b""


def test_missing_project_is_exit_2(tmp_path: Path) -> None:
    result = run_client(tmp_path / "absent")
    assert result.code == 2 and result.stdout == b""


def test_wrappers_of_wrappers_are_followed_to_the_outer_invocation(tmp_path: Path) -> None:
    code = (
        'import ky from "ky";\n'
        'const api = ky.create({ prefixUrl: "/api" });\n'
        "const get = (path: string) => api.get(path).json();\n"
        "async function user(id: string) {\n  return await get(`users/${id}`);\n}\n"
        'user("42");'
    )
    calls = calls_of(tmp_path, {"package.json": KY1, "src/a.ts": code})
    assert calls == [("GET", "/api/users/42", "root", False, False)]


def test_spread_invocation_keeps_the_inner_request(tmp_path: Path) -> None:
    code = (
        "const get = (url: string) => fetch(url);\n"
        'const args: [string] = ["/a"];\n'
        'get(...args);\nget("/b");'
    )
    calls = calls_of(tmp_path, {"src/a.ts": code})
    assert calls == [("ANY", "/", "base", True, True), ("GET", "/b", "root", False, False)]


def test_wrapper_passed_in_an_object_escapes(tmp_path: Path) -> None:
    code = 'const get = (url: string) => fetch(url);\nget("/b");\nregister({ get });'
    assert len(calls_of(tmp_path, {"src/a.ts": code})) == 2


def test_adapters_and_hooks_are_reported(tmp_path: Path) -> None:
    code = (
        'import axios from "axios";\nimport ky from "ky";\n'
        'axios.create({ adapter: "fetch" }).get("/a");\n'
        'ky.create({ hooks: { beforeRequest: [] } }).get("https://h.io/b");'
    )
    document = document_of(write_project(tmp_path, {"package.json": KY1, "src/a.ts": code}))
    assert len(document["facts"]) == 2
    assert any(
        "custom-adapter-or-fetch: 1" in line and "ky-hooks: 1" in line
        for line in document["limitations"]
    )


def test_class_fields_holding_a_client_are_followed(tmp_path: Path) -> None:
    code = (
        'import axios from "axios";\n'
        "class Api {\n"
        '  private http = axios.create({ baseURL: "/api" });\n'
        "  private late: any;\n"
        "  private moved: any;\n"
        '  constructor() { this.late = axios.create({ baseURL: "/late" }); }\n'
        '  users() { return this.http.get("/users"); }\n'
        '  items() { return this.late.get("/items"); }\n'
        '  other() { this.moved = axios; this.moved = null; return this.moved.get("/no"); }\n'
        "}"
    )
    calls = calls_of(tmp_path, {"package.json": KY1, "src/a.ts": code})
    assert [call[1] for call in calls] == ["/api/users", "/late/items"]


def test_client_model_schema_is_a_valid_schema_that_the_fixture_model_follows() -> None:
    from jsonschema import Draft202012Validator

    from tests.routes.client.support import FIXTURES
    from tsograph.schemas import SCHEMA_DIR

    schema = json.loads((SCHEMA_DIR / "client-model-v1.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    model = json.loads((FIXTURES / "client-model" / "model.json").read_text(encoding="utf-8"))
    Draft202012Validator(schema).validate(model)


def test_help_documents_the_client_model() -> None:
    from tests.cli_helpers import tsograph

    result = tsograph("routes", "--help")
    assert result.code == 0 and b"--client-model" in result.stdout
    assert b"pathArgument" in result.stdout


def test_ky2_rooted_base_url_resolves_against_the_page_origin(tmp_path: Path) -> None:
    code = (
        'import ky from "ky";\n'
        'const b = ky.create({ baseUrl: "/api/v1/" });\n'
        'b.get("items"); b.get("/root"); b.get("https://h.io/abs");'
    )
    calls = calls_of(tmp_path, {"package.json": KY2, "src/a.ts": code})
    assert [call[1:3] for call in calls] == [
        ("/abs", "root"),
        ("/api/v1/items", "root"),
        ("/root", "root"),
    ]


def test_barrel_star_exports_and_namespace_imports_are_followed(tmp_path: Path) -> None:
    files = {
        "package.json": KY1,
        "src/api/client.ts": (
            'import axios from "axios";\nexport const api = axios.create({ baseURL: "/api" });'
        ),
        "src/api/index.ts": 'export * from "./client";',
        "src/a.ts": (
            'import { api } from "./api";\nimport * as ns from "./api/client";\n'
            'api.get("/one");\nns.api.get("/two");'
        ),
    }
    calls = calls_of(tmp_path, files)
    assert [call[1] for call in calls] == ["/api/one", "/api/two"]


def test_wrapper_returning_through_satisfies_or_a_type_assertion_is_followed(
    tmp_path: Path,
) -> None:
    # Every cast is looked through, as `as` and `!` were: `satisfies` and `<T>x` change no call.
    code = (
        "const a = (url: string) => fetch(url) satisfies Promise<Response>;\n"
        "function b(url: string) { return <Promise<Response>>fetch(url); }\n"
        'a("/a"); b("/b");\n'
    )
    calls = calls_of(tmp_path, {"src/a.ts": code})
    assert calls == [("GET", "/a", "root", False, False), ("GET", "/b", "root", False, False)]

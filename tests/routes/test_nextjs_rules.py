"""Next.js rules of `tsograph routes --role server`, one small project per rule."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.routes.support import decls
from tests.routes.support import document_of
from tests.routes.support import run_routes
from tests.routes.support import write_project
from tsograph.exchange.validation import validate
from tsograph.producers.project import syntax_cache

ROUTE = "export function GET() {}\n"
NEXT16 = '{"dependencies": {"next": "^16.2.0"}}'


def project(tmp_path: Path, files: dict[str, str], name: str = "web") -> Path:
    return write_project(tmp_path / name, {"package.json": NEXT16, **files})


def facts_by_channel(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {fact["channel"]: fact for fact in document["facts"]}


def test_role_is_required(tmp_path: Path) -> None:
    from tests.openapi.support import invoke

    result = invoke("routes", "--project", str(project(tmp_path, {})))
    assert result.code == 64 and result.stdout == b""


def test_missing_project_exits_2(tmp_path: Path) -> None:
    assert run_routes(tmp_path / "absent").code == 2


def test_document_header(tmp_path: Path) -> None:
    document = document_of(project(tmp_path, {"app/route.ts": ROUTE}), "--service", "web")
    validate(document)
    assert document["platform"] == "js" and document["target"] == "http"
    assert document["roles"] == ["server"] and document["dispatch"] == "specificity"
    assert document["sourceSets"] == {"tests": "excluded"}
    assert document["facts"][0]["service"] == "web"
    assert document["facts"][0]["channel"] == "/"


def test_node_backend_without_next_is_not_scanned(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "api",
        {"package.json": '{"dependencies": {"express": "4"}}', "app/route.ts": ROUTE},
    )
    # app/route.ts is not a Next.js handler here: the project is an Express backend.
    assert document_of(root)["facts"] == []


def test_next_config_makes_a_backend_project_next(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "api",
        {
            "package.json": '{"dependencies": {"express": "4"}}',
            "next.config.js": "module.exports = {};\n",
            "app/route.ts": ROUTE,
        },
    )
    assert decls(document_of(root)) == {("GET", "/", "app/route.ts")}


def test_no_app_or_pages_gives_zero_facts_and_coverage(tmp_path: Path) -> None:
    document = document_of(project(tmp_path, {"lib/x.ts": ROUTE}))
    assert document["facts"] == []
    assert any("no-app-or-pages-directory: 1" in line for line in document["limitations"])


def test_root_app_wins_over_src_app(tmp_path: Path) -> None:
    root = project(tmp_path, {"app/a/route.ts": ROUTE, "src/app/b/route.ts": ROUTE})
    assert decls(document_of(root)) == {("GET", "/a", "app/a/route.ts")}


def test_src_layout(tmp_path: Path) -> None:
    files = {"src/app/b/route.ts": ROUTE, "src/pages/api/c.ts": "export default 1"}
    root = project(tmp_path, files)
    assert decls(document_of(root)) == {
        ("GET", "/b", "src/app/b/route.ts"),
        ("ANY", "/api/c", "src/pages/api/c.ts"),
    }


def test_private_folders_only_in_app_router(tmp_path: Path) -> None:
    root = project(
        tmp_path,
        {
            "app/_lib/route.ts": ROUTE,
            "app/%5Fx/route.ts": ROUTE,
            "pages/api/_helper.ts": "export default function h() {}\n",
        },
    )
    assert decls(document_of(root)) == {
        ("GET", "/_x", "app/%5Fx/route.ts"),
        ("ANY", "/api/_helper", "pages/api/_helper.ts"),
    }


def test_pages_api_index_serves_api(tmp_path: Path) -> None:
    root = project(tmp_path, {"pages/api/index.ts": "export default function h() {}\n"})
    document = document_of(root)
    assert decls(document) == {("ANY", "/api", "pages/api/index.ts")}
    symbol = document["facts"][0]["symbol"]
    assert symbol == {"qualifiedName": "pages/api/index.ts#default", "usr": "pages/api/index.ts#h"}


def test_pages_api_file_at_pages_root(tmp_path: Path) -> None:
    root = project(tmp_path, {"pages/api.js": "export default () => 1;\n"})
    assert decls(document_of(root)) == {("ANY", "/api", "pages/api.js")}


def test_commonjs_optional_catch_all_has_plain_prefix(tmp_path: Path) -> None:
    root = project(tmp_path, {"pages/api/p/[[...s]].js": "module.exports = (q, r) => r.end();\n"})
    document = document_of(root)
    validate(document)
    facts = facts_by_channel(document)
    assert set(facts) == {"/api/p", "/api/p/{**}"}
    assert "catchAllPrefix" not in facts["/api/p"]
    assert "usr" not in facts["/api/p"]["symbol"]
    assert any(line.startswith("missing-route-usrs: 1") for line in document["limitations"])


def test_app_router_commonjs_is_coverage_not_a_fact(tmp_path: Path) -> None:
    document = document_of(project(tmp_path, {"app/route.js": "exports.GET = () => 1;\n"}))
    assert document["facts"] == []
    assert any("unresolvable-commonjs-export: 1" in line for line in document["limitations"])


def test_tests_are_skipped_unless_included(tmp_path: Path) -> None:
    root = project(
        tmp_path,
        {
            "app/api/test/route.ts": ROUTE,
            "app/__tests__/route.ts": ROUTE,
            "pages/api/a.spec.ts": "export default 1",
            "pages/api/__mocks__/b.ts": "export default 1",
        },
    )
    assert decls(document_of(root)) == {("GET", "/api/test", "app/api/test/route.ts")}
    included = document_of(root, "--include-tests")
    assert included["sourceSets"] == {"tests": "included"}
    flagged = {fact["location"]["path"] for fact in included["facts"] if fact.get("testSource")}
    # app/__tests__ starts with "_": a private folder, never a route.
    assert flagged == {
        "pages/api/a.spec.ts",
        "pages/api/__mocks__/b.ts",
    }


def test_rejected_segments_are_coverage(tmp_path: Path) -> None:
    root = project(
        tmp_path,
        {
            "app/[[x]]/route.ts": ROUTE,
            "app/[...a]/b/route.ts": ROUTE,
            "app/[id]/[id]/route.ts": ROUTE,
            "app/[.x]/route.ts": ROUTE,
        },
    )
    document = document_of(root)
    assert document["facts"] == []
    assert any("segment-name-rejected-by-nextjs: 4" in line for line in document["limitations"])


def test_trailing_slash_default_is_strict_without_slash(tmp_path: Path) -> None:
    root = project(tmp_path, {"app/a/[id]/route.ts": ROUTE})
    assert document_of(root)["facts"][0]["trailingSlash"] == "strict"


def test_trailing_slash_true(tmp_path: Path) -> None:
    root = project(
        tmp_path,
        {
            "next.config.js": "module.exports = { trailingSlash: true };\n",
            "app/a/route.ts": ROUTE,
            "app/b/[id]/route.ts": ROUTE,
            "app/c.json/route.ts": ROUTE,
            "app/.well-known/d/route.ts": ROUTE,
        },
    )
    facts = facts_by_channel(document_of(root))
    assert facts["/a/"]["trailingSlash"] == "strict"
    assert "trailingSlash" not in facts["/b/{}"]
    assert facts["/c.json"]["trailingSlash"] == "strict"
    assert facts["/.well-known/d"]["trailingSlash"] == "optional"


def test_trailing_slash_not_literal_is_omitted(tmp_path: Path) -> None:
    root = project(
        tmp_path,
        {
            "next.config.js": "module.exports = { trailingSlash: process.env.T === '1' };\n",
            "app/a/route.ts": ROUTE,
        },
    )
    assert "trailingSlash" not in document_of(root)["facts"][0]


def _base(tmp_path: Path, config: str, name: str = "next.config.js") -> dict[str, Any]:
    return document_of(project(tmp_path, {name: config, "app/a/route.ts": ROUTE}))


def test_function_config_is_base(tmp_path: Path) -> None:
    document = _base(tmp_path, "module.exports = () => ({ basePath: '/x' });\n")
    assert document["facts"][0]["pathAnchor"] == "base"
    assert document["facts"][0]["channel"] == "/a"
    assert any(line.startswith("unresolved-route-prefix:") for line in document["limitations"])
    assert "limitationScopes" not in document


def test_non_literal_base_path_is_base(tmp_path: Path) -> None:
    document = _base(tmp_path, "module.exports = { basePath: process.env.BASE };\n")
    assert document["facts"][0]["pathAnchor"] == "base"


def test_rejected_base_path_is_base(tmp_path: Path) -> None:
    document = _base(tmp_path, "module.exports = { basePath: '/x/' };\n")
    assert document["facts"][0]["pathAnchor"] == "base"


def test_syntax_error_config_is_base(tmp_path: Path) -> None:
    document = _base(tmp_path, "module.exports = { basePath: '/x' \n")
    assert document["facts"][0]["pathAnchor"] == "base"


def test_mutated_config_is_not_followed(tmp_path: Path) -> None:
    config = "const c = { basePath: '/x' };\nc.basePath = '/y';\nexport default c;\n"
    document = _base(tmp_path, config, "next.config.mjs")
    assert document["facts"][0]["pathAnchor"] == "base"


def test_config_files_are_tried_in_order(tmp_path: Path) -> None:
    root = project(
        tmp_path,
        {
            "next.config.js": "module.exports = { basePath: '/js' };\n",
            "next.config.mjs": "export default { basePath: '/mjs' };\n",
            "app/route.ts": ROUTE,
        },
    )
    assert document_of(root)["facts"][0]["channel"] == "/js"


def test_export_equals_const_satisfies(tmp_path: Path) -> None:
    config = "const c = { basePath: '/t' } satisfies Cfg;\nexport = c as Cfg;\n"
    document = _base(tmp_path, config, "next.config.ts")
    assert document["facts"][0]["channel"] == "/t/a"
    assert document["facts"][0]["pathAnchor"] == "root"


def test_linked_config_is_not_read(tmp_path: Path) -> None:
    root = project(tmp_path, {"real.js": "module.exports = {};\n", "app/route.ts": ROUTE})
    os.symlink("real.js", root / "next.config.js")
    document = document_of(root)
    assert document["facts"][0]["pathAnchor"] == "base"


def test_linked_package_json_is_version_unknown(tmp_path: Path) -> None:
    root = write_project(tmp_path / "w", {"real.json": NEXT16, "app/route.ts": ROUTE})
    os.symlink("real.json", root / "package.json")
    document = document_of(root)
    assert any(
        line.startswith("route-framework-version-unknown:") for line in document["limitations"]
    )


def test_page_extensions_apply_to_app(tmp_path: Path) -> None:
    root = project(
        tmp_path,
        {
            "next.config.js": "module.exports = { pageExtensions: ['page.ts'] };\n",
            "app/a/route.page.ts": ROUTE,
            "app/b/route.ts": ROUTE,
        },
    )
    assert decls(document_of(root)) == {("GET", "/a", "app/a/route.page.ts")}


def test_page_extensions_not_literal(tmp_path: Path) -> None:
    root = project(
        tmp_path,
        {
            "next.config.js": "module.exports = { pageExtensions: exts };\n",
            "app/b/route.ts": ROUTE,
        },
    )
    document = document_of(root)
    assert decls(document) == {("GET", "/b", "app/b/route.ts")}
    assert any("page-extensions-not-literal: 1" in line for line in document["limitations"])


def test_i18n_and_asset_prefix_drop_scopes(tmp_path: Path) -> None:
    root = project(
        tmp_path,
        {
            "next.config.js": "module.exports = { assetPrefix: 'https://cdn.example' };\n",
            "app/route.ts": ROUTE,
            "static/a.txt": "x",
            "public/b.txt": "x",
        },
    )
    scopes = document_of(root)["limitationScopes"]
    prefixes = sorted(scope["templatePrefixes"][0] for scope in scopes)
    assert prefixes == ["/", "/static"]
    root = project(
        tmp_path,
        {
            "next.config.js": "module.exports = { i18n: { locales: ['en'] } };\n",
            "app/route.ts": ROUTE,
            "static/a.txt": "x",
        },
        name="i18n",
    )
    assert "limitationScopes" not in document_of(root)


def test_location_counts_a_bom_as_three_bytes(tmp_path: Path) -> None:
    root = project(tmp_path, {"app/route.ts": "\ufeffexport function GET() {}\n"})
    location = document_of(root)["facts"][0]["location"]
    assert (location["line"], location["column"]) == (1, 20)


def test_export_forms_and_their_locations(tmp_path: Path) -> None:
    source = (
        "import { h } from './impl';\n"
        "export const { PUT, DELETE } = make();\n"
        "export { h as PATCH };\n"
        "export { x as HEAD } from './impl';\n"
        "export type { T } from './impl';\n"
        "export function post() {}\n"
        "export default function GET() {}\n"
    )
    document = document_of(project(tmp_path, {"app/route.ts": source}))
    found = {
        fact["method"]: (
            fact["location"]["line"],
            fact["location"]["column"],
            fact["symbol"]["usr"],
        )
        for fact in document["facts"]
    }
    assert found == {
        "PUT": (2, 16, "app/route.ts#PUT"),
        "DELETE": (2, 21, "app/route.ts#DELETE"),
        "PATCH": (3, 15, "app/route.ts#PATCH"),
        "HEAD": (4, 15, "app/route.ts#HEAD"),
    }


def test_version_ranges(tmp_path: Path) -> None:
    for index, (version, known) in enumerate(
        [("16.2.7", True), ("^16.0.0", True), ("~16.1", True), (">=16", False), ("latest", False)]
    ):
        root = write_project(
            tmp_path / f"v{index}",
            {"package.json": f'{{"dependencies": {{"next": "{version}"}}}}', "app/route.ts": ROUTE},
        )
        lines = document_of(root)["limitations"]
        unknown = any(line.startswith("route-framework-version-unknown:") for line in lines)
        assert unknown is not known, version


def test_mixed_segment_is_dynamic(tmp_path: Path) -> None:
    document = document_of(project(tmp_path, {"app/v[id]/route.ts": ROUTE}))
    fact = document["facts"][0]
    assert (fact["channel"], fact["dynamic"]) == ("/v{}", True)
    assert any("mixed-dynamic-segment: 1" in line for line in document["limitations"])


def test_non_utf8_route_file_is_coverage(tmp_path: Path) -> None:
    root = project(tmp_path, {"app/a/route.ts": ROUTE, "app/b/route.ts": ROUTE})
    (root / "app/b/route.ts").write_bytes(b"export function GET() { '\xff' }\n")
    document = document_of(root)
    assert decls(document) == {("GET", "/a", "app/a/route.ts")}
    assert any("unreadable-file-" in line for line in document["limitations"])


def test_app_and_pages_in_different_folders_is_coverage(tmp_path: Path) -> None:
    files = {"app/a/route.ts": ROUTE, "src/pages/api/b.ts": "export default 1"}
    document = document_of(project(tmp_path, files))
    assert any("app-and-pages-in-different-folders: 1" in line for line in document["limitations"])


def test_declare_and_type_exports_are_not_handlers(tmp_path: Path) -> None:
    source = (
        "export declare function GET(): void;\n"
        "export declare const POST: unknown;\n"
        "export interface DELETE {}\n"
        "export type PATCH = string;\n"
        "export function PUT(): void;\n"
        "export function PUT(x?: number) {}\n"
    )
    document = document_of(project(tmp_path, {"app/route.ts": source}))
    assert [(fact["method"], fact["location"]["line"]) for fact in document["facts"]] == [
        ("PUT", 5)
    ]


def test_app_as_a_plain_file_stops_the_lookup(tmp_path: Path) -> None:
    # find-pages-dir.js uses existsSync: a file named `app` is picked (and fails the build),
    # so src/app is not a fallback.
    root = project(tmp_path, {"app": "not a folder", "src/app/a/route.ts": ROUTE})
    document = document_of(root)
    assert document["facts"] == []
    assert any("not-a-folder: 1" in line for line in document["limitations"])


def test_syntax_error_keeps_the_well_formed_exports(tmp_path: Path) -> None:
    source = "export async function GET() {\n  return 1;\n}\nconst broken = (;\n"
    document = document_of(project(tmp_path, {"app/a/route.ts": source}))
    assert decls(document) == {("GET", "/a", "app/a/route.ts")}
    assert any("syntax-errors: 1" in line for line in document["limitations"])


def test_config_without_an_object_export_is_base(tmp_path: Path) -> None:
    for index, config in enumerate(["module.exports = 42;\n", "const c = { basePath: '/x' };\n"]):
        document = _base(tmp_path / str(index), config)
        assert document["facts"][0]["pathAnchor"] == "base", config
        assert any(line.startswith("unresolved-route-prefix:") for line in document["limitations"])


def test_non_javascript_page_extension_is_coverage(tmp_path: Path) -> None:
    root = project(
        tmp_path,
        {
            "next.config.js": "module.exports = { pageExtensions: ['ts', 'mdx'] };\n",
            "app/a/route.mdx": "# not code\n",
            "app/b/route.ts": ROUTE,
        },
    )
    document = document_of(root)
    assert decls(document) == {("GET", "/b", "app/b/route.ts")}
    assert any("non-javascript-extension: 1" in line for line in document["limitations"])


def test_config_strings_are_decoded_like_javascript(tmp_path: Path) -> None:
    # Fixed with the neutral syntax form: escapes used to make basePath unreadable.
    document = _base(tmp_path, "module.exports = { basePath: '/d\\u006fcs' };\n")
    assert document["facts"][0]["channel"] == "/docs/a"
    assert document["facts"][0]["pathAnchor"] == "root"


def test_comments_in_the_config_object_hide_nothing(tmp_path: Path) -> None:
    # Fixed with the neutral syntax form: a comment member counted as an unresolved spread.
    config = "module.exports = {\n  // served under /x\n  basePath: '/x', /* c */\n};\n"
    document = _base(tmp_path, config)
    assert document["facts"][0]["channel"] == "/x/a"
    assert document["facts"][0]["pathAnchor"] == "root"


def test_a_warm_run_parses_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = project(tmp_path, {"next.config.js": "module.exports = {};\n", "app/a/route.ts": ROUTE})
    cache = tmp_path / "cache"
    calls: list[str] = []
    original = syntax_cache.read_syntax

    def counting(path: str, data: bytes) -> object:
        calls.append(path)
        return original(path, data)

    monkeypatch.setattr(syntax_cache, "read_syntax", counting)
    cold = run_routes(root, "--cache-dir", str(cache))
    assert sorted(calls) == ["app/a/route.ts", "next.config.js"]
    calls.clear()
    warm = run_routes(root, "--cache-dir", str(cache))
    assert calls == [] and warm.stdout == cold.stdout

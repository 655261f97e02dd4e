"""Every command from a monorepo root: fixtures/monorepo/pnpm-shop.

The fixture is a pnpm workspace with a Next.js app (apps/web: its own tsconfig
alias, ky), an Express app with Prisma (apps/api), a shared package whose
exports name its build output (packages/format: dist/ read back through its
tsconfig's outDir and rootDir, lib/) and a private package (packages/internal).
Runs at the root must give the facts of runs at each package with paths and
ids rebased onto the root, so they join the root's graph.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.cli_helpers import tsograph
from tests.golden import assert_golden_document
from tests.openapi.support import GENERATED_AT
from tests.openapi.support import invoke
from tests.routes.support import copy_project

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "monorepo"
SERVICES = ("apps/api", "apps/web")
# (command words, golden folder)
COMMANDS = [
    (("routes", "--role", "server"), "routes-server"),
    (("routes", "--role", "client"), "routes-client"),
    (("schema",), "schema"),
]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_project(FIXTURE / "pnpm-shop", tmp_path / "pnpm-shop")


def run(words: tuple[str, ...], project: Path, *extra: str) -> Any:
    result = invoke(
        *words, "--project", str(project), "--no-cache", "--generated-at", GENERATED_AT, *extra
    )
    assert result.code == 0, result.stderr
    assert result.stderr == ""
    return result


def rebased(document: dict[str, Any], folder: str) -> list[dict[str, Any]]:
    """The facts of a run at `folder` as the root would name them (written out by hand
    here, not with the code under test)."""
    text = orjson.dumps(document["facts"]).decode()
    # Locations always name a file; ids name one before their `#` (a Prisma model's
    # qualifiedName is its bare name).
    text = re.sub(
        r'"(path|usr|qualifiedName|group)":"([^"]*)"',
        lambda m: (
            m.group(0)
            if m.group(1) != "path" and "#" not in m.group(2)
            else f'"{m.group(1)}":"{folder}/{m.group(2)}"'
        ),
        text,
    )
    facts: list[dict[str, Any]] = orjson.loads(text)
    return facts


@pytest.mark.parametrize(("words", "name"), COMMANDS)
def test_root_runs_give_each_package_run_rebased(
    words: tuple[str, ...], name: str, root: Path
) -> None:
    for folder in SERVICES:
        alone = orjson.loads(run(words, root / folder).stdout)
        chosen = orjson.loads(run(words, root, "--workspace", str(root / folder)).stdout)
        # The graph's spelling of the same choice: the package, inside the root.
        reverse = orjson.loads(run(words, root / folder, "--workspace", str(root)).stdout)
        assert chosen == reverse
        assert chosen["facts"] == rebased(alone, folder)
        assert chosen["limitations"] == alone["limitations"]
        assert chosen["project"] == "pnpm-shop"


@pytest.mark.parametrize(("words", "name"), COMMANDS)
@pytest.mark.parametrize(
    ("folder", "stem"), list(zip(SERVICES, ("shop__api", "shop__web"), strict=True))
)
def test_out_dir_writes_one_golden_document_per_service(
    words: tuple[str, ...], name: str, folder: str, stem: str, root: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    result = run(words, root, "--out-dir", str(out))
    assert result.stdout == b""
    assert sorted(path.name for path in out.iterdir()) == ["shop__api.json", "shop__web.json"]
    written = (out / f"{stem}.json").read_bytes()
    assert written == run(words, root, "--workspace", str(root / folder)).stdout
    assert_golden_document(written, FIXTURE / "expected" / name / f"{stem}.json")


@pytest.mark.parametrize(("words", "name"), COMMANDS)
def test_several_services_without_a_choice_is_one_usage_line(
    words: tuple[str, ...], name: str
) -> None:
    project = "fixtures/monorepo/pnpm-shop"
    result = tsograph(*words, "--project", project)
    assert result.code == 64
    assert result.stdout == b""
    prefix = " ".join(["tsograph", *words, "--project", project])
    assert result.stderr == (
        f"tsograph: --project {project} holds 2 services (apps/api, apps/web) and a document "
        "covers one; pass --out-dir DIR for one document each, or run one of: "
        f"{prefix} --workspace {project}/apps/api; {prefix} --workspace {project}/apps/web\n"
    )


def test_workspace_and_out_dir_exclude_each_other(root: Path, tmp_path: Path) -> None:
    result = invoke(
        "schema",
        "--project",
        str(root),
        "--workspace",
        str(root / "apps/api"),
        "--out-dir",
        str(tmp_path / "out"),
    )
    assert (result.code, result.stdout) == (64, b"")
    assert "--workspace and --out-dir exclude each other" in result.stderr


def test_routes_pipe_into_impact_and_reach_from_the_root(root: Path) -> None:
    decls = run(("routes", "--role", "server"), root, "--workspace", str(root / "apps/api")).stdout
    impact = tsograph("impact", "--project", root, "--no-cache", "--roots-from", "-", stdin=decls)
    assert impact.code == 0, impact.stderr
    dependents = orjson.loads(impact.stdout)
    # Every root is a graph node (a root that is none has no symbol, and the exit is 64).
    assert [item["symbol"]["usr"] for item in dependents["roots"]] == [
        "apps/api/src/app.ts#listUsers"
    ]
    assert {s["symbol"]["usr"] for s in dependents["reached"]} == {"apps/api/src/app.ts#<module>"}
    reach = tsograph("reach", "--project", root, "--no-cache", "--roots-from", "-", stdin=decls)
    assert reach.code == 0, reach.stderr
    # Across packages: through @shop/format's exports (dist/ read back as lib/) into the
    # private package.
    assert {s["symbol"]["usr"] for s in orjson.loads(reach.stdout)["reached"]} == {
        "packages/format/lib/index.ts#userLabel",
        "packages/internal/src/index.ts#clean",
    }


def test_impact_from_a_shared_package_reaches_both_apps_handlers(root: Path) -> None:
    result = tsograph(
        "impact", "--project", root, "--no-cache", "packages/internal/src/index.ts#clean"
    )
    assert result.code == 0, result.stderr
    reached = {s["symbol"]["usr"] for s in orjson.loads(result.stdout)["reached"]}
    handlers = set()
    for folder in SERVICES:
        decls = orjson.loads(
            run(("routes", "--role", "server"), root, "--workspace", str(root / folder)).stdout
        )
        handlers |= {fact["symbol"]["usr"] for fact in decls["facts"]}
    assert handlers == {"apps/api/src/app.ts#listUsers", "apps/web/src/app/api/orders/route.ts#GET"}
    assert handlers <= reached


def test_out_dir_in_text_writes_the_text_reading_per_service(root: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    run(("routes", "--role", "server"), root, "--out-dir", str(out), "--format", "text")
    assert sorted(path.name for path in out.iterdir()) == ["shop__api.txt", "shop__web.txt"]
    alone = run(
        ("routes", "--role", "server"),
        root,
        "--workspace",
        str(root / "apps/web"),
        "--format",
        "text",
    )
    assert (out / "shop__web.txt").read_bytes() == alone.stdout
    assert b"apps/web/src/app/api/orders/route.ts:4" in alone.stdout


def test_out_dir_that_is_a_file_is_unreadable_input(root: Path, tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("")
    result = invoke("schema", "--project", str(root), "--out-dir", str(tmp_path / "taken"))
    assert (result.code, result.stdout) == (2, b"")
    assert result.stderr == ("tsograph: --out-dir taken: is a file, not a folder; pass a folder\n")

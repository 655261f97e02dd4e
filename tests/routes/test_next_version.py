"""Which Next.js major a project installs: the lockfile first, as for the Node backends.

openstatus declares `"next": "catalog:"` in apps/web; its root pnpm-lock.yaml resolves
the importer to 16.3.0, and the document said the range was "not limited to major 16",
a gap line that weakens every `check` finding on the service. linkwarden pins
`"next": "15.5.21"`: a proven major the rules (next@16) do not model, not an unknown one.
"""

from __future__ import annotations

from pathlib import Path

from tests.routes.support import document_of
from tests.routes.support import write_project

ROUTE = "export function GET() { return new Response('ok'); }\n"
PNPM_CATALOG = """lockfileVersion: '9.0'

catalogs:
  default:
    next:
      specifier: 16.3.0
      version: 16.3.0

importers:

  .: {}

  apps/web:
    dependencies:
      next:
        specifier: 'catalog:'
        version: 16.3.0(react@19.2.6)

packages:

  next@16.3.0:
    resolution: {integrity: sha512-x}
"""


def _version_lines(document: dict[str, object]) -> list[str]:
    lines = document["limitations"]
    assert isinstance(lines, list)
    return [line for line in lines if line.startswith("route-framework-version-unknown:")]


def test_a_catalog_range_is_read_from_the_workspace_lockfile(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "repo",
        {
            "package.json": '{"name": "repo", "private": true}',
            "pnpm-workspace.yaml": "packages:\n  - apps/*\ncatalog:\n  next: 16.3.0\n",
            "pnpm-lock.yaml": PNPM_CATALOG,
            "apps/web/package.json": '{"name": "web", "dependencies": {"next": "catalog:"}}',
            "apps/web/app/api/ping/route.ts": ROUTE,
        },
    )
    document = document_of(root, "--workspace", str(root / "apps/web"))
    assert [fact["channel"] for fact in document["facts"]] == ["/api/ping"]
    assert _version_lines(document) == []


def test_a_pinned_older_major_is_named_not_called_unknown(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "web",
        {"package.json": '{"dependencies": {"next": "15.5.21"}}', "app/api/ping/route.ts": ROUTE},
    )
    assert _version_lines(document_of(root)) == [
        "route-framework-version-unknown: 1 next 15 is installed (its declared range) and "
        "only the Next.js 16 rules are modelled; they were used"
    ]


def test_an_open_range_without_a_lockfile_stays_unknown(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "web",
        {"package.json": '{"dependencies": {"next": ">=15"}}', "app/api/ping/route.ts": ROUTE},
    )
    assert _version_lines(document_of(root)) == [
        "route-framework-version-unknown: 1 the declared next range '>=15' is not limited to "
        "one major and no lockfile gives the installed version; Next.js 16 rules assumed"
    ]

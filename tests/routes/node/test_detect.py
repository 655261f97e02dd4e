"""Framework detection: root package.json dependencies, the major from the lockfile or range."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.routes.support import write_project
from tsograph.producers.project.model import ProjectModel
from tsograph.producers.routes.node.detect import detect

PACKAGE = '{"dependencies": {"express": "^4.19.0", "hono": "*"}}'


def _major(root: Path, package: str) -> int | None:
    return detect(ProjectModel.load(root)).major(package)


@pytest.mark.parametrize(
    ("declared", "major"),
    [
        ("4.22.3", 4),
        ("^5.0.0", 5),
        ("~4.1", 4),
        ("4.x", 4),
        ("5", 5),
        (">=4", None),
        ("*", None),
        ("4 || 5", None),
        ("latest", None),
        ("github:expressjs/express", None),
    ],
)
def test_major_from_the_declared_range(tmp_path: Path, declared: str, major: int | None) -> None:
    write_project(tmp_path, {"package.json": f'{{"dependencies": {{"express": "{declared}"}}}}'})
    assert _major(tmp_path, "express") == major


NPM_LOCK = (
    '{"lockfileVersion": 3, "packages": {"": {}, '
    '"node_modules/express": {"version": "5.2.1"}, '
    '"node_modules/hono": {"version": "4.13.12"}}}'
)
# The root importer's versions, not packages/other's.
PNPM_LOCK = (
    "lockfileVersion: '9.0'\n\nimporters:\n\n  .:\n    dependencies:\n"
    "      express:\n        specifier: ^4.19.0\n        version: 4.22.3\n"
    "      hono:\n        specifier: '*'\n        version: 4.13.12\n\n"
    "  packages/other:\n    dependencies:\n      express:\n"
    "        specifier: ^5.0.0\n        version: 5.2.1\n"
)
YARN_CLASSIC_LOCK = (
    '"express@^4.19.0":\n  version "4.22.3"\n  resolved "x"\n\nhono@*:\n  version "4.13.12"\n'
)
YARN_BERRY_LOCK = '"express@npm:^4.19.0":\n  version: 4.22.3\n\n"hono@npm:*":\n  version: 4.13.12\n'
BUN_LOCK = (
    '{\n  "lockfileVersion": 1,\n  // comments and trailing commas are allowed\n'
    '  "packages": {\n    "express": ["express@4.22.3", "", {}, "sha512-x"],\n'
    '    "hono": ["hono@4.13.12", "", {}, "sha512-y"],\n  },\n}\n'
)


@pytest.mark.parametrize(
    ("lockfile", "lock", "express"),
    [
        ("package-lock.json", NPM_LOCK, 5),
        ("pnpm-lock.yaml", PNPM_LOCK, 4),
        ("yarn.lock", YARN_CLASSIC_LOCK, 4),
        ("yarn.lock", YARN_BERRY_LOCK, 4),
        ("bun.lock", BUN_LOCK, 4),
    ],
    ids=["npm", "pnpm", "yarn-classic", "yarn-berry", "bun"],
)
def test_lockfile_version_wins_over_the_range(
    tmp_path: Path, lockfile: str, lock: str, express: int
) -> None:
    write_project(tmp_path, {"package.json": PACKAGE, lockfile: lock})
    assert _major(tmp_path, "express") == express
    assert _major(tmp_path, "hono") == 4
    assert detect(ProjectModel.load(tmp_path)).unproven() == []


def test_unproven_and_unverified_majors_are_reported(tmp_path: Path) -> None:
    write_project(
        tmp_path,
        {
            "package.json": (
                '{"dependencies": {"express": "^3.0.0", "hono": "*", "fastify": "5.1.0"}}'
            )
        },
    )
    detection = detect(ProjectModel.load(tmp_path))
    # `^3.0.0` proves major 3, which no rule table models; `*` proves nothing.
    assert detection.unproven() == ["hono"]
    assert detection.unmodeled_majors() == [("express", 3)]


def test_unreadable_package_json_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    write_project(tmp_path, {"package.json": "{ not json"})
    detection = detect(ProjectModel.load(tmp_path))
    assert detection.frameworks == {}
    assert detection.package_problem == "package.json is not valid JSON"


def test_linked_package_json_is_not_read(tmp_path: Path) -> None:
    write_project(tmp_path, {"real.json": PACKAGE})
    (tmp_path / "package.json").symlink_to("real.json")
    detection = detect(ProjectModel.load(tmp_path))
    assert detection.frameworks == {}
    assert detection.package_problem == "package.json could not be read (symbolic link)"

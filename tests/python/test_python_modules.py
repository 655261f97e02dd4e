"""Python module resolution (producers/project/python_modules.py) over small trees."""

from __future__ import annotations

from pathlib import Path

from tsograph.producers.project.python_modules import PyResolution
from tsograph.producers.project.python_modules import PythonModules


def _tree(root: Path, files: dict[str, str]) -> PythonModules:
    for relative, text in files.items():
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    sources = [path for path in files if path.endswith((".py", ".pyi"))]
    return PythonModules.load(root, sources)


def test_importing_files_folder_and_its_parents(tmp_path: Path) -> None:
    modules = _tree(tmp_path, {"app/main.py": "", "app/util.py": "", "shared.py": ""})
    assert modules.resolve("app/main.py", "util") == PyResolution("module", "app/util.py")
    assert modules.resolve("app/main.py", "shared") == PyResolution("module", "shared.py")
    assert modules.resolve("app/main.py", "app.util") == PyResolution("module", "app/util.py")


def test_src_folder_holding_a_package(tmp_path: Path) -> None:
    modules = _tree(
        tmp_path,
        {"src/lib/__init__.py": "", "src/lib/core.py": "", "tests/test_core.py": ""},
    )
    assert modules.resolve("tests/test_core.py", "lib.core") == PyResolution(
        "module", "src/lib/core.py"
    )
    assert modules.resolve("tests/test_core.py", "lib") == PyResolution(
        "module", "src/lib/__init__.py"
    )


def test_folders_with_project_manifests_are_roots(tmp_path: Path) -> None:
    modules = _tree(
        tmp_path,
        {
            "services/api/pyproject.toml": "[project]\nname = 'api'\n",
            "services/api/api/__init__.py": "",
            "services/api/api/views.py": "",
            "libs/common/setup.py": "",
            "libs/common/common.py": "",
            "scripts/run.py": "",
        },
    )
    assert modules.project_roots == ("libs/common", "services/api")
    assert modules.resolve("scripts/run.py", "api.views") == PyResolution(
        "module", "services/api/api/views.py"
    )
    assert modules.resolve("scripts/run.py", "common") == PyResolution(
        "module", "libs/common/common.py"
    )


def test_namespace_packages_join_their_portions(tmp_path: Path) -> None:
    modules = _tree(
        tmp_path,
        {
            "a/pyproject.toml": "",
            "a/ns/one.py": "",
            "b/pyproject.toml": "",
            "b/ns/two.py": "",
            "main.py": "",
        },
    )
    assert modules.resolve("main.py", "ns") == PyResolution("namespace", folders=("a/ns", "b/ns"))
    assert modules.resolve("main.py", "ns.one") == PyResolution("module", "a/ns/one.py")
    assert modules.resolve("main.py", "ns.two") == PyResolution("module", "b/ns/two.py")


def test_a_module_or_regular_package_wins_over_a_namespace_package(tmp_path: Path) -> None:
    modules = _tree(
        tmp_path,
        {
            "lib/pyproject.toml": "",
            "lib/tools.py": "",
            "other/pyproject.toml": "",
            "other/tools/helper.py": "",
            "main.py": "",
        },
    )
    assert modules.resolve("main.py", "tools") == PyResolution("module", "lib/tools.py")
    # The namespace portion lost: its submodule is not reachable through `tools`.
    assert modules.resolve("main.py", "tools.helper").kind == "miss"


def test_a_module_found_in_two_places_is_ambiguous(tmp_path: Path) -> None:
    modules = _tree(
        tmp_path, {"app/main.py": "", "app/config.py": "", "config.py": "", "app/x/y.py": ""}
    )
    assert modules.resolve("app/main.py", "config") == PyResolution(
        "ambiguous", places=("app/config.py", "config.py")
    )
    # From the root, only the root's own config.py is in reach.
    assert modules.resolve("app/x/y.py", "main") == PyResolution("module", "app/main.py")


def test_stub_only_when_no_source(tmp_path: Path) -> None:
    modules = _tree(tmp_path, {"m.py": "", "m.pyi": "", "s.pyi": "", "main.py": ""})
    assert modules.resolve("main.py", "m") == PyResolution("module", "m.py")
    assert modules.resolve("main.py", "s") == PyResolution("module", "s.pyi")


def test_relative_imports(tmp_path: Path) -> None:
    modules = _tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/models.py": "",
            "pkg/sub/__init__.py": "",
            "pkg/sub/views.py": "",
        },
    )
    assert modules.resolve("pkg/sub/views.py", ".") == PyResolution("module", "pkg/sub/__init__.py")
    assert modules.resolve("pkg/sub/views.py", "..models") == PyResolution(
        "module", "pkg/models.py"
    )
    assert modules.resolve("pkg/sub/views.py", "..") == PyResolution("module", "pkg/__init__.py")
    assert modules.resolve("pkg/__init__.py", ".models") == PyResolution("module", "pkg/models.py")
    assert modules.resolve("pkg/sub/views.py", "...x").kind == "miss"
    assert modules.resolve("pkg/sub/views.py", "....x").kind == "miss"
    # A relative import is never searched in the roots.
    assert modules.resolve("pkg/sub/views.py", ".models").kind == "miss"


def test_declared_dependencies_and_the_standard_library_are_external(tmp_path: Path) -> None:
    modules = _tree(
        tmp_path,
        {
            "pyproject.toml": (
                "[project]\ndependencies = ['FastAPI>=0.100', 'pydantic[email]']\n"
                "[project.optional-dependencies]\ntest = ['pytest']\n"
                "[tool.poetry.dependencies]\npython = '^3.11'\nSQLAlchemy = '*'\n"
            ),
            "requirements-dev.txt": "# tools\n-r requirements.txt\nruff==0.5 # lint\n-e .\n",
            "setup.cfg": "[options]\ninstall_requires =\n    httpx\n    typing-extensions\n",
            "Pipfile": "[packages]\nrequests = '*'\n",
            "main.py": "",
        },
    )
    for name in (
        "fastapi",
        "pydantic.fields",
        "pytest",
        "sqlalchemy.orm",
        "ruff",
        "httpx",
        "typing_extensions",
        "requests",
        "os.path",
        "json",
    ):
        assert modules.resolve("main.py", name).kind == "external", name
    assert modules.resolve("main.py", "yaml").kind == "miss"
    assert modules.resolve("main.py", "python").kind == "miss"


def test_a_project_module_shadows_the_standard_library(tmp_path: Path) -> None:
    modules = _tree(tmp_path, {"logging.py": "", "main.py": ""})
    assert modules.resolve("main.py", "logging") == PyResolution("module", "logging.py")


def test_an_unreadable_manifest_is_a_note(tmp_path: Path) -> None:
    modules = _tree(tmp_path, {"pyproject.toml": "[project\n", "main.py": ""})
    assert modules.notes == ["pyproject.toml: TOMLDecodeError"]
    assert modules.project_roots == ("",)


def test_a_namespace_folder_never_hides_a_declared_or_standard_module(tmp_path: Path) -> None:
    modules = _tree(
        tmp_path,
        {
            "pyproject.toml": "[project]\ndependencies = ['alembic']\n",
            "app/alembic/versions/one.py": "",
            "app/email/send.py": "",
            "app/main.py": "",
        },
    )
    # app/ is a root for files below it; its alembic/ and email/ folders hold no __init__.py.
    assert modules.resolve("app/alembic/versions/one.py", "alembic").kind == "external"
    assert modules.resolve("app/main.py", "email.message").kind == "external"
    assert modules.resolve("app/main.py", "alembic.versions.one") == PyResolution("external")


def test_a_requirements_folder_declares_dependencies(tmp_path: Path) -> None:
    modules = _tree(
        tmp_path,
        {
            "requirements/base.txt": "Django>=4.2\n",
            "requirements/local.txt": "-r base.txt\ndjango-debug-toolbar\n",
            "app/views.py": "",
        },
    )
    assert modules.resolve("app/views.py", "django.http").kind == "external"
    assert modules.resolve("app/views.py", "debug_toolbar").kind == "miss"  # import name differs
    assert modules.resolve("app/views.py", "django_debug_toolbar").kind == "external"

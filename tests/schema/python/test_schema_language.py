"""Which language `schema` reads at a root holding both Python and TypeScript/JavaScript.

django-oscar (a Django shop with a package.json for its front-end build) used
to give an empty JavaScript document; the rule is in producers/schema/language.py.
"""

from __future__ import annotations

from pathlib import Path

import orjson

from tests.schema.support import run_schema
from tests.schema.support import write_project

DJANGO = {
    "shop/__init__.py": "",
    "shop/models.py": "from django.db import models\n\n"
    "class Product(models.Model):\n    title = models.CharField(max_length=10)\n\n"
    "    class Meta:\n        app_label = 'shop'\n",
    "static/js/app.js": "export function open() {\n  return 1;\n}\n",
    "tools/release.py": "import subprocess\n\nsubprocess.run(['true'])\n",
}
FRONT_END_BUILD = '{"name": "shop", "devDependencies": {"gulp": "4.0.2"}}\n'


def _platform_and_tables(root: Path, *extra: str) -> tuple[str, list[str]]:
    result = run_schema(root, *extra)
    assert result.code == 0, result.stderr
    document = orjson.loads(result.stdout)
    return document["platform"], sorted({fact["channel"] for fact in document["facts"]})


def test_python_database_code_beside_a_front_end_build_is_read_as_python(
    tmp_path: Path,
) -> None:
    root = write_project(tmp_path / "shop", {**DJANGO, "package.json": FRONT_END_BUILD})
    assert _platform_and_tables(root) == ("python", ["shop_product"])


def test_a_javascript_database_package_beside_it_asks_for_a_language(tmp_path: Path) -> None:
    manifest = '{"name": "shop", "dependencies": {"pg": "8.11.0"}}\n'
    root = write_project(tmp_path / "shop", {**DJANGO, "package.json": manifest})
    result = run_schema(root)
    assert result.code == 64 and result.stdout == b""
    assert result.stderr.count("\n") == 1
    assert "JavaScript and Python database code; choose one with --language" in result.stderr
    assert _platform_and_tables(root, "--language", "python")[0] == "python"


def test_python_scripts_without_database_code_leave_a_javascript_project_alone(
    tmp_path: Path,
) -> None:
    files = {
        "package.json": '{"name": "app", "dependencies": {"pg": "8.11.0"}}\n',
        "src/db.ts": 'import { Pool } from "pg";\n\nconst pool = new Pool();\n\n'
        "export function users() {\n"
        '  return pool.query("SELECT id FROM users");\n}\n',
        "tools/release.py": "import subprocess\n\nsubprocess.run(['true'])\n",
    }
    platform, tables = _platform_and_tables(write_project(tmp_path / "app", files))
    assert platform == "js" and "users" in tables


def test_out_dir_names_a_python_document_after_the_folder_not_the_front_end_package(
    tmp_path: Path,
) -> None:
    # The root package.json names the front-end build ("shop-assets"); the document
    # reads the Django code, whose `project` is the folder, so its file is too.
    manifest = '{"name": "shop-assets", "devDependencies": {"gulp": "4.0.2"}}\n'
    root = write_project(tmp_path / "oscar", {**DJANGO, "package.json": manifest})
    out = tmp_path / "out"
    result = run_schema(root, "--out-dir", str(out))
    assert (result.code, result.stdout) == (0, b""), result.stderr
    assert [path.name for path in out.iterdir()] == ["oscar.json"]
    document = orjson.loads((out / "oscar.json").read_bytes())
    assert (document["platform"], document["project"]) == ("python", "oscar")
    javascript = run_schema(root, "--out-dir", str(out), "--language", "js")
    assert javascript.code == 0, javascript.stderr
    assert sorted(path.name for path in out.iterdir()) == ["oscar.json", "shop-assets.json"]

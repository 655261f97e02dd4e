"""The wheel carries the code, the schemas and the console script.

The test builds the wheel without network access (no build isolation, no
dependencies) and runs the installed copy from a foreign working directory,
so a schema that is only found in a source checkout fails here.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from tests.cli_helpers import REPO

FIXTURE = REPO / "fixtures" / "documents" / "route-contract.json"


def _run(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False
    )


def _source_copy(target: Path) -> Path:
    # Building in the checkout would leave a build/ folder whose stale files
    # could slip into later wheels; build from a clean copy instead.
    target.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, target / name)
    for package in ("producers", "exchange", "schemas", "tsograph"):
        shutil.copytree(
            REPO / package,
            target / package,
            symlinks=True,
            ignore=shutil.ignore_patterns("__pycache__"),
        )
    return target


def test_wheel_installs_and_finds_its_schemas(tmp_path: Path) -> None:
    source = _source_copy(tmp_path / "source")
    wheels = tmp_path / "wheels"
    built = _run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "--no-build-isolation",
        "--no-index",
        "-q",
        "-w",
        str(wheels),
        str(source),
        cwd=tmp_path,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = wheels.glob("tsograph-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        entry_points = next(n for n in names if n.endswith("entry_points.txt"))
        assert "tsograph = tsograph.producers.cli:main" in archive.read(entry_points).decode()
    for schema in (REPO / "schemas").glob("*.json"):
        assert f"tsograph/schemas/{schema.name}" in names
    assert "tsograph/producers/cli.py" in names and "tsograph/exchange/writer.py" in names
    # One top-level import package: nothing installed under a name another
    # distribution (`exchange`, `schemas`) could own.
    assert {name.split("/")[0] for name in names} == {
        "tsograph",
        wheel.name.split("-")[0] + "-" + wheel.name.split("-")[1] + ".dist-info",
    }

    site = tmp_path / "site"
    installed = _run(
        sys.executable,
        "-m",
        "pip",
        "install",
        "--no-deps",
        "--no-index",
        "-q",
        "--target",
        str(site),
        str(wheel),
        cwd=tmp_path,
    )
    assert installed.returncode == 0, installed.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    program = (
        "import sys\n"
        f"sys.path.insert(0, {str(site)!r})\n"
        "import tsograph.producers, tsograph.schemas\n"
        "p, s = tsograph.producers, tsograph.schemas\n"
        f"assert p.__file__.startswith({str(site)!r}), p.__file__\n"
        f"assert str(s.SCHEMA_DIR).startswith({str(site)!r})\n"
        "from tsograph.producers.cli import run\n"
        f"sys.exit(run(['validate', {str(FIXTURE)!r}]))\n"
    )
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    ran = _run(sys.executable, "-c", program, cwd=elsewhere, env=env)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.endswith("valid bridge-facts document\n")

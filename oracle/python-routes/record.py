"""Record which handler the real framework runs for each probe request over the route fixtures.

    python oracle/python-routes/record.py [case ...]

For each case of cases.json (a framework at pinned package versions) a
scratch virtual environment is made under /tmp and the pinned packages are
installed into it with pip; then probe.py runs inside it for every fixture
of the case, imports the fixture's app (our own fixture code, never a real
project) and asks the framework's test client. The recording is written to
oracle/recordings/python-routes/<case>.json; tests/routes/python_server/
replay it offline. Nothing here runs during the tests.
"""

from __future__ import annotations

import json
import subprocess
import sys
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
FIXTURES = REPO / "fixtures" / "routes" / "python"
RECORDINGS = REPO / "oracle" / "recordings" / "python-routes"


def main() -> int:
    cases = json.loads((HERE / "cases.json").read_text())
    wanted = sys.argv[1:] or sorted(cases)
    for name in wanted:
        case = cases[name]
        env = Path("/tmp") / f"tsograph-python-routes-{name}"
        if not (env / "bin" / "python").exists():
            venv.create(env, with_pip=True)
        subprocess.run([str(env / "bin" / "pip"), "install", "-q", *case["packages"]], check=True)
        versions = subprocess.run(
            [str(env / "bin" / "pip"), "freeze"], check=True, capture_output=True, text=True
        ).stdout.split()
        recording: dict[str, object] = {
            "case": name,
            "framework": case["framework"],
            "packages": sorted(v for v in versions if _pinned(v, case["packages"])),
            "fixtures": {},
        }
        for fixture, spec in sorted(case["fixtures"].items()):
            result = subprocess.run(
                [
                    str(env / "bin" / "python"),
                    str(HERE / "probe.py"),
                    case["framework"],
                    str(FIXTURES / fixture / "project"),
                    json.dumps(spec),
                ],
                check=True,
                capture_output=True,
                text=True,
            )
            recording["fixtures"][fixture] = json.loads(result.stdout)  # type: ignore[index]
        RECORDINGS.mkdir(parents=True, exist_ok=True)
        out = RECORDINGS / f"{name}.json"
        out.write_text(_render(recording))
        print(f"wrote {out.relative_to(REPO)}")
    return 0


def _render(recording: dict[str, object]) -> str:
    """Sorted JSON with one probe row a line, so a re-recording diffs by row."""
    fixtures = recording["fixtures"]
    assert isinstance(fixtures, dict)
    head = {key: value for key, value in recording.items() if key != "fixtures"}
    lines = [json.dumps(head, sort_keys=True)[:-1] + ', "fixtures": {']
    for index, (name, rows) in enumerate(sorted(fixtures.items())):
        lines.append(f"  {json.dumps(name)}: [")
        lines.extend(
            f"    {json.dumps(row)}{',' if position < len(rows) - 1 else ''}"
            for position, row in enumerate(rows)
        )
        lines.append("  ]" + ("," if index < len(fixtures) - 1 else ""))
    lines.append("}}")
    return "\n".join(lines) + "\n"


def _pinned(frozen: str, packages: list[str]) -> bool:
    name = frozen.partition("==")[0].lower()
    return any(package.partition("==")[0].lower() == name for package in packages)


if __name__ == "__main__":
    raise SystemExit(main())

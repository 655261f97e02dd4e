"""What the Python server scan cannot read is counted, never dropped (small projects in tmp)."""

from __future__ import annotations

from pathlib import Path

import orjson

from tests.cli_helpers import tsograph


def _document(root: Path, files: dict[str, str]) -> dict:  # type: ignore[type-arg]
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    result = tsograph("routes", "--role", "server", "--project", root)
    assert result.code == 0, result.stderr
    return orjson.loads(result.stdout)  # type: ignore[no-any-return]


def test_a_starlette_routes_list_item_not_proven_is_counted(tmp_path: Path) -> None:
    # Each Route/Mount of the list is read (starlette 1.10.0, replayed from
    # oracle/recordings/python-routes/starlette-1.10.0.json); an item that is no proven
    # Route is counted, and so is a FastAPI(routes=…) list.
    document = _document(
        tmp_path,
        {
            "app.py": "from fastapi import FastAPI\n"
            "from starlette.applications import Starlette\n"
            "from starlette.routing import Route\n\n"
            "async def home(request):\n    return None\n\n"
            "def made():\n    return None\n\n"
            'app = Starlette(routes=[Route("/", home), made()])\n'
            "api = FastAPI(routes=[])\n"
        },
    )
    assert [(fact["method"], fact["channel"]) for fact in document["facts"]] == [("GET", "/")]
    assert any("routes-list-argument: 2" in line for line in document["limitations"])


def test_a_route_in_a_function_never_called_is_counted(tmp_path: Path) -> None:
    document = _document(
        tmp_path,
        {
            "app.py": "from fastapi import FastAPI\n\napp = FastAPI()\n\n"
            "def later(router):\n"
            '    @router.get("/late")\n    def late():\n        return None\n'
        },
    )
    assert document["facts"] == []
    assert any(
        line.startswith("route-coverage: 1 route decorator(s)") and "app.py:6" in line
        for line in document["limitations"]
    )


def test_a_project_module_named_fastapi_proves_nothing(tmp_path: Path) -> None:
    document = _document(
        tmp_path,
        {
            "fastapi.py": "class FastAPI:\n    def get(self, path):\n        return lambda f: f\n",
            "app.py": "from fastapi import FastAPI\n\napp = FastAPI()\n\n"
            '@app.get("/x")\ndef x():\n    return None\n',
        },
    )
    assert document["facts"] == []
    assert any(
        line.startswith("route-coverage: 1 route decorator(s)") for line in document["limitations"]
    )

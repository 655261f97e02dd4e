"""What the server interpreter reads from Python values (values/python), in-process."""

from __future__ import annotations

from pathlib import Path

from tsograph.producers.project.model import ProjectModel
from tsograph.producers.routes.python_server.route_scan import scan_python_server


def _channels(root: Path, files: dict[str, str]) -> list[tuple[str, bool]]:
    for name, source in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(source)
    facts = scan_python_server(ProjectModel.load(root), None).facts
    return sorted((fact["channel"], bool(fact.get("dynamic"))) for fact in facts)


def _route(path: str, name: str) -> str:
    return f"@app.get({path})\ndef {name}():\n    pass\n\n"


def test_a_conversion_or_format_spec_in_an_f_string_path_is_not_the_value_text(
    tmp_path: Path,
) -> None:
    # `f"/{PREFIX!r}"` is "/'v1'" and `f"/{PREFIX:>4}"` is "/  v1" (CPython 3.11): the
    # name's text is not the path's, so those parts are unknown; a plain field is its text.
    source = (
        'from fastapi import FastAPI\n\nPREFIX = "v1"\napp = FastAPI()\n\n'
        + _route('f"/{PREFIX!r}/a"', "a")
        + _route('f"/{PREFIX:>4}/b"', "b")
        + _route('f"/{PREFIX}/c"', "c")
    )
    channels = _channels(tmp_path, {"app.py": source})
    assert ("/v1/c", False) in channels
    assert not any(channel in ("/v1/a", "/v1/b") for channel, _ in channels)


def test_percent_format_and_string_methods_build_paths(tmp_path: Path) -> None:
    # The same rules the client reads URLs by (values/python/strings.py), checked there
    # against CPython's own `%` and `str.format`.
    source = (
        'from fastapi import FastAPI\n\nPREFIX = "v1"\napp = FastAPI()\n\n'
        + _route('"/%s/a" % PREFIX', "a")
        + _route('"/{}/b".format(PREFIX)', "b")
        + _route('"/{p}/c/".rstrip("/").format(p=PREFIX)', "c")
        + _route('"/".join(["", PREFIX, "d"])', "d")
        + _route('"/%s/%s" % (PREFIX,)', "raises")
    )
    channels = _channels(tmp_path, {"app.py": source})
    assert [channel for channel, _ in channels if channel.startswith("/v1")] == [
        "/v1/a",
        "/v1/b",
        "/v1/c",
        "/v1/d",
    ]


def test_routers_imported_from_namespace_packages_keep_their_prefix(tmp_path: Path) -> None:
    # A folder without `__init__.py` is a namespace package (PEP 420): `from api import
    # users` and `import web.items` load the submodules as from a regular package.
    router = (
        "from fastapi import APIRouter\n\nrouter = APIRouter()\n\n\n"
        '@router.get("/{0}")\ndef {0}():\n    pass\n'
    )
    main = (
        "from fastapi import FastAPI\n\nimport web.items\nfrom api import users\n\n"
        'app = FastAPI()\napp.include_router(users.router, prefix="/a")\n'
        'app.include_router(web.items.router, prefix="/w")\n'
    )
    files = {
        "api/users.py": router.format("users"),
        "web/items.py": router.format("items"),
        "main.py": main,
    }
    assert _channels(tmp_path, files) == [("/a/users", False), ("/w/items", False)]


def test_routers_a_star_import_brings(tmp_path: Path) -> None:
    # `from routes import *` binds what `__all__` lists (here only `users`), else every
    # public name (the language reference, "The import statement").
    routes = (
        "from fastapi import APIRouter\n\n__all__ = ['users']\n"
        "users = APIRouter()\nitems = APIRouter()\n\n\n"
        '@users.get("/u")\ndef u():\n    pass\n\n\n@items.get("/i")\ndef i():\n    pass\n'
    )
    main = (
        "from fastapi import FastAPI\n\nfrom routes import *\n\n"
        'app = FastAPI()\napp.include_router(users, prefix="/a")\n'
        'app.include_router(items, prefix="/b")\n'
    )
    files = {"routes.py": routes, "main.py": main}
    assert _channels(tmp_path, files) == [("/a/u", False), ("/i", False)]


def test_an_expression_deeper_than_the_budget_is_unknown_not_a_crash(tmp_path: Path) -> None:
    # 1500 terms of `+` nest past Python's recursion limit; the one depth budget of the
    # readers (values/budget.py) cuts the chain into an unknown value instead.
    terms = " + ".join(['"/a"'] * 1500)
    source = (
        f"from fastapi import FastAPI\n\napp = FastAPI()\nP = {terms}\n\n\n"
        + _route("P", "deep")
        + _route('"/x"', "x")
    )
    channels = _channels(tmp_path, {"app.py": source})
    assert ("/x", False) in channels
    assert not any(channel.startswith("/a/a") for channel, _ in channels)

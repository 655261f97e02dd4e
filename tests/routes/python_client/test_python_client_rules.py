"""Rules of Python route-call facts, each on a small project written for the test."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from tests.openapi.support import invoke
from tests.routes.client.support import calls_of
from tests.routes.client.support import document_of
from tests.routes.support import write_project

REQUIREMENTS = {"requirements.txt": "requests\nhttpx\naiohttp\n"}
API = 'API = "https://api.example.test"\n'


def _calls(tmp_path: Path, body: str, **files: str) -> list[tuple[Any, ...]]:
    extra = {name.replace("__", "/") + ".py": text for name, text in files.items()}
    sources = {**REQUIREMENTS, "app/main.py": body, **extra}
    return calls_of(tmp_path, sources)


def test_formatting_forms_make_the_same_channel(tmp_path: Path) -> None:
    body = (
        "import requests\n" + API + "def f(uid):\n"
        '    requests.get(f"{API}/users/{uid}")\n'
        '    requests.get("%s/users/%s" % (API, uid))\n'
        '    requests.get("{}/users/{}".format(API, uid))\n'
        '    requests.get("{base}/users/{id}".format(base=API, id=uid))\n'
        '    requests.get(API + "/users/" + str(uid))\n'
        '    requests.get("/".join([API, "users", uid]))\n'
    )
    assert _calls(tmp_path, body) == [("GET", "/users/{}", "root", False, False)] * 6


def test_a_conversion_or_format_spec_is_unknown_text(tmp_path: Path) -> None:
    body = (
        "import requests\n" + API + 'N = "v1"\n'
        "def f():\n"
        '    requests.get(f"{API}/{N!r}/a")\n'
        '    requests.get(f"{API}/{N:>4}/b")\n'
        '    requests.get("%s/%5s/c" % (API, N))\n'
        '    requests.get(f"{API}/{N}/d")\n'
    )
    assert sorted(_calls(tmp_path, body)) == [
        ("GET", "/v1/d", "root", False, False),
        ("GET", "/{}/a", "root", False, False),
        ("GET", "/{}/b", "root", False, False),
        ("GET", "/{}/c", "root", False, False),
    ]


def test_constants_cross_imports_and_shadowing_stops_them(tmp_path: Path) -> None:
    body = (
        "import requests\n"
        "from app.settings import BASE\n"
        "from app import settings\n"
        "def f():\n"
        '    requests.get(BASE + "/a")\n'
        '    requests.get(settings.BASE + "/b")\n'
        "def g(BASE):\n"
        '    requests.get(BASE + "/c")\n'
        "def h():\n"
        '    requests.get(settings.OTHER + "/d")\n'
    )
    settings = 'BASE = "http://svc.test/v2"\nOTHER = "http://x.test"\nOTHER = "http://y.test"\n'
    assert sorted(_calls(tmp_path, body, app__settings=settings, app____init__="")) == [
        ("GET", "/c", "base", True, False),
        ("GET", "/d", "base", True, False),
        ("GET", "/v2/a", "root", False, False),
        ("GET", "/v2/b", "root", False, False),
    ]


def test_a_project_module_named_like_the_library_is_not_the_library(tmp_path: Path) -> None:
    body = 'import requests\nrequests.get("http://h.test/x")\n'
    shadow = {"app/requests.py": "def get(url):\n    return url\n"}
    document = document_of(write_project(tmp_path, {"app/main.py": body, **shadow}))
    assert document["facts"] == []


def test_self_fields_written_once_carry_the_client(tmp_path: Path) -> None:
    body = (
        "import httpx\n"
        "class Api:\n"
        "    def __init__(self):\n"
        '        self.http = httpx.Client(base_url="http://svc.test/api")\n'
        "    def one(self, key):\n"
        '        return self.http.get(f"items/{key}")\n'
        "class Other:\n"
        "    def __init__(self, c):\n"
        "        self.c = c\n"
        "    def two(self):\n"
        "        self.c = None\n"
        '        return self.c.get("/x")\n'
    )
    assert _calls(tmp_path, body) == [("GET", "/api/items/{}", "root", False, False)]


def test_an_assigned_base_url_leaves_the_base_unknown(tmp_path: Path) -> None:
    body = (
        "import httpx\nimport os\n"
        'client = httpx.Client(base_url="http://svc.test/api/")\n'
        'client.base_url = os.environ["BASE"]\n'
        "def f():\n"
        '    client.get("items")\n'
    )
    document = document_of(write_project(tmp_path, {**REQUIREMENTS, "app/main.py": body}))
    [fact] = document["facts"]
    assert (fact["channel"], fact["pathAnchor"]) == ("/api/items", "root")
    assert any("mutated-base-url: 1" in line for line in document["limitations"])


def test_methods_and_their_spellings(tmp_path: Path) -> None:
    body = (
        "import requests, httpx\nfrom urllib.request import Request, urlopen\n"
        "def f(m, data):\n"
        '    requests.request("patch", "http://h.test/a")\n'
        '    httpx.request(m, "http://h.test/b")\n'
        '    requests.request("QUERY", "http://h.test/c")\n'
        '    urlopen("http://h.test/d", data)\n'
        '    urlopen("http://h.test/e", b"x")\n'
        '    urlopen(Request("http://h.test/f", method="DELETE"))\n'
    )
    assert sorted(_calls(tmp_path, body)) == [
        ("ANY", "/b", "root", False, True),
        ("ANY", "/d", "root", False, True),
        ("DELETE", "/f", "root", False, False),
        ("PATCH", "/a", "root", False, False),
        ("POST", "/e", "root", False, False),
    ]


def test_a_wrapper_that_escapes_keeps_its_inner_request(tmp_path: Path) -> None:
    body = (
        "import requests\n" + API + "def get(path):\n"
        "    return requests.get(API + path)\n"
        "def post(path):\n"
        "    return requests.post(API + path)\n"
        "def use():\n"
        '    get("/a")\n'
        '    post("/b")\n'
        "CALLBACKS = {'post': post}\n"
    )
    assert sorted(_calls(tmp_path, body)) == [
        ("GET", "/a", "root", False, False),
        ("POST", "/", "base", True, False),
        ("POST", "/b", "root", False, False),
    ]


def test_a_wrapper_with_a_default_or_a_spread_call_is_not_followed(tmp_path: Path) -> None:
    body = (
        "import requests\n" + API + 'def get(path="/x"):\n'
        "    return requests.get(API + path)\n"
        "def use(args):\n"
        "    get()\n"
        "    get(*args)\n"
    )
    # The hole right after the host may hold a port or a path: only a dynamic base is left.
    assert _calls(tmp_path, body) == [("GET", "/", "base", True, False)]


def test_usrs_are_the_python_graph_ids(tmp_path: Path) -> None:
    body = (
        "import requests\n" + API + "class A:\n"
        "    def m(self):\n"
        '        requests.get(API + "/m")\n'
        "        def inner():\n"
        '            requests.get(API + "/i")\n'
        'requests.get(API + "/top")\n'
        'list(map(lambda u: requests.get(API + u), ["/x"]))\n'
    )
    project = write_project(tmp_path, {**REQUIREMENTS, "app/main.py": body})
    document = document_of(project)
    graph = invoke("graph", "--project", str(project), "--language", "python")
    ids = {node["id"] for node in orjson.loads(graph.stdout)["nodes"]}
    usrs = [fact["symbol"]["usr"] for fact in document["facts"]]
    assert len(usrs) == 4
    assert set(usrs) <= ids


def test_language_selection(tmp_path: Path) -> None:
    files = {**REQUIREMENTS, "app/main.py": 'import requests\nrequests.get("http://h.test/p")\n'}
    project = write_project(tmp_path / "py", files)
    assert document_of(project)["platform"] == "python"
    mixed = write_project(tmp_path / "mixed", {**files, "web/a.ts": 'fetch("/api/x");\n'})
    defaulted = document_of(mixed)
    assert defaulted["platform"] == "js"
    # The Python file the default leaves unread is counted, with the flag that reads it.
    assert (
        "client-call-coverage: 1 Python source(s) were not read for requests (the project "
        "holds TypeScript/JavaScript too); --language python reads them"
    ) in defaulted["limitations"]
    chosen = document_of(mixed, "--language", "python")
    assert (chosen["platform"], len(chosen["facts"])) == ("python", 1)
    # The server role reads the language it is given too (the project declares no route).
    served = invoke("routes", "--role", "server", "--project", str(mixed), "--language", "python")
    assert served.code == 0
    assert orjson.loads(served.stdout)["platform"] == "python"


def test_constants_of_a_namespace_package_module(tmp_path: Path) -> None:
    # `conf/` has no `__init__.py`: a namespace package (PEP 420); `import conf.urls` binds
    # `conf`, and `conf.urls` is the submodule, as `from conf import urls` is.
    body = (
        "import requests\nimport conf.urls\nfrom conf import urls\n"
        "def f():\n"
        '    requests.get(conf.urls.API + "/a")\n'
        '    requests.get(urls.API + "/b")\n'
    )
    assert _calls(tmp_path, body, conf__urls=API) == [
        ("GET", "/a", "root", False, False),
        ("GET", "/b", "root", False, False),
    ]


def test_constants_a_star_import_brings(tmp_path: Path) -> None:
    # `from m import *` binds the names `__all__` lists, else every public name (the
    # language reference, "The import statement"); a name two stars may bring is not known.
    body = (
        "import requests\nfrom app.conf import *\nfrom app.listed import *\n"
        "def f():\n"
        '    requests.get(API + "/a")\n'
        '    requests.get(HIDDEN + "/b")\n'
        '    requests.get(_PRIVATE + "/c")\n'
    )
    calls = _calls(
        tmp_path,
        body,
        app__conf=API + 'HIDDEN = "https://hidden.example.test"\n_PRIVATE = API\n',
        app__listed='__all__ = ["OTHER"]\nOTHER = 1\nHIDDEN = "https://h.example.test"\n',
    )
    assert calls[0] == ("GET", "/a", "root", False, False)
    assert calls[1][3:] == (False, False) and calls[1][:2] == ("GET", "/b")
    assert calls[2][2:4] == ("base", True)

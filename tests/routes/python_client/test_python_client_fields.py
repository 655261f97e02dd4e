"""Clients held by a class (`self._client = httpx.Client(base_url=…)`), the shape SDKs use,
and a package bound by several `import package.sub` statements.

The proof is the one the JS client uses for `this.field` (routes/client/static_values.py):
one write of the field in the class, in `__init__`. Writes of the same attribute name in
other classes count only when those classes may share an instance with it (an ancestor, a
descendant, a class deriving from both, or a class whose bases are not proven).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.routes.client.support import calls_of

REQUIREMENTS = {"requirements.txt": "requests\nhttpx\n"}


def _calls(tmp_path: Path, body: str, **files: str) -> list[tuple[Any, ...]]:
    extra = {name.replace("__", "/") + ".py": text for name, text in files.items()}
    return sorted(calls_of(tmp_path, {**REQUIREMENTS, "app/main.py": body, **extra}))


SDK = (
    "import httpx\n"
    "class Memories:\n"
    "    def __init__(self, key):\n"
    '        self._client = httpx.Client(base_url="https://api.one.test/v1/")\n'
    "    def get(self, mid):\n"
    '        return self._client.get(f"memories/{mid}/")\n'
    "class Search:\n"
    "    def __init__(self):\n"
    '        self._client = httpx.Client(base_url="https://api.two.test")\n'
    "    def run(self):\n"
    '        return self._client.post("/search")\n'
)


def test_the_same_field_name_in_unrelated_classes_keeps_each_client(tmp_path: Path) -> None:
    assert _calls(tmp_path, SDK) == [
        ("GET", "/v1/memories/{}/", "root", False, False),
        ("POST", "/search", "root", False, False),
    ]


def test_a_subclass_writing_the_field_leaves_it_unproven(tmp_path: Path) -> None:
    body = SDK + (
        "class Local(Memories):\n"
        "    def __init__(self):\n"
        '        self._client = httpx.Client(base_url="http://localhost:9")\n'
    )
    # Memories.get may run on a Local: its client is not proven; Search keeps its own.
    assert _calls(tmp_path, body) == [("POST", "/search", "root", False, False)]


def test_a_class_deriving_from_both_writers_leaves_them_unproven(tmp_path: Path) -> None:
    body = SDK + "class Both(Search, Memories):\n    pass\n"
    assert _calls(tmp_path, body) == []


def test_a_class_whose_bases_are_not_proven_leaves_them_unproven(tmp_path: Path) -> None:
    body = SDK + "def pick():\n    return Memories\nclass Any(pick()):\n    pass\n"
    assert _calls(tmp_path, body) == []


def test_a_write_outside_a_method_of_self_leaves_it_unproven(tmp_path: Path) -> None:
    body = SDK + "def reset(obj):\n    obj._client = None\n"
    assert _calls(tmp_path, body) == []


def test_a_second_write_in_the_class_or_a_class_attribute_leaves_it_unproven(
    tmp_path: Path,
) -> None:
    body = SDK + (
        "class Twice:\n"
        "    _client = None\n"
        "    def __init__(self):\n"
        '        self._client = httpx.Client(base_url="https://api.three.test")\n'
        "    def go(self):\n"
        '        return self._client.get("/three")\n'
        "class Late:\n"
        "    def __init__(self):\n"
        '        self._client = httpx.Client(base_url="https://api.four.test")\n'
        "    def reconnect(self):\n"
        '        self._client = httpx.Client(base_url="https://api.five.test")\n'
        "    def go(self):\n"
        '        return self._client.get("/four")\n'
    )
    assert _calls(tmp_path, body) == [
        ("GET", "/v1/memories/{}/", "root", False, False),
        ("POST", "/search", "root", False, False),
    ]


def test_a_field_written_once_outside_init_is_its_only_value(tmp_path: Path) -> None:
    body = (
        "import httpx\n"
        "class Lazy:\n"
        "    def connect(self):\n"
        '        self._client = httpx.Client(base_url="https://api.lazy.test")\n'
        "    def go(self):\n"
        '        return self._client.get("/lazy")\n'
    )
    # Before `connect` runs the read raises (no class attribute to fall back on): no request.
    assert _calls(tmp_path, SDK + body.replace("import httpx\n", "")) == [
        ("GET", "/lazy", "root", False, False),
        ("GET", "/v1/memories/{}/", "root", False, False),
        ("POST", "/search", "root", False, False),
    ]


def test_base_classes_from_libraries_and_builtins_are_proven_apart(tmp_path: Path) -> None:
    body = SDK.replace("class Search:", "class Search(Exception, BaseModel):").replace(
        "import httpx\n", "import httpx\nfrom pydantic import BaseModel\n"
    )
    files = {"requirements.txt": "requests\nhttpx\npydantic\n"}
    extra = calls_of(tmp_path, {**files, "app/main.py": body})
    assert sorted(extra) == [
        ("GET", "/v1/memories/{}/", "root", False, False),
        ("POST", "/search", "root", False, False),
    ]


def test_a_base_url_from_a_parameter_anchors_the_path_at_a_base(tmp_path: Path) -> None:
    body = (
        "import httpx\n"
        "class Backend:\n"
        "    def __init__(self, config):\n"
        '        self.base_url = config.base_url.rstrip("/")\n'
        "        self._client = httpx.Client(base_url=self.base_url)\n"
        "    def ping(self):\n"
        '        return self._client.get("/v1/ping/")\n'
        "class Other:\n"
        "    def __init__(self, url):\n"
        "        self._client = httpx.Client(base_url=url)\n"
        "        self.base_url = url\n"
    )
    assert _calls(tmp_path, body) == [("GET", "/v1/ping/", "base", False, False)]


def test_a_package_bound_by_two_submodule_imports_is_the_package(tmp_path: Path) -> None:
    # mem0's plugin scripts: `import urllib.error` then `import urllib.request`.
    body = (
        "import urllib.error\n"
        "import urllib.request\n"
        'API = "https://api.example.test"\n'
        "def add(body):\n"
        "    req = urllib.request.Request(\n"
        '        f"{API}/v3/memories/add/", data=body, method="POST"\n'
        "    )\n"
        "    with urllib.request.urlopen(req, timeout=15) as resp:\n"
        "        return resp.read()\n"
    )
    assert _calls(tmp_path, body) == [("POST", "/v3/memories/add/", "root", False, False)]


def test_a_name_bound_by_an_import_and_an_assignment_stays_unknown(tmp_path: Path) -> None:
    body = (
        "import urllib.request\n"
        "try:\n"
        "    import httpx\n"
        "except ImportError:\n"
        "    httpx = None\n"
        "import httpx.other\n"
        "def f():\n"
        '    httpx.get("https://api.example.test/a")\n'
    )
    assert _calls(tmp_path, body) == []


def test_setattr_with_a_computed_name_leaves_fields_unproven(tmp_path: Path) -> None:
    # mem0's cli/python/src/mem0_cli/config.py: `setattr(obj, final_key, value)`.
    assert _calls(tmp_path, SDK + "def put(obj, key, v):\n    setattr(obj, key, v)\n") == []
    assert _calls(tmp_path, SDK + "def put(o, k, v):\n    o.__dict__[k] = v\n") == []
    assert _calls(tmp_path, SDK + "def put(o, v):\n    object.__setattr__(o, '_x', v)\n") == []


def test_setattr_of_another_literal_name_and_look_alikes_keep_fields(tmp_path: Path) -> None:
    # mem0's init_cmd.py calls `termios.tcsetattr(fd, …)`: not a write of an attribute.
    tail = (
        "import termios\n"
        "def put(obj, v, fd):\n"
        "    setattr(obj, 'timeout', v)\n"
        "    termios.tcsetattr(fd, termios.TCSADRAIN, v)\n"
        "    return dict(obj.__dict__.items())\n"
    )
    assert _calls(tmp_path, SDK + tail) == [
        ("GET", "/v1/memories/{}/", "root", False, False),
        ("POST", "/search", "root", False, False),
    ]

"""`with m as name` where m's `__enter__` is an outside base's: known to return self for
the bases checked against the real packages (SQLAlchemy 2.1.9, SQLModel 0.0.50, CPython
3.11's contextlib and socketserver), unknown for any other."""

from __future__ import annotations

from pathlib import Path

from tests.python.test_python_binding import _calls
from tests.python.test_python_binding import _graph


def test_an_outside_enter_known_to_return_self_keeps_the_project_class(tmp_path: Path) -> None:
    graph = _graph(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "app"\ndependencies = ["sqlalchemy"]\n',
            "db.py": "from sqlalchemy.orm import Session as _Session\n"
            "import sqlalchemy.orm\nimport tempfile\n"
            "class Session(_Session):\n    def exec(self): pass\n"
            "class Other(sqlalchemy.orm.Session):\n    def exec(self): pass\n"
            "class Folder(tempfile.TemporaryDirectory):\n    def exec(self): pass\n"
            "def use():\n"
            "    with Session() as s:\n        s.exec()\n"
            "    with Other() as o:\n        o.exec()\n"
            "    with Folder() as f:\n        f.exec()\n",
        },
    )
    # TemporaryDirectory.__enter__ returns the folder's name, not the object.
    assert _calls(graph, "db.py#use") == {
        ("db.py#Session.exec", "direct"),
        ("db.py#Other.exec", "direct"),
    }

"""A `declared_attr` `__tablename__` computed from the class name is evaluated
(declared_tablename.py). Each proven name below is the one SQLAlchemy 2.0.58 printed as
`Model.__table__.fullname` for these classes."""

from __future__ import annotations

from pathlib import Path

from tests.schema.support import document_of
from tests.schema.support import write_project

# Netflix/dispatch's shape: the declarative base's directive calls a helper that splits
# the class name before each capital and joins the lowered parts with `_`.
_NAMING = (
    "import re\n"
    "\n"
    "\n"
    "def table_name(name):\n"
    '    """Split before each capital."""\n'
    '    parts = re.split("(?=[A-Z])", name)\n'
    '    return "_".join([part.lower() for part in parts if part])\n'
)
_MODELS = (
    "import re\n"
    "\n"
    "from sqlalchemy import Column, Integer\n"
    "from sqlalchemy.orm import DeclarativeBase, declared_attr\n"
    "\n"
    "from app.naming import table_name\n"
    "\n"
    "\n"
    "class Base(DeclarativeBase):\n"
    "    @declared_attr.directive\n"
    "    def __tablename__(cls):\n"
    "        return table_name(cls.__name__)\n"
    "\n"
    "\n"
    "class Plain(DeclarativeBase):\n"
    "    pass\n"
    "\n"
    "\n"
    "class Lowered:\n"
    "    @declared_attr\n"
    "    def __tablename__(cls):\n"
    '        return "t_" + cls.__name__.lower()\n'
    "\n"
    "\n"
    "class Pluralized:\n"
    "    @declared_attr.directive\n"
    "    def __tablename__(cls):\n"
    '        return re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower() + "s"\n'
    "\n"
    "\n"
    "class Guessed:\n"
    "    @declared_attr.directive\n"
    "    def __tablename__(cls):\n"
    '        return cls.__name__.lower() if cls.__module__ else "other"\n'
    "\n"
    "\n"
    "class DispatchUser(Base):\n"
    "    id = Column(Integer, primary_key=True)\n"
    "\n"
    "\n"
    "class IPAddress(Base):\n"
    "    id = Column(Integer, primary_key=True)\n"
    "\n"
    "\n"
    "class AuditEntry(Lowered, Plain):\n"
    "    id = Column(Integer, primary_key=True)\n"
    "\n"
    "\n"
    "class CaseType(Pluralized, Plain):\n"
    "    id = Column(Integer, primary_key=True)\n"
    "\n"
    "\n"
    "class Odd(Guessed, Plain):\n"
    "    id = Column(Integer, primary_key=True)\n"
    "\n"
    "\n"
    "class Both(Lowered, Base):\n"
    "    id = Column(Integer, primary_key=True)\n"
)


def test_a_directive_on_the_class_name_gives_the_table_name(tmp_path: Path) -> None:
    files = {
        "requirements.txt": "sqlalchemy\n",
        "app/__init__.py": "",
        "app/naming.py": _NAMING,
        "app/models.py": _MODELS,
    }
    document = document_of(write_project(tmp_path, files))
    assert sorted(
        (fact["channel"], fact.get("method", ""), fact["dynamic"]) for fact in document["facts"]
    ) == [
        ("case_types", "", False),
        ("case_types", "id", False),
        ("dispatch_user", "", False),
        ("dispatch_user", "id", False),
        ("i_p_address", "", False),
        ("i_p_address", "id", False),
        ("t_auditentry", "", False),
        ("t_auditentry", "id", False),
    ]
    # `Odd`: a conditional is not evaluated; `Both`: two classes of its ancestry define
    # `__tablename__` (SQLAlchemy takes the first in the MRO, `t_both`; not worked out).
    assert document["limitations"] == [
        "orm-naming-unverified: 2 ORM name(s) depend on options that could not be read "
        "(at app/models.py:53, app/models.py:57)"
    ]


def test_a_mixin_directive_on_a_declarative_base_made_without_cls(tmp_path: Path) -> None:
    # SQLAlchemy 2.0.58 names both `ENTRY` and `OTHER`; `Other`'s base derives from
    # `Custom` (`cls=`), a class that could define `__tablename__` itself, so it is not
    # proven.
    files = {
        "requirements.txt": "sqlalchemy\n",
        "app/__init__.py": "",
        "app/models.py": "from sqlalchemy import Column, Integer\n"
        "from sqlalchemy.orm import declarative_base, declared_attr\n"
        "class Named:\n"
        "    @declared_attr\n"
        "    def __tablename__(cls):\n"
        "        return cls.__name__.upper()\n"
        "class Custom:\n    pass\n"
        "Old = declarative_base()\n"
        "Made = declarative_base(cls=Custom)\n"
        "class Entry(Named, Old):\n    id = Column(Integer, primary_key=True)\n"
        "class Other(Named, Made):\n    id = Column(Integer, primary_key=True)\n",
    }
    document = document_of(write_project(tmp_path, files))
    assert sorted({(fact["channel"], fact["dynamic"]) for fact in document["facts"]}) == [
        ("ENTRY", False)
    ]


def test_a_pattern_that_can_backtrack_for_long_is_not_run() -> None:
    # The pattern is the repository's: a nested or repeated quantifier, or a backreference,
    # could keep a run busy far longer than a class name is worth (no name: unverified).
    from tsograph.producers.schema.python.declared_tablename import _regex

    name = "A" * 40 + "!"
    assert _regex("sub", [r"(?<!^)(?=[A-Z])", "_", "DispatchUser"]) == "Dispatch_User"
    assert _regex("sub", ["(A+)+$", "", name]) is None
    assert _regex("sub", ["A*A*A*B", "", name]) is None
    assert _regex("split", [r"(A)\1", name]) is None
    assert _regex("split", ["(?=[A-Z])", "x" * 200]) is None  # longer than a class name

"""The schema of a SQLAlchemy table follows the MetaData its own base uses, and a
`schema_translate_map` or a `.schema` assignment makes a name dynamic (table_schema.py;
each expectation printed by SQLAlchemy 2.0.58 / Flask-SQLAlchemy 3.1.1 as
`Model.__table__.fullname`, or the SQL a translated engine sent)."""

from __future__ import annotations

from pathlib import Path

from tests.schema.support import document_of
from tests.schema.support import write_project


def _model(name: str, base: str, table: str) -> str:
    return (
        f"class {name}({base}):\n    __tablename__ = '{table}'\n"
        "    id = Column(Integer, primary_key=True)\n"
    )


def _tables(root: Path, files: dict[str, str]) -> list[tuple[str, bool]]:
    """(channel, dynamic) of each table fact the models and Core tables declare."""
    document = document_of(write_project(root, files))
    return sorted({(fact["channel"], fact["dynamic"]) for fact in document["facts"]})


_BASES = (
    "from sqlalchemy import Column, Integer, MetaData, Table\n"
    "from sqlalchemy.orm import DeclarativeBase, declarative_base, registry\n"
    "import os\n"
    "class Plain(DeclarativeBase):\n    pass\n"
    "class Own(DeclarativeBase):\n    metadata = MetaData(schema='app')\n"
    "class Registered(DeclarativeBase):\n"
    "    registry = registry(metadata=MetaData(schema='reg'))\n"
    "Old = declarative_base(metadata=MetaData(schema='old'))\n"
    "Generated = registry(metadata=MetaData(schema='gen')).generate_base()\n"
    "Tenant = declarative_base(metadata=MetaData(schema=os.environ['SCHEMA']))\n"
    "loose = MetaData(schema='elsewhere')\n"
)


def test_each_model_takes_the_schema_of_its_own_bases_metadata(tmp_path: Path) -> None:
    files = {
        "requirements.txt": "sqlalchemy\n",
        "app/__init__.py": "",
        "app/bases.py": _BASES,
        "app/models.py": "from sqlalchemy import Column, Integer, MetaData, Table\n"
        "from app.bases import Generated, Old, Own, Plain, Registered, Tenant\n"
        + _model("A", "Plain", "a")
        + _model("B", "Own", "b")
        + _model("C", "Registered", "c")
        + _model("D", "Old", "d")
        + _model("E", "Generated", "e")
        + _model("F", "Tenant", "f")
        + "class G(Tenant):\n    __tablename__ = 'g'\n    __table_args__ = {'schema': 'fixed'}\n"
        "    id = Column(Integer, primary_key=True)\n"
        "class Mixed:\n    metadata = MetaData(schema='mixed')\n"
        + _model("H", "Mixed, Plain", "h")
        + "ta = Table('ta', Plain.metadata, Column('id', Integer))\n"
        "tb = Table('tb', Own.metadata, Column('id', Integer))\n"
        "td = Table('td', Old.metadata, Column('id', Integer))\n"
        "tf = Table('tf', Tenant.metadata, Column('id', Integer))\n",
    }
    assert _tables(tmp_path, files) == [
        ("a", False),
        ("app.b", False),
        ("app.tb", False),
        ("f", True),  # MetaData(schema=<environment>)
        ("fixed.g", False),
        ("gen.e", False),
        ("h", True),  # a mixin's `metadata`: which one the MRO finds first is not read
        ("old.d", False),
        ("old.td", False),
        ("reg.c", False),
        ("ta", False),
        ("tf", True),
    ]


def test_flask_sqlalchemy_metadata_and_bind_keys(tmp_path: Path) -> None:
    files = {
        "requirements.txt": "flask-sqlalchemy\n",
        "app/__init__.py": "",
        "app/models.py": "from flask_sqlalchemy import SQLAlchemy\n"
        "from sqlalchemy import MetaData\n"
        "db = SQLAlchemy(metadata=MetaData(schema='fs'))\n"
        "class UserAccount(db.Model):\n    id = db.Column(db.Integer, primary_key=True)\n"
        "class Audit(db.Model):\n    __bind_key__ = 'audit'\n"
        "    id = db.Column(db.Integer, primary_key=True)\n"
        "links = db.Table('links', db.Column('a', db.Integer))\n",
    }
    # 3.1.1 gives a bind key a MetaData of its own (`audit`), 2.x the default one.
    assert _tables(tmp_path, files) == [
        ("audit", True),
        ("fs.links", False),
        ("fs.user_account", False),
    ]


_TRANSLATED = {
    "requirements.txt": "sqlalchemy\n",
    "app/__init__.py": "",
    "app/models.py": "from sqlalchemy import Column, Integer, create_engine\n"
    "from sqlalchemy.orm import DeclarativeBase\n"
    "class Base(DeclarativeBase):\n    pass\n"
    "class Incident(Base):\n    __tablename__ = 'incident'\n"
    "    id = Column(Integer, primary_key=True)\n"
    "class Plugin(Base):\n    __tablename__ = 'plugin'\n"
    "    __table_args__ = {'schema': 'core'}\n    id = Column(Integer, primary_key=True)\n",
}


def test_a_translate_map_makes_the_schemas_it_moves_dynamic(tmp_path: Path) -> None:
    # Netflix/dispatch main.py: engine.execution_options(schema_translate_map={None: schema})
    # sends `tenant.incident` for every table without a schema; `core.plugin` stays.
    files = {
        **_TRANSLATED,
        "app/tenants.py": "from app.models import engine\n"
        "def tenant_engine(engine, slug):\n"
        "    return engine.execution_options(schema_translate_map={None: f'org_{slug}'})\n",
    }
    assert _tables(tmp_path / "none", files) == [("core.plugin", False), ("incident", True)]
    files["app/tenants.py"] = (
        "def moved(engine):\n"
        "    return engine.execution_options(schema_translate_map={'core': 'core2'})\n"
    )
    assert _tables(tmp_path / "core", files) == [("core.plugin", True), ("incident", False)]
    files["app/tenants.py"] = (
        "def moved(engine, mapping):\n"
        "    return engine.execution_options(schema_translate_map=mapping)\n"
    )
    assert _tables(tmp_path / "any", files) == [("core.plugin", True), ("incident", True)]


def test_a_schema_assigned_to_a_table_makes_every_name_dynamic(tmp_path: Path) -> None:
    # Netflix/dispatch database/manage.py: `for t in tables: t.schema = schema_name`.
    files = {
        **_TRANSLATED,
        "app/manage.py": "from app.models import Base\n"
        "def move(name):\n"
        "    for t in Base.metadata.tables.values():\n"
        "        t.schema = name\n",
    }
    assert _tables(tmp_path, files) == [("core.plugin", True), ("incident", True)]


def test_a_schema_in_a_mixins_table_args_is_the_models(tmp_path: Path) -> None:
    # SQLAlchemy 2.0.58: `class A(InSchema, Base)` is `mix.a`; a mapped parent's plain
    # `__table_args__` is not inherited (`c`), but its mixins' may be: not proven.
    files = {
        "requirements.txt": "sqlalchemy\n",
        "app/__init__.py": "",
        "app/models.py": "from sqlalchemy import Column, ForeignKey, Integer\n"
        "from sqlalchemy.orm import DeclarativeBase\n"
        "class Base(DeclarativeBase):\n    pass\n"
        "class InSchema:\n    __table_args__ = {'schema': 'mix'}\n"
        "class A(InSchema, Base):\n    __tablename__ = 'a'\n"
        "    id = Column(Integer, primary_key=True)\n"
        "class P(Base):\n    __tablename__ = 'p'\n    __table_args__ = {'schema': 'par'}\n"
        "    id = Column(Integer, primary_key=True)\n"
        "class C(P):\n    __tablename__ = 'c'\n"
        "    id = Column(Integer, ForeignKey('par.p.id'), primary_key=True)\n",
    }
    assert _tables(tmp_path, files) == [("c", True), ("mix.a", False), ("par.p", False)]


def test_a_core_table_on_sqlmodels_metadata(tmp_path: Path) -> None:
    # SQLModel 0.0.50: `SQLModel.metadata.schema` is None (Table 't' prints `t`).
    files = {
        "requirements.txt": "sqlmodel\n",
        "app/__init__.py": "",
        "app/models.py": "from sqlalchemy import Column, Integer, Table\n"
        "from sqlmodel import SQLModel\n"
        "links = Table('links', SQLModel.metadata, Column('id', Integer))\n",
    }
    assert _tables(tmp_path, files) == [("links", False)]

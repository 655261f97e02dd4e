"""Shapes met on real Python services (flask-realworld, …), each on a small project."""

from __future__ import annotations

from pathlib import Path

from tests.schema.support import document_of
from tests.schema.support import write_project


def _declared(root: Path, files: dict[str, str]) -> list[tuple[str, str]]:
    document = document_of(write_project(root, files))
    return sorted(
        (fact["channel"], fact.get("method", ""))
        for fact in document["facts"]
        if "#model:" in fact["symbol"]["usr"]
    )


def test_models_on_a_base_another_module_re_exports(tmp_path: Path) -> None:
    # flask-realworld: conduit/database.py aliases `Column = db.Column`, `Model = db.Model`;
    # conduit/user/models.py imports them and never names sqlalchemy.
    files = {
        "requirements.txt": "flask-sqlalchemy\n",
        "conduit/__init__.py": "",
        "conduit/extensions.py": "from flask_sqlalchemy import SQLAlchemy\ndb = SQLAlchemy()\n",
        "conduit/database.py": "from .extensions import db\n"
        "Column = db.Column\nModel = db.Model\n"
        "class SurrogatePK(object):\n    id = db.Column(db.Integer, primary_key=True)\n",
        "conduit/user/__init__.py": "",
        "conduit/user/models.py": "from conduit.database import Column, Model, SurrogatePK, db\n"
        "class User(SurrogatePK, Model):\n"
        "    __tablename__ = 'users'\n"
        "    username = Column(db.String(80))\n"
        "    bio = Column('about', db.String(300))\n",
    }
    assert _declared(tmp_path, files) == [
        ("users", ""),
        ("users", "about"),
        ("users", "id"),
        ("users", "username"),
    ]


def test_models_of_a_project_subclass_of_flask_sqlalchemy(tmp_path: Path) -> None:
    # redash/models/base.py: `class RedashSQLAlchemy(SQLAlchemy)`, `db = RedashSQLAlchemy()`.
    files = {
        "requirements.txt": "flask-sqlalchemy\n",
        "app/__init__.py": "",
        "app/base.py": "from flask_sqlalchemy import SQLAlchemy\n"
        "class RedashSQLAlchemy(SQLAlchemy):\n"
        "    def apply_pool_defaults(self, app, options):\n        return options\n"
        "class Quiet(RedashSQLAlchemy):\n    pass\n"
        "db = Quiet()\n",
        "app/models.py": "from app.base import db\n"
        "class DataSource(db.Model):\n"
        "    __tablename__ = 'data_sources'\n"
        "    id = db.Column(db.Integer, primary_key=True)\n"
        "    name = db.Column(db.String(255))\n",
    }
    assert _declared(tmp_path, files) == [
        ("data_sources", ""),
        ("data_sources", "id"),
        ("data_sources", "name"),
    ]


def test_partial_columns_and_helpers_that_may_make_columns(tmp_path: Path) -> None:
    # redash: `Column = functools.partial(db.Column, nullable=False)`, `id = primary_key(…)`;
    # flask-realworld: `author_id = reference_col("userprofile")`.
    files = {
        "requirements.txt": "flask-sqlalchemy\n",
        "app/__init__.py": "",
        "app/models.py": "import functools\n"
        "from flask_sqlalchemy import SQLAlchemy\n"
        "db = SQLAlchemy()\n"
        "Column = functools.partial(db.Column, nullable=False)\n"
        "Named = functools.partial(db.Column, name='fixed')\n"
        "def primary_key(name):\n    return db.Column(db.Integer, primary_key=True)\n"
        "class DataSource(db.Model):\n"
        "    __tablename__ = 'data_sources'\n"
        "    id = primary_key('DataSource')\n"
        "    name = Column(db.String(255))\n"
        "    options = Column('encrypted_options', db.Text)\n"
        "    other = Named(db.Text)\n"
        "    groups = db.relationship('Group')\n",
    }
    assert _declared(tmp_path, files) == [
        ("data_sources", ""),
        ("data_sources", "encrypted_options"),
        ("data_sources", "name"),
    ]
    limitations = document_of(tmp_path)["limitations"]
    assert [line for line in limitations if line.startswith("unreadable-orm")] == [
        "unreadable-orm-declarations: 2 ORM declaration(s) could not be read statically "
        "(at app/models.py:10, app/models.py:13)"
    ]


def test_django_library_bases_may_add_fields(tmp_path: Path) -> None:
    # django-realworld: `class User(AbstractBaseUser, PermissionsMixin, TimestampedModel)`;
    # Django's bases add password, last_login, is_superuser, … that are not read.
    files = {
        "requirements.txt": "django\n",
        "accounts/models.py": "from django.contrib.auth.models import AbstractBaseUser\n"
        "from django.db import models\n"
        "class User(AbstractBaseUser):\n    email = models.EmailField()\n"
        "class Tag(models.Model):\n    name = models.TextField()\n",
    }
    assert _declared(tmp_path, files) == [
        ("accounts_tag", ""),
        ("accounts_tag", "id"),
        ("accounts_tag", "name"),
        ("accounts_user", ""),
        ("accounts_user", "email"),
        ("accounts_user", "id"),
    ]
    limitations = document_of(tmp_path)["limitations"]
    assert [line for line in limitations if line.startswith("orm-naming")] == [
        "orm-naming-unverified: 1 ORM name(s) depend on options that could not be read "
        "(at accounts/models.py:3)"
    ]


def test_a_model_naming_itself_in_its_own_methods(tmp_path: Path) -> None:
    # redash/models/__init__.py: `Query.all_queries` (a classmethod of Query) filters on
    # `Query.is_archived` and `Query.user_id`; a lambda in the class body is configuration.
    files = {
        "requirements.txt": "flask-sqlalchemy\n",
        "app/__init__.py": "",
        "app/models.py": "from flask_sqlalchemy import SQLAlchemy\n"
        "db = SQLAlchemy()\n"
        "class Report(db.Model):\n"
        "    __tablename__ = 'reports'\n"
        "    id = db.Column(db.Integer, primary_key=True)\n"
        "    hidden = db.Column('is_hidden', db.Boolean)\n"
        "    children = db.relationship('Report', order_by=lambda: Report.id)\n"
        "    @classmethod\n"
        "    def visible(cls):\n"
        "        return Report.query.filter(Report.hidden.is_(False))\n",
    }
    document = document_of(write_project(tmp_path, files))
    uses = sorted(
        (fact["channel"], fact.get("method", ""), fact["location"]["line"])
        for fact in document["facts"]
        if "#model:" not in fact["symbol"]["usr"]
    )
    assert uses == [("reports", "", 10), ("reports", "is_hidden", 10)]


def test_cls_in_a_classmethod_of_a_model_nothing_subclasses(tmp_path: Path) -> None:
    # redash/models/__init__.py: `Alert.all` is `cls.query.options(…)`, QueryResult.unused
    # filters on `cls.retrieved_at`. A model a project model subclasses may be that
    # subclass, whose table may be another (concrete inheritance): no fact there.
    files = {
        "requirements.txt": "flask-sqlalchemy\n",
        "app/__init__.py": "",
        "app/models.py": "from flask_sqlalchemy import SQLAlchemy\n"
        "db = SQLAlchemy()\n"
        "class Alert(db.Model):\n"
        "    __tablename__ = 'alerts'\n"
        "    id = db.Column(db.Integer, primary_key=True)\n"
        "    state = db.Column('alert_state', db.String)\n"
        "    @classmethod\n"
        "    def firing(cls):\n"
        "        return cls.query.filter(cls.state == 'on')\n"
        "    def mine(self, cls):\n"
        "        return cls.query\n"
        "class Parent(db.Model):\n"
        "    __tablename__ = 'parents'\n"
        "    id = db.Column(db.Integer, primary_key=True)\n"
        "    @classmethod\n"
        "    def every(cls):\n"
        "        return cls.query\n"
        "class Child(Parent):\n"
        "    __tablename__ = 'children'\n"
        "    id = db.Column(db.Integer, db.ForeignKey('parents.id'), primary_key=True)\n",
    }
    document = document_of(write_project(tmp_path, files))
    uses = sorted(
        (fact["channel"], fact.get("method", ""), fact["location"]["line"])
        for fact in document["facts"]
        if "#model:" not in fact["symbol"]["usr"]
    )
    assert uses == [("alerts", "", 9), ("alerts", "alert_state", 9)]


def test_a_django_apps_tests_module_is_a_test_source(tmp_path: Path) -> None:
    # djangoproject.com blog/tests.py: the module `manage.py startapp` makes, which Django's
    # DiscoverRunner and unittest collect (pattern "test*.py", django 5.2.19 test/runner.py,
    # CPython 3.11 unittest/loader.py). Read only with --include-tests, flagged.
    files = {
        "requirements.txt": "django\n",
        "blog/__init__.py": "",
        "blog/models.py": "from django.db import models\n"
        "class Entry(models.Model):\n"
        "    slug = models.SlugField()\n",
        "blog/tests.py": "from django.test import TestCase\n"
        "from .models import Entry\n"
        "class EntryTests(TestCase):\n"
        "    def test_slug(self):\n"
        "        Entry.objects.filter(slug='x')\n",
    }
    root = write_project(tmp_path, files)
    paths = {fact["location"]["path"] for fact in document_of(root)["facts"]}
    assert paths == {"blog/models.py"}
    flagged = {
        (fact["location"]["path"], fact.get("testSource", False))
        for fact in document_of(root, "--include-tests")["facts"]
    }
    assert flagged == {("blog/models.py", False), ("blog/tests.py", True)}


def test_core_tables_follow_the_metadata_schema_rule_of_models(tmp_path: Path) -> None:
    # Netflix/dispatch: association tables `Table("assoc_case_tags", Base.metadata, …)` in a
    # project that also builds `MetaData(schema=…)` (its tenant migrations). A Table takes
    # the default schema of its own MetaData (sqlalchemy 2.0.58 Table.__init__), as a model
    # does; a MetaData the table does not belong to changes nothing.
    files = {
        "requirements.txt": "sqlalchemy\n",
        "app/__init__.py": "",
        "app/models.py": "from sqlalchemy import Column, Integer, MetaData, Table\n"
        "from sqlalchemy.orm import DeclarativeBase\n"
        "class Base(DeclarativeBase):\n    pass\n"
        "class Case(Base):\n"
        "    __tablename__ = 'case'\n"
        "    id = Column(Integer, primary_key=True)\n"
        "links = Table('case_links', Base.metadata, Column('case_id', Integer))\n"
        "audit = Table('audit', Base.metadata, Column('id', Integer), schema='logs')\n"
        "def tenant_table(metadata):\n"
        "    return Table('tenant', metadata, Column('id', Integer))\n",
        "app/migrate.py": "from sqlalchemy import MetaData\n"
        "def tenant(name):\n    return MetaData(schema=name)\n",
    }
    document = document_of(write_project(tmp_path, files))
    assert sorted(
        (fact["channel"], fact.get("method", ""), fact["dynamic"]) for fact in document["facts"]
    ) == [
        ("case", "", False),
        ("case", "id", False),
        ("case_links", "", False),
        ("case_links", "case_id", False),
        ("logs.audit", "", False),
        ("logs.audit", "id", False),
        ("tenant", "", True),  # a MetaData the code does not prove
        ("tenant", "id", True),
    ]


def test_a_table_model_made_by_model_validate_is_written_by_session_add(tmp_path: Path) -> None:
    # full-stack-fastapi-template backend/app/api/routes/items.py:
    # `item = Item.model_validate(item_in, update={...})`, `session.add(item)`. SQLModel
    # 0.0.50's model_validate (main.py, _compat.sqlmodel_validate) returns an instance of
    # cls; a class overriding it may return anything.
    files = {
        "requirements.txt": "sqlmodel\n",
        "app/__init__.py": "",
        "app/models.py": "from sqlmodel import Field, Session, SQLModel\n"
        "class Item(SQLModel, table=True):\n"
        "    id: int | None = Field(default=None, primary_key=True)\n"
        "    title: str\n"
        "class Odd(SQLModel, table=True):\n"
        "    id: int | None = Field(default=None, primary_key=True)\n"
        "    @classmethod\n"
        "    def model_validate(cls, obj):\n"
        "        return obj\n"
        "def create(session: Session, data: dict) -> Item:\n"
        "    item = Item.model_validate(data, update={'title': 'x'})\n"
        "    session.add(item)\n"
        "    odd = Odd.model_validate(data)\n"
        "    session.add(odd)\n"
        "    return item\n",
    }
    document = document_of(write_project(tmp_path, files))
    uses = sorted(
        (fact["channel"], fact.get("method", ""), fact["location"]["line"])
        for fact in document["facts"]
        if "#model:" not in fact["symbol"]["usr"]
    )
    assert uses == [("item", "", 12)]


def test_a_parameter_annotated_with_a_table_model_is_an_instance_of_it(tmp_path: Path) -> None:
    # full-stack-fastapi-template: `CurrentUser = Annotated[User, Depends(get_current_user)]`
    # in app/api/deps.py; users.py `def delete_user_me(session, current_user: CurrentUser)`
    # ends in `session.delete(current_user)`. A parameter rebound in the body is no proof.
    files = {
        "requirements.txt": "sqlmodel\nfastapi\n",
        "app/__init__.py": "",
        "app/models.py": "from sqlmodel import Field, SQLModel\n"
        "class User(SQLModel, table=True):\n"
        "    id: int | None = Field(default=None, primary_key=True)\n",
        "app/deps.py": "from typing import Annotated\n"
        "from fastapi import Depends\n"
        "from app.models import User\n"
        "def current() -> User:\n    return User()\n"
        "CurrentUser = Annotated[User, Depends(current)]\n",
        "app/routes.py": "from sqlmodel import Session\n"
        "from app.deps import CurrentUser\n"
        "from app.models import User\n"
        "def delete_me(session: Session, current_user: CurrentUser) -> None:\n"
        "    session.delete(current_user)\n"
        "def save(session: Session, user: User | None) -> None:\n"
        "    session.add(user)\n"
        "def swap(session: Session, user: User) -> None:\n"
        "    user = make()\n"
        "    session.add(user)\n",
    }
    document = document_of(write_project(tmp_path, files))
    uses = sorted(
        (fact["channel"], fact["location"]["path"], fact["location"]["line"])
        for fact in document["facts"]
        if "#model:" not in fact["symbol"]["usr"]
    )
    assert uses == [("user", "app/routes.py", 5), ("user", "app/routes.py", 7)]


def test_django_models_in_a_subpackage_of_an_app_have_no_proven_label(tmp_path: Path) -> None:
    # HackSoftware/Django-Styleguide-Example: blog_examples/admin_2fa/models.py belongs to
    # the app styleguide_example.blog_examples (its migration is there), so its table is
    # blog_examples_usertwofactorauthdata, not admin_2fa_…: Django 5.2.19 labels a model
    # by the installed app whose name is the longest prefix of its module
    # (Apps.get_containing_app_config), which settings decide. A folder with an apps.py of
    # its own is still its app.
    files = {
        "requirements.txt": "django\n",
        "shop/__init__.py": "",
        "shop/apps.py": "from django.apps import AppConfig\n"
        "class ShopConfig(AppConfig):\n    name = 'shop'\n",
        "shop/models.py": "from django.db import models\n"
        "class Order(models.Model):\n    total = models.IntegerField()\n",
        "shop/extras/__init__.py": "",
        "shop/extras/models.py": "from django.db import models\n"
        "class Coupon(models.Model):\n    code = models.CharField(max_length=9)\n",
        "shop/billing/__init__.py": "",
        "shop/billing/apps.py": "from django.apps import AppConfig\n"
        "class BillingConfig(AppConfig):\n    name = 'shop.billing'\n",
        "shop/billing/models.py": "from django.db import models\n"
        "class Invoice(models.Model):\n    number = models.IntegerField()\n",
    }
    assert sorted({channel for channel, _ in _declared(tmp_path, files)}) == [
        "billing_invoice",
        "shop_order",
    ]
    limitations = document_of(tmp_path)["limitations"]
    assert any("shop/extras/models.py:2" in line for line in limitations)

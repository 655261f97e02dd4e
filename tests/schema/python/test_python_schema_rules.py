"""Rules of Python relation-use facts, each on a small project written for the test."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.schema.support import document_of
from tests.schema.support import write_project


def _uses(tmp_path: Path, files: dict[str, str]) -> list[tuple[Any, ...]]:
    document = document_of(write_project(tmp_path, files))
    return sorted(
        (fact["channel"], fact.get("method", ""), fact["dynamic"], fact["location"]["line"])
        for fact in document["facts"]
        if "#model:" not in fact.get("symbol", {}).get("usr", "")
    )


def test_driver_sql_is_read_only_on_proven_connections(tmp_path: Path) -> None:
    body = (
        "import sqlite3\n"
        "def f(db, name):\n"
        "    conn = sqlite3.connect('x.db')\n"
        "    conn.execute('SELECT * FROM users')\n"
        "    conn.cursor().execute(f'DELETE FROM {name}')\n"
        "    conn.execute('UPDATE logs SET n = 1 WHERE k = ' + name)\n"
        "    db.execute('SELECT * FROM ignored')\n"
        "    conn.execute(name)\n"
    )
    assert _uses(tmp_path, {"app/db.py": body}) == [
        ("", "", True, 5),
        ("", "", True, 6),
        ("", "", True, 8),
        ("logs", "", False, 6),
        ("users", "", False, 4),
    ]


def test_a_project_module_named_like_a_driver_is_not_the_driver(tmp_path: Path) -> None:
    files = {
        "app/sqlite3.py": "def connect(path):\n    return path\n",
        "app/db.py": "from app import sqlite3\n"
        "def f():\n    sqlite3.connect('x').execute('SELECT * FROM t')\n",
    }
    assert _uses(tmp_path, files) == []


def test_django_labels_and_unproven_bases(tmp_path: Path) -> None:
    files = {
        "requirements.txt": "django\n",
        "shop/apps.py": "from django.apps import AppConfig\n"
        "class ShopConfig(AppConfig):\n    name = 'shop'\n    label = 'store'\n",
        "shop/models.py": "from django.db import models\nfrom cms.models import Page\n"
        "class Item(models.Model):\n    owner = models.ForeignKey('auth.User', models.CASCADE)\n"
        "class Home(Page):\n    body = models.TextField()\n",
        "shop/views.py": "from shop.models import Item\n"
        "def items(user):\n    return Item.objects.filter(owner=user, id__gt=3)\n",
    }
    document = document_of(write_project(tmp_path, files))
    declared = sorted(
        (fact["channel"], fact.get("method", ""))
        for fact in document["facts"]
        if "#model:" in fact["symbol"]["usr"]
    )
    assert declared == [("store_item", ""), ("store_item", "id"), ("store_item", "owner_id")]
    assert _uses(tmp_path, {}) == [
        ("store_item", "", False, 3),
        ("store_item", "id", False, 3),
        ("store_item", "owner_id", False, 3),
    ]
    assert any(
        line.startswith("unreadable-orm-declarations: 1") for line in document["limitations"]
    )


def test_django_keywords_are_columns_only_where_the_queryset_api_reads_fields(
    tmp_path: Path,
) -> None:
    # Django 5.2.19 QuerySet: filter/get/create/update/get_or_create read fields from their
    # keywords (get_or_create's `defaults` is a parameter); annotate/aggregate/values take
    # aliases, and a project manager's own method means what its code says.
    files = {
        "requirements.txt": "django\n",
        "shop/models.py": "from django.db import models\n"
        "class Item(models.Model):\n"
        "    name = models.TextField()\n"
        "    defaults = models.TextField()\n",
        "shop/views.py": "from shop.models import Item\n"
        "def f(x):\n"
        "    Item.objects.get_or_create(name=x, defaults={'name': x})\n"
        "    Item.objects.filter(defaults__exact=x)\n"
        "    Item.objects.publish(name=x)\n"
        "    Item.objects.aggregate(total=models.Count('id'))\n",
    }
    document = document_of(write_project(tmp_path, files))
    assert _uses(tmp_path, {}) == [
        ("shop_item", "", False, 3),
        ("shop_item", "", False, 4),
        ("shop_item", "", False, 5),
        ("shop_item", "", False, 6),
        ("shop_item", "defaults", False, 4),
        ("shop_item", "name", False, 3),
    ]
    assert any(
        line.startswith("unresolved-orm-receivers: 1") and "(at shop/views.py:5)" in line
        for line in document["limitations"]
    )


def test_sqlalchemy_table_name_that_is_not_proven_is_counted(tmp_path: Path) -> None:
    files = {
        "requirements.txt": "sqlalchemy\n",
        "app/models.py": "import os\nfrom sqlalchemy import Column, Integer\n"
        "from sqlalchemy.orm import declarative_base\nBase = declarative_base()\n"
        "class A(Base):\n    __tablename__ = os.environ['T']\n"
        "    id = Column(Integer, primary_key=True)\n",
    }
    document = document_of(write_project(tmp_path, files))
    assert document["facts"] == []
    assert any(line.startswith("orm-naming-unverified: 1") for line in document["limitations"])


def test_a_taggit_manager_field_and_its_subclasses_have_no_column(tmp_path: Path) -> None:
    # netbox: `tags = NetBoxTaggableManagerField(through='extras.TaggedItem')`, a subclass
    # of django-taggit's TaggableManager (6.1.0: many_to_many = True, no column), named
    # like a field and so read as a plain `tags` column of 95 tables.
    files = {
        "requirements.txt": "django\ndjango-taggit\n",
        "extras/managers.py": "from taggit.managers import TaggableManager\n"
        "class LabelsField(TaggableManager):\n    pass\n",
        "shop/models.py": "from django.db import models\n"
        "from taggit.managers import TaggableManager\n"
        "from extras.managers import LabelsField\n"
        "class Item(models.Model):\n    name = models.CharField(max_length=9)\n"
        "    labels = LabelsField(through='shop.Labelled')\n"
        "    tags = TaggableManager()\n",
    }
    document = document_of(write_project(tmp_path, files))
    declared = sorted(
        (fact["channel"], fact.get("method", ""))
        for fact in document["facts"]
        if "#model:" in fact["symbol"]["usr"]
    )
    assert declared == [("shop_item", ""), ("shop_item", "id"), ("shop_item", "name")]
    assert document["limitations"] == []

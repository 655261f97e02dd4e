"""Record the table and column names SQLAlchemy, SQLModel, Flask-SQLAlchemy and Django give
OUR fixture models (fixtures/schema/python/*/project), by importing them.

    python3.11 oracle/python-schema/record.py [scratch folder]

Makes a scratch virtual environment (default /tmp/tsograph-python-schema),
pip installs the pinned packages below, and runs this file in it with
`--inside`: the SQLAlchemy fixture's modules are imported and every table of
their MetaData objects (`Table.fullname`, `Column.name`) is written; Django is
configured in memory (sqlite, the fixture's apps), set up, and every model of
the fixture's apps (auto-created many-to-many tables included) gives
`_meta.db_table` and the `column` of its local concrete fields. Proxy models
have no table of their own. Only fixture code written for this oracle is
imported. Recordings: oracle/recordings/python-schema/<fixture>.json, replayed
offline by tests/schema/python/test_python_schema_oracle.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

PINS = (
    "sqlalchemy==2.0.44",
    "sqlmodel==0.0.27",
    "flask-sqlalchemy==3.1.1",
    "django==5.2.8",
)
REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures" / "schema" / "python"
OUT = REPO / "oracle" / "recordings" / "python-schema"


def main() -> int:
    scratch = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/tsograph-python-schema")
    python = scratch / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(scratch)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", *PINS], check=True)
    for fixture in ("alchemy", "django"):
        subprocess.run([str(python), __file__, "--inside", fixture], check=True)
    return 0


def _write(fixture: str, versions: dict[str, str], tables: dict[str, set[str]]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    document: dict[str, Any] = {
        "fixture": fixture,
        "versions": versions,
        "tables": {name: sorted(columns) for name, columns in sorted(tables.items())},
    }
    text = json.dumps(document, indent=1, sort_keys=True)
    (OUT / f"{fixture}.json").write_text(text + "\n", encoding="utf-8")


def alchemy() -> None:
    import sqlalchemy
    import sqlmodel

    sys.path.insert(0, str(FIXTURES / "alchemy" / "project"))
    from app import flask_models
    from app import heroes
    from app import legacy
    from app import models

    tables: dict[str, set[str]] = {}
    for metadata in (
        models.Base.metadata,
        legacy.Legacy.metadata,
        heroes.SQLModel.metadata,
        flask_models.db.metadata,
    ):
        for table in metadata.tables.values():
            tables[table.fullname] = {column.name for column in table.columns}
    versions = {
        "sqlalchemy": sqlalchemy.__version__,
        "sqlmodel": sqlmodel.__version__,
        "flask_sqlalchemy": _version("flask-sqlalchemy"),
    }
    _write("alchemy", versions, tables)


def django_models() -> None:
    import django
    from django.apps import apps
    from django.conf import settings

    sys.path.insert(0, str(FIXTURES / "django" / "project"))
    settings.configure(
        INSTALLED_APPS=[
            "django.contrib.contenttypes",
            "django.contrib.auth",
            "shop",
            "blog.apps.BlogConfig",
        ],
        DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
        DEFAULT_AUTO_FIELD="django.db.models.AutoField",
    )
    django.setup()
    tables: dict[str, set[str]] = {}
    # Every registered model, also those whose explicit app_label is no installed app.
    for registered in apps.all_models.values():
        for model in registered.values():
            meta = model._meta
            if meta.proxy or not model.__module__.startswith(("shop.", "blog.")):
                continue
            tables.setdefault(meta.db_table, set()).update(
                field.column for field in meta.local_concrete_fields
            )
    _write("django", {"django": django.__version__}, tables)


def _version(distribution: str) -> str:
    from importlib.metadata import version

    return version(distribution)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--inside"]:
        alchemy() if sys.argv[2] == "alchemy" else django_models()
        sys.exit(0)
    sys.exit(main())

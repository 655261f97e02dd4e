"""`tsograph schema` for Python sources: SQLAlchemy, SQLModel, Django and DB-API drivers."""

"""Prisma naming rules: the database names of models, fields and implicit join tables.

Checked against Prisma's sources for the versions the spec pins:
* prisma 7 (prisma@7.10.1 / @prisma/client@7.10.1 installed from npm; prisma-engines
  psl/parser-database walkers/model.rs `database_name()`): the table is the
  `@@map` value, else the model name unchanged; the column is the `@map` value,
  else the field name (walkers/scalar_field.rs).
* @prisma/orm-family-sql 8.0.0-rc.1 … rc.11: a model without `@@map` names its table
  `lowerFirst(model.name)`; rc.12 restores the model name (release note "A PSL
  model without @@map names its table exactly as written"). Prisma 8's native PSL
  has no implicit many-to-many tables.
* implicit many-to-many (prisma 7): table `_<relation name>`, the default relation
  name `<A>To<B>` with the two model names in code-point order, columns `A` and `B`,
  in the schema of model A.
"""

from __future__ import annotations

from dataclasses import dataclass

PRISMA_7 = "prisma-7"
ORM_8_LOWER_FIRST = "orm-family-sql-8-rc1-rc11"
ORM_8_EXACT = "orm-family-sql-8-rc12"
ALL_RULES = (PRISMA_7, ORM_8_LOWER_FIRST, ORM_8_EXACT)

# PostgreSQL's identifier limit (NAMEDATALEN - 1), which Prisma's engine applies to join tables.
MAX_IDENTIFIER_BYTES = 63


@dataclass(frozen=True)
class Rule:
    name: str
    lower_first: bool
    implicit_many_to_many: bool


RULES = {
    PRISMA_7: Rule(PRISMA_7, lower_first=False, implicit_many_to_many=True),
    ORM_8_LOWER_FIRST: Rule(ORM_8_LOWER_FIRST, lower_first=True, implicit_many_to_many=False),
    ORM_8_EXACT: Rule(ORM_8_EXACT, lower_first=False, implicit_many_to_many=False),
}


def table_name(rule: str, model: str, mapped: str | None) -> str:
    if mapped is not None:
        return mapped
    if RULES[rule].lower_first and model:
        return model[0].lower() + model[1:]
    return model


def agreed(values: list[str | None]) -> str | None:
    """The one value every candidate rule gives, or None when they differ."""
    first = values[0]
    return first if all(value == first for value in values) else None


def default_relation_name(model_a: str, model_b: str) -> str:
    first, second = sorted((model_a, model_b))
    return f"{first}To{second}"


def join_table_name(relation: str, provider: str | None) -> str | None:
    """`_<relation>`; None when a longer name's database spelling is not known.

    Prisma's schema engine (@prisma/schema-engine-wasm 7.10.0, recorded under
    oracle/prisma-naming) cuts a PostgreSQL join table name to its first 63
    characters (`_AVery…ToZzzAnotherRat`); the spec left such names dynamic, the
    engine shows the cut, so it is applied for ASCII names on PostgreSQL only.
    Other providers and non-ASCII names stay unverified.
    """
    name = "_" + relation
    if len(name.encode("utf-8")) <= MAX_IDENTIFIER_BYTES:
        return name
    if provider == "postgresql" and name.isascii():
        return name[:MAX_IDENTIFIER_BYTES]
    return None


def delegate_name(model: str) -> str:
    """The client property of a model: its name with the first character lowercased."""
    return model[:1].lower() + model[1:]

"""NestJS's Prisma services (postiz-app): `class PrismaService extends PrismaClient`,
injected as a typed constructor parameter, and a generic repository holding it in a typed
field (`this._user.model.user` with `model: Pick<PrismaService, T>`). Each gave 241
unresolved delegate calls and no facts.

prisma@6 PrismaClient's constructor returns the client object, so a subclass's `super()`
makes that object the instance: its delegates are the client's.
"""

from __future__ import annotations

from pathlib import Path

from tests.schema.support import document_of
from tests.schema.test_prisma_rules import client_project

SERVICE = (
    "import { PrismaClient } from '@prisma/client';\n"
    "export class PrismaService extends PrismaClient {}\n"
    "export class PrismaRepository<T extends keyof PrismaService> {\n"
    "  public model: Pick<PrismaService, T>;\n"
    "  constructor(private _prismaService: PrismaService) {\n"
    "    this.model = this._prismaService;\n"
    "  }\n"
    "}\n"
)
USES = (
    "import { PrismaRepository, PrismaService } from './prisma.service';\n"
    "export class JobsRepository {\n"
    "  constructor(private _db: PrismaService, private _jobs: PrismaRepository<'job'>) {}\n"
    "  direct() { return this._db.job.findMany({ where: { id: 1 } }); }\n"
    "  viaRepository() { return this._jobs.model.job.findMany({ where: { id: 2 } }); }\n"
    "}\n"
)


def test_a_client_subclass_and_a_repository_field_typed_with_it_are_clients(
    tmp_path: Path,
) -> None:
    project = client_project(
        tmp_path, {"src/prisma.service.ts": SERVICE, "src/jobs.repository.ts": USES}
    )
    document = document_of(project)
    uses = sorted(
        (fact["location"]["line"], fact["channel"], fact.get("method", ""))
        for fact in document["facts"]
        if fact["location"]["path"] == "src/jobs.repository.ts"
    )
    assert uses == [(4, "Job", ""), (4, "Job", "id"), (5, "Job", ""), (5, "Job", "id")]
    assert document["limitations"] == []


def test_a_field_of_a_class_typed_otherwise_is_not_a_client(tmp_path: Path) -> None:
    holder = (
        "export class Holder { public model: { job: { findMany(): void } }; }\n"
        "export class Jobs {\n"
        "  constructor(private _jobs: Holder) {}\n"
        "  list() { return this._jobs.model.job.findMany(); }\n"
        "}\n"
    )
    document = document_of(client_project(tmp_path, {"src/jobs.ts": holder}))
    assert [f for f in document["facts"] if f["location"]["path"] == "src/jobs.ts"] == []
    assert "unresolved-client-receivers: 1" in " ".join(document["limitations"])

"""Routes declared through packages the interpreter does not model are reported, not silent."""

from __future__ import annotations

from pathlib import Path

from tests.routes.node.support import scan


def test_decorator_controllers_of_an_unmodeled_package_are_a_coverage_gap(tmp_path: Path) -> None:
    # tgiardina/typescript-typeorm-realworld-example-app: Express built by inversify.
    document = scan(
        tmp_path,
        {
            "package.json": (
                '{"dependencies": {"express": "4.22.3", "inversify-express-utils": "6.3.2"}}'
            ),
            "src/app.ts": (
                "import { InversifyExpressServer } from 'inversify-express-utils';\n"
                "declare const container: unknown;\n"
                "new InversifyExpressServer(container).build().listen(3000);\n"
            ),
            "src/user.controller.ts": (
                "import { controller, httpGet } from 'inversify-express-utils';\n"
                "@controller('/user')\n"
                "export class UserController {\n"
                "  @httpGet('/') public get(): string { return 'me'; }\n"
                "}\n"
            ),
        },
    )
    assert document["facts"] == []
    assert document["limitations"] == [
        "route-coverage: 1 registration(s) or file(s) could not be fully modeled "
        "(unmodeled-server-framework: 1, inversify-express-utils)"
    ]

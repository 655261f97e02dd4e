"""A function parameter named `require` is not Node's require (values/modules.is_global_require,
the rule the client and ORM evaluators read too): it loads no project module."""

from __future__ import annotations

from pathlib import Path

from tests.routes.node.support import scan

EXPRESS4 = '{"dependencies": {"express": "4.22.3"}}'


def test_a_parameter_named_require_loads_no_project_module(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": EXPRESS4,
            "src/app.js": (
                "const express = require('express');\n"
                "const app = express();\n"
                "function load(require) { require('./routes')(app); }\n"
                "load((name) => (a) => a.get('/passed', (q, r) => r.end()));\n"
                "app.listen(3000);\n"
            ),
            "src/routes.js": (
                "module.exports = (app) => { app.get('/loaded', (q, r) => r.end()); };\n"
            ),
        },
    )
    # What the passed function registers is not followed (calls of a parameter's value
    # are not); what matters is that ./routes is not taken for what `require` loads.
    assert [(f["method"], f["channel"]) for f in document["facts"]] == []

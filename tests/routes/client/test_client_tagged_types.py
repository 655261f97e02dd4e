"""Type arguments on tagged templates (styled-components) are read as `graph` reads them."""

from __future__ import annotations

from pathlib import Path

from tests.routes.client.support import document_of
from tests.routes.support import write_project

# The shape of outline's app/components/Badge.ts, with a request after the styled component.
STYLED = (
    'import styled from "styled-components";\n'
    "const Badge = styled.span<{ yellow?: boolean }>`\n"
    "  color: ${({ yellow }) => (yellow ? 'gold' : 'gray')};\n"
    "`;\n"
    "export function load() {\n"
    '  return fetch("/api/badges");\n'
    "}\n"
    "export default Badge;\n"
)


def test_tagged_template_type_arguments_are_no_parse_error(tmp_path: Path) -> None:
    document = document_of(write_project(tmp_path, {"src/Badge.ts": STYLED}))
    assert [(f["method"], f["channel"], f["symbol"]["usr"]) for f in document["facts"]] == [
        ("GET", "/api/badges", "src/Badge.ts#load")
    ]
    assert [line for line in document["limitations"] if line.startswith("parse-errors:")] == []

"""Type arguments on tagged templates: blanked so the bundled grammar reads the file."""

from __future__ import annotations

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from tsograph.producers.lang.typescript import parse_file
from tsograph.producers.lang.typescript.tagged_types import blank_tagged_type_arguments

STYLED = b"""import styled from 'styled-components';

const Wrapper = styled.div<{ $active: boolean; onPick: (id: string) => void }>`
  color: ${(props) => (props.$active ? 'red' : 'blue')};
`;

const Img = styled(Image)<{ $invertable?: boolean }>`
  filter: none;
`;

export function Card() {
  return helper();
}
"""


def test_a_styled_component_file_parses_and_keeps_its_facts() -> None:
    parsed = parse_file("src/Card.tsx", STYLED)
    assert parsed.facts.parse_errors == 0
    ids = {declaration.id: declaration for declaration in parsed.facts.declarations}
    assert {"src/Card.tsx#Wrapper", "src/Card.tsx#Img", "src/Card.tsx#Card"} <= ids.keys()
    # Offsets are unchanged: the declaration after the blanked lists keeps its place.
    card = ids["src/Card.tsx#Card"]
    assert (card.line, card.column) == (11, 17)
    assert [call.callee.name for call in parsed.facts.calls if call.owner.endswith("#Card")] == [
        "helper"
    ]


def test_only_lists_between_a_tag_and_a_template_are_blanked() -> None:
    source = b"const a = b < c && d > `x`;\nconst f = g<T>(`y`);\nconst h = i<{ k: 1 }>`z`;\n"
    patched = blank_tagged_type_arguments(source)
    assert patched is not None
    assert patched.split(b"\n")[1] == b"const f = g<T>(`y`);"
    assert patched.split(b"\n")[0] == b"const a = b < c && d > `x`;"
    assert patched.split(b"\n")[2] == b"const h = i" + b" " * 10 + b"`z`;"


def test_nothing_to_blank_gives_none() -> None:
    assert blank_tagged_type_arguments(b"const x = a < b;\n") is None


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_blanking_keeps_every_offset_and_line_break(data: bytes) -> None:
    patched = blank_tagged_type_arguments(data)
    if patched is None:
        return
    assert len(patched) == len(data)
    for before, after in zip(data, patched, strict=True):
        assert after == before or after == 0x20
        if before in (0x0A, 0x0D):
            assert after == before

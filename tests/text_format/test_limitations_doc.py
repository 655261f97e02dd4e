"""docs/limitations.md explains every limitation prefix, with the sentence the text readings print.

The sentence under each prefix's heading is NOTES[prefix] verbatim (the one
table both read), and each section names its cause, what a user can change
and how consumers treat the line.
"""

from __future__ import annotations

import re

from tests.cli_helpers import REPO
from tsograph.exchange.limitations import BRIDGE_FACTS_PREFIXES
from tsograph.exchange.limitations import TRAVERSAL_PREFIXES
from tsograph.producers.text_format.limitation_notes import NOTES

DOC = REPO / "docs" / "limitations.md"
_HEADING = re.compile(r"^### `([^`]+)`$", re.MULTILINE)


def _sections() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    found = list(_HEADING.finditer(text))
    sections = {}
    for index, match in enumerate(found):
        end = found[index + 1].start() if index + 1 < len(found) else len(text)
        body = text[match.end() : end]
        sections[match.group(1)] = body.split("\n## ")[0]
    return sections


def test_every_prefix_has_one_section_and_no_section_is_for_an_unknown_prefix() -> None:
    headings = _HEADING.findall(DOC.read_text(encoding="utf-8"))
    assert len(headings) == len(set(headings))
    assert set(headings) == set(BRIDGE_FACTS_PREFIXES) | set(TRAVERSAL_PREFIXES)


def test_each_section_quotes_the_text_readings_sentence_and_explains_the_line() -> None:
    for prefix, body in _sections().items():
        assert f"\n> {NOTES[prefix]}\n" in body, prefix
        for part in ("- **Cause:** ", "- **What you can change:** ", "- **Consumers:** "):
            assert part in body, (prefix, part)

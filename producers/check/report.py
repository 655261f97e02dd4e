"""The `check` report in four forms: text, JSON, SARIF 2.1.0 and GitHub annotations.

The JSON report (`schemas/tsograph-check-v1.json`, validated before it is
written) is the source of the other three:

    {
      "format": "tsograph-check", "version": 1, "tool": {"name", "version"},
      "mode": "http" | "pairs",
      "inputs": [{"file", "side", "project", "service"?, "facts"}],
      "summary": {"errors", "warnings", "verdicts": {verdict: count},
                  "answered", "testFacts", "uncheckedCalls": {service: count}},
      "findings": [{"verdict", "severity", "file", "location": {path, line, column},
                    "method"?, "channel"?, "column"?, "service"?, "reasons": [..],
                    "related": [{"file", "location", "method"?, "channel"?, "column"?}]}]

`method` is an HTTP method; a relation finding has `channel` (the table) and
`column` instead.
    }

`file` names the input document as it was given; `location.path` is relative
to that document's project. Findings are sorted: errors first, then by
verdict, service, channel, method and location, so the same inputs give the
same bytes. SARIF and GitHub annotations carry lines only: tsograph's columns
count UTF-8 bytes, which neither format's column unit is, and a wrong column
would be a wrong fact.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

import orjson

from tsograph.exchange.documents import tool
from tsograph.exchange.errors import InternalError
from tsograph.exchange.errors import InvalidDocumentError
from tsograph.exchange.validation import validate
from tsograph.exchange.version import TOOL_NAME
from tsograph.exchange.version import TOOL_VERSION
from tsograph.producers.check.documents import Document
from tsograph.producers.check.findings import ERROR
from tsograph.producers.check.findings import VERDICTS
from tsograph.producers.check.findings import WARNING
from tsograph.producers.check.findings import Finding
from tsograph.producers.check.findings import sorted_findings

_SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_RELATED_SHOWN = 5


def build(
    mode: str,
    documents: Sequence[Document],
    findings: Sequence[Finding],
    *,
    answered: int,
    test_facts: int,
    unchecked: Mapping[str, int],
) -> dict[str, Any]:
    ordered = sorted_findings(findings)
    severities = Counter(finding.severity for finding in ordered)
    report = {
        "format": "tsograph-check",
        "version": 1,
        "tool": tool(),
        "mode": mode,
        "inputs": [_input(document) for document in documents],
        "summary": {
            "errors": severities[ERROR],
            "warnings": severities[WARNING],
            "verdicts": dict(sorted(Counter(f.verdict for f in ordered).items())),
            "answered": answered,
            "testFacts": test_facts,
            "uncheckedCalls": dict(sorted(unchecked.items())),
        },
        "findings": [finding.to_json() for finding in ordered],
    }
    try:
        validate(report)
    except InvalidDocumentError as error:
        raise InternalError(f"invalid report at {error.pointer or '/'}") from None
    return report


def _input(document: Document) -> dict[str, Any]:
    value: dict[str, Any] = {
        "file": document.name,
        "side": document.side,
        "project": document.content["project"],
        "facts": len(document.facts),
    }
    if document.service is not None:
        value["service"] = document.service
    return value


def as_json(report: Mapping[str, Any]) -> bytes:
    return orjson.dumps(report, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n"


def _where(side: Mapping[str, Any]) -> str:
    location = side["location"]
    return f"{location['path']}:{location['line']}:{location['column']}"


def _what(side: Mapping[str, Any]) -> str:
    if "column" in side:
        return f"{side.get('channel') or '(name not known)'}.{side['column']}"
    words = [side[key] for key in ("method", "channel") if side.get(key)]
    return " ".join(words) if words else "(name not known)"


def as_text(report: Mapping[str, Any]) -> bytes:
    lines: list[str] = []
    findings = report["findings"]
    by_verdict: dict[str, list[Mapping[str, Any]]] = {}
    for finding in findings:
        by_verdict.setdefault(finding["verdict"], []).append(finding)
    for verdict, group in by_verdict.items():
        lines.append(f"{verdict} ({group[0]['severity']}): {len(group)}")
        for finding in group:
            service = f"  [service {finding['service']}]" if "service" in finding else ""
            lines.append(f"  {_what(finding)}{service}")
            lines.append(f"    at {_where(finding)} ({finding['file']})")
            related = finding["related"]
            for side in related[:_RELATED_SHOWN]:
                lines.append(f"    see {_what(side)} at {_where(side)} ({side['file']})")
            if len(related) > _RELATED_SHOWN:
                lines.append(f"    see {len(related) - _RELATED_SHOWN} more")
            for reason in finding["reasons"]:
                lines.append(f"    because {reason}")
        lines.append("")
    summary = report["summary"]
    lines.append(
        f"{summary['errors']} error(s), {summary['warnings']} warning(s); "
        f"{summary['answered']} matched"
    )
    for service, count in summary["uncheckedCalls"].items():
        lines.append(
            f"{count} call(s) to {service or 'no named service'} not checked: "
            "no server document of that service was given"
        )
    if summary["testFacts"]:
        lines.append(f"{summary['testFacts']} fact(s) of test sources left out")
    return ("\n".join(lines) + "\n").encode("utf-8")


def _message(finding: Mapping[str, Any]) -> str:
    text = f"{finding['verdict']}: {_what(finding)} — {VERDICTS[finding['verdict']][1]}"
    if finding["related"]:
        first = finding["related"][0]
        text += f"; see {_what(first)} at {_where(first)} ({first['file']})"
    if finding["reasons"]:
        text += "; because " + "; ".join(finding["reasons"])
    return text


def as_sarif(report: Mapping[str, Any]) -> bytes:
    rules = [
        {
            "id": verdict,
            "shortDescription": {"text": description},
            "defaultConfiguration": {"level": severity},
        }
        for verdict, (severity, description) in sorted(VERDICTS.items())
    ]
    index = {rule["id"]: number for number, rule in enumerate(rules)}
    results = [
        {
            "ruleId": finding["verdict"],
            "ruleIndex": index[finding["verdict"]],
            "level": finding["severity"],
            "message": {"text": _message(finding)},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": finding["location"]["path"]},
                        "region": {"startLine": finding["location"]["line"]},
                    }
                }
            ],
        }
        for finding in report["findings"]
    ]
    sarif = {
        "$schema": _SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": TOOL_NAME,
                        "version": TOOL_VERSION,
                        "rules": rules,
                    }
                },
                "results": results,
            }
        ],
    }
    return orjson.dumps(sarif, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n"


def _escape_data(text: str) -> str:
    # GitHub workflow commands: %, CR and LF are escaped in the message...
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    # ...and additionally : and , in properties.
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def as_github(report: Mapping[str, Any]) -> bytes:
    lines = []
    for finding in report["findings"]:
        command = "error" if finding["severity"] == ERROR else "warning"
        where = finding["location"]
        lines.append(
            f"::{command} file={_escape_property(where['path'])},line={where['line']},"
            f"title={_escape_property(finding['verdict'])}::{_escape_data(_message(finding))}"
        )
    return "".join(line + "\n" for line in lines).encode("utf-8")


RENDERERS = {"text": as_text, "json": as_json, "sarif": as_sarif, "github": as_github}

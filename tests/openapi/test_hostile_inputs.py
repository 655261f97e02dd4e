"""Hostile specs: each must end with the right exit code, within a CPU budget and 1 GiB.

Every input is generated here (nothing large is committed) and the command runs
in its own process, whose CPU time and peak resident memory are measured; a
failure must leave stdout empty. The CPU budget is a guard against a blow-up
(an expanded alias bomb, a quadratic scan), which costs minutes, not a speed
measurement: CPU time rather than wall time, so a loaded machine does not
fail the test. Speed is measured by benchmarks/.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import orjson

from tests.openapi.support import SERVICE
from tests.openapi.support import write_spec

MAX_CPU_SECONDS = 20.0
# Wall-clock limit after which a run that never ends is killed.
KILL_AFTER_SECONDS = 120.0
MAX_BYTES = 1024**3
MIB = 1024 * 1024
HEADER = 'openapi: 3.0.3\ninfo: {title: t, version: "1"}\n'


@dataclass(frozen=True)
class Outcome:
    code: int
    stdout: bytes
    stderr: str
    cpu_seconds: float
    peak_bytes: int


def run_command(spec: Path, project: Path) -> Outcome:
    argv = [
        sys.executable,
        "-c",
        "from tsograph.producers.cli import main; main()",
        "openapi",
        str(spec),
        "--service",
        SERVICE,
        "--project",
        str(project),
    ]
    out_path, err_path = project.parent / "stdout", project.parent / "stderr"
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        start = time.perf_counter()
        process = subprocess.Popen(argv, stdout=out, stderr=err)
        # wait4 reports the resources of this one child, not of all children so far.
        deadline = start + KILL_AFTER_SECONDS
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                process.kill()
                pid, status, usage = os.wait4(process.pid, 0)
                break
            time.sleep(0.01)
    process.returncode = os.waitstatus_to_exitcode(status)
    return Outcome(
        process.returncode,
        out_path.read_bytes(),
        err_path.read_text(errors="replace"),
        usage.ru_utime + usage.ru_stime,
        usage.ru_maxrss * 1024,
    )


def hostile(
    tmp_path: Path, data: bytes | str, expected_code: int, name: str = "openapi.yaml"
) -> Outcome:
    project = tmp_path / "project"
    spec = write_spec(project, data, name)
    outcome = run_command(spec, project)
    assert outcome.code == expected_code, outcome.stderr
    assert outcome.cpu_seconds < MAX_CPU_SECONDS, f"took {outcome.cpu_seconds:.2f} s of CPU"
    assert outcome.peak_bytes < MAX_BYTES, f"peak memory {outcome.peak_bytes} bytes"
    if expected_code != 0:
        assert outcome.stdout == b""
        assert outcome.stderr.startswith("tsograph: ") and outcome.stderr.count("\n") == 1
        assert "Traceback" not in outcome.stderr and str(tmp_path) not in outcome.stderr
    return outcome


def facts(outcome: Outcome) -> list[dict[str, object]]:
    document = orjson.loads(outcome.stdout)
    assert isinstance(document, dict)
    return list(document["facts"])


def test_alias_bomb_is_not_expanded(tmp_path: Path) -> None:
    lines = [
        HEADER,
        'x-lol0: &lol0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n',
    ]
    for level in range(1, 10):
        previous = f"*lol{level - 1}"
        lines.append(f"x-lol{level}: &lol{level} [{', '.join([previous] * 9)}]\n")
    lines.append("servers: *lol9\npaths:\n  /a:\n    parameters: *lol9\n    get: {}\n")
    outcome = hostile(tmp_path, "".join(lines), 0)
    assert [(fact["channel"], fact["pathAnchor"]) for fact in facts(outcome)] == [("/a", "base")]


def test_more_than_100000_alias_lookups_are_rejected(tmp_path: Path) -> None:
    spec = HEADER + "x-one: &one x\nx-many: [" + "*one, " * 100_001 + "]\npaths: {}\n"
    outcome = hostile(tmp_path, spec, 2)
    assert "uses more than 100000 YAML aliases" in outcome.stderr


def test_17_mib_file_is_rejected(tmp_path: Path) -> None:
    outcome = hostile(tmp_path, HEADER + "#" * (17 * MIB) + "\n", 2)
    assert "larger than 16 MiB" in outcome.stderr


def test_invalid_utf8_is_rejected(tmp_path: Path) -> None:
    outcome = hostile(tmp_path, HEADER.encode() + b"paths: {/\xc3\x28: {get: {}}}\n", 2)
    assert "is not valid UTF-8" in outcome.stderr


def test_utf16_is_rejected(tmp_path: Path) -> None:
    outcome = hostile(tmp_path, (HEADER + "paths: {}\n").encode("utf-16"), 2)
    assert "is not UTF-8" in outcome.stderr


def test_5000_deep_flow_nesting_is_rejected(tmp_path: Path) -> None:
    outcome = hostile(tmp_path, HEADER + "x-deep: " + "[" * 5000 + "]" * 5000 + "\npaths: {}\n", 2)
    assert "nest 5000 levels deep" in outcome.stderr


def test_1000_deep_nesting_is_accepted(tmp_path: Path) -> None:
    # The root mapping is the first level, so 999 brackets make 1,000.
    deep = "[" * 999 + "]" * 999
    json_spec = f'{{"openapi": "3.0.3", "x-deep": {deep}, "paths": {{"/a": {{"get": {{}}}}}}}}'
    yaml_spec = HEADER + f"x-deep: {deep}\npaths: {{/a: {{get: {{}}}}}}\n"
    assert len(facts(hostile(tmp_path / "json", json_spec, 0, "openapi.json"))) == 1
    assert len(facts(hostile(tmp_path / "yaml", yaml_spec, 0))) == 1


def test_1001_deep_nesting_is_rejected(tmp_path: Path) -> None:
    deep = "[" * 1000 + "]" * 1000
    outcome = hostile(tmp_path, HEADER + f"x-deep: {deep}\npaths: {{}}\n", 2)
    assert "nests collections more than 1000 levels deep" in outcome.stderr


def test_50000_deep_block_nesting_is_rejected(tmp_path: Path) -> None:
    outcome = hostile(tmp_path, HEADER + "x-deep:\n  " + "- " * 50_000 + "x\npaths: {}\n", 2)
    assert "nests collections more than 1000 levels deep" in outcome.stderr


def test_duplicate_root_keys_are_rejected(tmp_path: Path) -> None:
    outcome = hostile(tmp_path, HEADER + "paths: {}\npaths: {/a: {get: {}}}\n", 2)
    assert "repeats a mapping key at line 4" in outcome.stderr


def test_duplicate_keys_inside_a_path_item_are_rejected(tmp_path: Path) -> None:
    spec = HEADER + "paths:\n  /a:\n    get: {operationId: one}\n    get: {operationId: two}\n"
    outcome = hostile(tmp_path, spec, 2)
    assert "repeats a mapping key at line 6" in outcome.stderr


def test_merge_key_in_a_path_item_is_rejected(tmp_path: Path) -> None:
    spec = HEADER + "x-base: &base {get: {}}\npaths:\n  /a:\n    <<: *base\n    put: {}\n"
    outcome = hostile(tmp_path, spec, 2)
    assert "uses a YAML merge key (<<) at line 6" in outcome.stderr


def test_python_object_apply_tags_are_never_executed(tmp_path: Path) -> None:
    marker = tmp_path / "executed"
    spec = HEADER + (
        f"x-run: !!python/object/apply:os.system ['touch {marker}']\n"
        f"paths:\n  /a: !!python/object/apply:os.system\n    get: {{}}\n"
    )
    outcome = hostile(tmp_path, spec, 0)
    assert not marker.exists()
    assert len(facts(outcome)) == 1


def test_two_yaml_documents_are_rejected(tmp_path: Path) -> None:
    outcome = hostile(tmp_path, HEADER + "paths: {}\n---\n" + HEADER + "paths: {}\n", 2)
    assert "holds a second YAML document" in outcome.stderr


def test_cyclic_ref_chain_is_counted(tmp_path: Path) -> None:
    spec = HEADER + (
        "paths:\n  /a: {$ref: '#/x-items/a'}\n"
        "x-items:\n  a: {$ref: '#/x-items/b'}\n"
        "  b: {$ref: '#/x-items/c'}\n  c: {$ref: '#/x-items/a'}\n"
    )
    outcome = hostile(tmp_path, spec, 0)
    assert orjson.loads(outcome.stdout)["limitations"] == [
        "contract-coverage: 1 spec entry(ies) were skipped and produced no facts (cyclic-ref: 1)"
    ]


def test_many_long_ref_chains_are_cut_by_the_spec_wide_hop_budget(tmp_path: Path) -> None:
    spec = (
        HEADER
        + "paths:\n"
        + "".join(f"  /p{index}: {{$ref: '#/x/0'}}\n" for index in range(60_000))
    )
    spec += (
        "x:\n"
        + "".join(f"  - {{$ref: '#/x/{index + 1}'}}\n" for index in range(15))
        + "  - {get: {}}\n"
    )
    outcome = hostile(tmp_path, spec, 0)
    document = orjson.loads(outcome.stdout)
    assert len(document["facts"]) == 100_000 // 16
    assert document["limitations"] == [
        "contract-coverage: 53750 spec entry(ies) were skipped and produced no facts "
        "(ref-budget-exhausted: 53750)"
    ]


def test_empty_file_is_rejected(tmp_path: Path) -> None:
    assert "is empty" in hostile(tmp_path, b"", 2).stderr


def test_json_array_at_the_root_is_rejected(tmp_path: Path) -> None:
    outcome = hostile(tmp_path, '[{"openapi": "3.0.3"}]', 2, "openapi.json")
    assert "the top level is not a mapping" in outcome.stderr


def test_value_estimate_over_1500000_is_rejected(tmp_path: Path) -> None:
    outcome = hostile(tmp_path, HEADER + "x-many: [" + "1," * 1_500_000 + "]\npaths: {}\n", 2)
    assert "more than the limit of 1500000" in outcome.stderr


def test_unterminated_strings_with_escaped_quotes_scan_in_linear_time(tmp_path: Path) -> None:
    outcome = hostile(tmp_path, HEADER + 'x-text: "' + '\\"' * (7 * MIB) + "\\", 2)
    assert "is not valid YAML" in outcome.stderr


def test_many_duplicate_keys_are_found_in_linear_time(tmp_path: Path) -> None:
    spec = HEADER + "x-repeated:\n" + "  same: 1\n" * 300_000 + "paths: {/a: {get: {}}}\n"
    outcome = hostile(tmp_path, spec, 0)
    assert orjson.loads(outcome.stdout)["limitations"] == [
        "duplicate-mapping-keys: 299999 duplicate key(s) outside route-bearing sections were "
        "ignored (first at line 5)"
    ]


def test_more_than_100000_facts_fail_before_building(tmp_path: Path) -> None:
    values = ", ".join(f"v{index}" for index in range(256))
    spec = HEADER + (
        "servers:\n  - url: 'https://h/{v}'\n    variables:\n"
        f"      v: {{enum: [{values}], default: v0}}\npaths:\n"
        + "".join(f"  /p{index}: {{get: {{}}}}\n" for index in range(391))
    )
    outcome = hostile(tmp_path, spec, 2)
    assert "would hold 100096 facts, more than the limit of 100000" in outcome.stderr


def test_large_generated_spec_succeeds(tmp_path: Path) -> None:
    # About 3 MiB like a large public API: hundreds of paths, long operations.
    response = "{description: ok, content: {application/json: {schema: {type: object, properties: {"
    response += ", ".join(
        f"field{index}: {{type: string, description: {'d' * 60}}}" for index in range(25)
    )
    response += "}}}}}"
    paths = "".join(
        f"  /r{index}/{{id}}:\n    get:\n      operationId: get{index}\n"
        f"      responses: {{'200': {response}}}\n"
        f"    put:\n      responses: {{'200': {response}}}\n"
        for index in range(800)
    )
    spec = HEADER + "servers: [{url: 'https://api.example.test/v1'}]\npaths:\n" + paths
    assert len(spec) > 3 * MIB
    outcome = hostile(tmp_path, spec, 0)
    assert len(facts(outcome)) == 1600

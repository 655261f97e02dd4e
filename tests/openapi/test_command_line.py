"""Arguments, exit codes and the document envelope of `tsograph openapi`."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.openapi.support import FIXTURES
from tests.openapi.support import GENERATED_AT
from tests.openapi.support import SERVICE
from tests.openapi.support import invoke
from tests.openapi.support import write_spec

SPEC = 'openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths: {/a: {get: {}}}\n'


def usage_error(*argv: str) -> str:
    result = invoke(*argv)
    assert (result.code, result.stdout) == (64, b""), result.stderr
    return result.stderr


def test_service_is_required(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, SPEC)
    assert "--service" in usage_error("openapi", str(spec))


@pytest.mark.parametrize("service", ["", "a\tb", "x" * 257])
def test_service_must_be_writable(tmp_path: Path, service: str) -> None:
    spec = write_spec(tmp_path, SPEC)
    assert "--service must be" in usage_error("openapi", str(spec), "--service", service)


def test_only_json_format_is_offered(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, SPEC)
    usage_error("openapi", str(spec), "--service", SERVICE, "--format", "yaml")
    assert invoke("openapi", str(spec), "--service", SERVICE, "--format", "json").code == 0


def test_generated_at_must_be_a_utc_timestamp(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, SPEC)
    usage_error("openapi", str(spec), "--service", SERVICE, "--generated-at", "yesterday")


def test_spec_outside_project_is_a_usage_error(tmp_path: Path) -> None:
    spec = write_spec(tmp_path / "elsewhere", SPEC)
    (tmp_path / "project").mkdir()
    message = usage_error(
        "openapi", str(spec), "--service", SERVICE, "--project", str(tmp_path / "project")
    )
    assert "openapi.yaml: lies outside --project" in message
    assert str(tmp_path) not in message


def test_a_project_that_does_not_exist_is_unreadable_input(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, SPEC)
    result = invoke("openapi", str(spec), "--service", SERVICE, "--project", str(tmp_path / "nope"))
    assert (result.code, result.stdout) == (2, b"")
    assert (
        result.stderr == "tsograph: --project nope: no such folder; pass the project root folder\n"
    )


def test_location_path_is_relative_to_the_project(tmp_path: Path) -> None:
    spec = write_spec(tmp_path / "repo" / "api" / "v1", SPEC)
    result = invoke(
        "openapi",
        str(spec),
        "--service",
        SERVICE,
        "--project",
        str(tmp_path / "repo"),
        "--generated-at",
        GENERATED_AT,
    )
    document = result.document()
    assert document["project"] == "repo"
    assert document["facts"][0]["location"]["path"] == "api/v1/openapi.yaml"


def test_project_defaults_to_the_spec_folder(tmp_path: Path) -> None:
    spec = write_spec(tmp_path / "service", SPEC)
    document = invoke("openapi", str(spec), "--service", SERVICE).document()
    assert document["project"] == "service"
    assert document["facts"][0]["location"]["path"] == "openapi.yaml"


def test_spec_path_a_document_cannot_hold_is_a_usage_error(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, SPEC, "back\\slash.yaml")
    assert "rename or move the file" in usage_error("openapi", str(spec), "--service", SERVICE)


def test_zero_facts_is_success(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, 'openapi: 3.1.0\ninfo: {title: t, version: "1"}\n')
    document = invoke("openapi", str(spec), "--service", SERVICE).document()
    assert document["facts"] == [] and document["limitations"] == []


def test_output_is_key_sorted_with_two_space_indentation(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, SPEC)
    output = invoke("openapi", str(spec), "--service", SERVICE).stdout
    assert output.startswith(b'{\n  "facts": [\n    {\n      "channel": "/a",\n')


def test_same_input_gives_byte_identical_output(tmp_path: Path) -> None:
    spec = FIXTURES / "server-host-variables" / "openapi.yaml"
    argv = ("openapi", str(spec), "--service", SERVICE, "--generated-at", GENERATED_AT)
    assert invoke(*argv).stdout == invoke(*argv).stdout


def test_json_and_yaml_spellings_give_the_same_facts_except_locations() -> None:
    def without_locations(name: str) -> list[dict[str, object]]:
        folder = FIXTURES / name
        spec = next(path for path in folder.iterdir() if path.name.startswith("openapi."))
        facts = invoke("openapi", str(spec), "--service", SERVICE).document()["facts"]
        return [{key: value for key, value in fact.items() if key != "location"} for fact in facts]

    yaml_facts = without_locations("spelling-yaml")
    assert yaml_facts == without_locations("spelling-json")
    assert len(yaml_facts) == 10

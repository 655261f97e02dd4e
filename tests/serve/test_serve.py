"""`tsograph serve` and the graph runs it answers: the same bytes, and every way it is skipped.

The server runs in a thread of the test process (one subprocess test runs the
command line itself); its project is a copy of fixtures/graph/basics under a
short folder of /tmp, since a Unix socket's path is limited to about 100 bytes.
"""

from __future__ import annotations

import io
import os
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.cli_helpers import REPO
from tsograph.producers import cli
from tsograph.producers.graph.incremental import rebuild
from tsograph.producers.graph.options import GraphOptions
from tsograph.producers.graph.records import graph_records
from tsograph.producers.graph.records import without_details
from tsograph.producers.project.facts_cache import default_cache_dir
from tsograph.producers.serve.address import cache_folder
from tsograph.producers.serve.address import scope_of
from tsograph.producers.serve.address import socket_path
from tsograph.producers.serve.client import graph_scope
from tsograph.producers.serve.client import served
from tsograph.producers.serve.held_build import HeldBuild
from tsograph.producers.serve.server import Server

FIXTURE = REPO / "fixtures" / "graph" / "basics"
GENERATED = "2026-01-01T00:00:00.000Z"


@dataclass
class Place:
    project: Path
    cache: Path

    def argv(self, *more: str) -> list[str]:
        return ["graph", "--project", str(self.project), "--cache-dir", str(self.cache), *more]

    @property
    def socket(self) -> str:
        return socket_path(
            scope_of(str(self.project), None, None, None, True, str(self.cache), os.getcwd())
        )


@pytest.fixture
def place() -> Iterator[Place]:
    top = Path(tempfile.mkdtemp(prefix="tsg-", dir="/tmp"))
    shutil.copytree(FIXTURE, top / "p")
    try:
        yield Place(top / "p", top / "c")
    finally:
        shutil.rmtree(top, ignore_errors=True)


@dataclass
class Running:
    server: Server
    thread: threading.Thread
    log: io.StringIO


@contextmanager
def serving(place: Place, idle: float = 600.0) -> Iterator[Running]:
    """A server of the place's scope answering in a thread until the block ends (then
    stopped with `serve --stop`, unless it ended by itself)."""
    build = HeldBuild(GraphOptions(str(place.project), cache_dir=str(place.cache)))
    scope = scope_of(str(place.project), None, None, None, True, str(place.cache), os.getcwd())
    log = io.StringIO()
    server = Server(build, scope, place.socket, idle, log=log)
    build.refresh()
    server.warm()
    server.listen()
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield Running(server, thread, log)
    finally:
        if thread.is_alive():
            assert cli.run(["serve", "--project", str(place.project), "--stop",
                            "--cache-dir", str(place.cache)]) == 0  # fmt: skip
        thread.join(60)
        assert not thread.is_alive()


def _served(argv: list[str], capsysbinary: pytest.CaptureFixture[bytes]) -> tuple[bytes, str]:
    capsysbinary.readouterr()
    assert served(argv) == 0
    captured = capsysbinary.readouterr()
    return captured.out, captured.err.decode()


def _run(argv: list[str], capsysbinary: pytest.CaptureFixture[bytes]) -> bytes:
    capsysbinary.readouterr()
    assert cli.run([*argv, "--no-server"]) == 0
    return capsysbinary.readouterr().out


def test_a_served_graph_is_the_run_byte_for_byte_through_edits(
    place: Place, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    jobs = place.project / "src" / "lib" / "jobs.ts"
    edits = [
        ("as built", lambda: None),
        ("added", lambda: (place.project / "src" / "lib" / "extra.ts").write_text(
            "import { createJob } from './jobs';\nexport function extra() { return createJob(); }\n"
        )),
        ("changed", lambda: jobs.write_text(
            jobs.read_text() + "\nexport function appended() { return 1; }\n"
        )),
        ("deleted", lambda: (place.project / "src" / "lib" / "audit.ts").unlink()),
        # A configuration the build read: the rebuild is a full one.
        ("configured", lambda: (place.project / "tsconfig.json").write_text(
            '{"compilerOptions": {"jsx": "react-jsx"}, "include": ["src"]}'
        )),
    ]  # fmt: skip
    variants = [["--generated-at", GENERATED], ["--generated-at", GENERATED, "--details"]]
    with serving(place) as running:
        for name, edit in edits:
            edit()
            for variant in variants:
                argv = place.argv(*variant)
                answer, notes = _served(argv, capsysbinary)
                assert answer == _run(argv, capsysbinary), (name, variant)
                assert notes == ""
        argv = place.argv("--format", "ndjson", "--generated-at", GENERATED)
        assert _served(argv, capsysbinary)[0] == _run(argv, capsysbinary)
    # Read once the server has stopped: it logs an answer after sending it.
    log = running.log.getvalue()
    # The edits were rebound, not built whole: each named what it bound.
    assert log.count("graph answered") == 2 * len(edits) + 1
    assert "unchanged;" in log and " files bound;" in log
    # Each edit (not the first step) was rebound once, the second variant finding it
    # unchanged; the last one, a config, bound every file again, the others only some.
    bound = [line.split("(")[1].split(" files")[0].split(" of ") for line in log.splitlines()
             if " files bound" in line]  # fmt: skip
    assert len(bound) == len(edits) - 1 and bound[-1] == ["12", "12"], bound
    assert all(int(again) < int(every) for again, every in bound[:-1]), bound


def test_served_reach_and_impact_are_the_runs_byte_for_byte_through_an_edit(
    place: Place, capsysbinary: pytest.CaptureFixture[bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    # --roots-from is read from the client's working folder, not the server's.
    monkeypatch.chdir(place.project.parent)
    (place.project.parent / "roots.json").write_text('["src/lib/audit.ts#write"]')
    variants = [
        ["reach", "src/app/server.ts#<module>"],
        ["reach", "src/app/server.ts#<module>", "--dispatch", "direct", "--max-depth", "2"],
        ["reach", "src/app/server.ts#app", "--format", "mermaid", "--max-nodes", "5"],
        ["reach", "src/lib/handlers.ts#POST", "--format", "text", "--entry-points"],
        ["impact", "src/lib/audit.ts#log", "--format", "dot"],
        ["impact", "src/lib/jobs.ts#createJob", "--roots-from", "roots.json"],
    ]
    jobs = place.project / "src" / "lib" / "jobs.ts"
    with serving(place) as running:
        for edited in (False, True):
            if edited:
                jobs.write_text(jobs.read_text() + "\nexport function appended() { log(); }\n")
            for variant in variants:
                command, *words = variant
                argv = [command, *place.argv("--generated-at", GENERATED)[1:], *words]
                answer, notes = _served(argv, capsysbinary)
                assert answer == _run(argv, capsysbinary), (edited, variant)
                assert notes == ""
    log = running.log.getvalue()
    assert log.count("reach answered") == 8 and log.count("impact answered") == 4


def test_a_traversal_with_roots_that_are_no_nodes_is_left_to_the_run(
    place: Place, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    argv = ["reach", *place.argv("--generated-at", GENERATED)[1:], "src/lib/jobs.ts#nothing"]
    with serving(place) as running:
        capsysbinary.readouterr()
        assert served(argv) is None
        assert served([*argv[:1], "--roots-from", "-", *argv[1:]]) is None
        assert capsysbinary.readouterr().err == b""
        # The run names the root and exits 64, as without a server.
        assert cli.run(argv) == 64
        assert b"src/lib/jobs.ts#nothing" in capsysbinary.readouterr().err
    assert "declined a request: 1 root(s) are no graph nodes" in running.log.getvalue()


def test_the_socket_is_the_users_only(place: Place) -> None:
    with serving(place):
        assert stat.S_IMODE(os.lstat(place.socket).st_mode) == 0o600
        assert stat.S_IMODE(os.lstat(os.path.dirname(place.socket)).st_mode) == 0o700
    assert not os.path.lexists(place.socket)


def test_what_the_server_does_not_answer_is_run_silently(
    place: Place, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    with serving(place):
        capsysbinary.readouterr()
        # The command line refuses this time stamp: the run itself reports it.
        assert served(place.argv("--generated-at", "yesterday")) is None
        assert served(place.argv("--no-server")) is None
        assert served(place.argv("--tsconfig", "tsconfig.json")) is None  # another scope
        assert capsysbinary.readouterr().err == b""


def test_a_stale_socket_is_no_server_and_is_replaced(
    place: Place, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    os.makedirs(os.path.dirname(place.socket), mode=0o700)
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(place.socket)
    stale.close()  # the file stays, nobody listens: a server killed without cleaning up
    capsysbinary.readouterr()
    assert served(place.argv()) is None
    assert capsysbinary.readouterr().err == b""
    with serving(place):
        argv = place.argv("--generated-at", GENERATED)
        assert _served(argv, capsysbinary)[0] == _run(argv, capsysbinary)


def test_stop_ends_the_server_and_removes_its_socket(
    place: Place, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    with serving(place):
        assert os.path.lexists(place.socket)
    # serving() stopped it with `serve --stop` and saw its thread end.
    assert not os.path.lexists(place.socket)
    capsysbinary.readouterr()
    assert served(place.argv()) is None
    stop = ["serve", "--project", str(place.project), "--cache-dir", str(place.cache), "--stop"]
    assert cli.run(stop) == 0
    assert b"no graph server holds p" in capsysbinary.readouterr().err


def test_an_idle_server_ends(place: Place) -> None:
    with serving(place, idle=0.05) as running:
        running.thread.join(60)  # no request comes: it ends by itself
        assert not running.thread.is_alive()
    assert not os.path.lexists(place.socket)
    assert "idle, stopping" in running.log.getvalue()


def test_a_server_of_other_code_is_skipped_with_a_note(
    place: Place, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    with serving(place) as running:
        running.server.code = "another checkout"
        capsysbinary.readouterr()
        assert served(place.argv()) is None
        notes = capsysbinary.readouterr().err.decode().splitlines()
    assert len(notes) == 1 and "runs other code" in notes[0], notes


def test_a_server_that_does_not_answer_is_skipped_with_a_note(
    place: Place, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    os.makedirs(os.path.dirname(place.socket), mode=0o700)
    silent = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    silent.bind(place.socket)
    silent.listen(1)  # accepted by the kernel, never answered
    try:
        capsysbinary.readouterr()
        assert served(place.argv(), timeout=0.05) is None
        notes = capsysbinary.readouterr().err.decode().splitlines()
    finally:
        silent.close()
    assert len(notes) == 1 and "no answer within" in notes[0], notes


def test_only_graph_words_the_client_understands_name_a_scope(tmp_path: Path) -> None:
    project = str(tmp_path)
    plain = graph_scope(["graph", "--project", project])
    assert plain is not None and plain[0] == os.path.realpath(project)
    assert graph_scope(["graph", f"--project={project}", "--details"]) == plain
    assert graph_scope(["graph", "--project", project, "--no-cache"]) != plain
    for refused in (
        ["graph", "--project", project, "--no-server"],
        ["graph", "--project", project, "--help"],
        ["graph", "--proj", project],  # argparse would take the abbreviation: no guessing
        ["graph", "--project", project, "--project", project],
        ["graph", "--details"],
        ["graph", "--project", project, "src/a.ts#f"],  # graph takes no ids
        ["reach", "--project", project, "--details"],
        ["reach", "--graph-file", "graph.json", "src/a.ts#f"],
        ["impact", "--project", project, "--roots-from", "-"],
        ["trace", "--project", project],
    ):
        assert graph_scope(refused) is None, refused
    # A traversal reads the graph of the same scope: the graph's server answers it.
    for traversal in (
        ["reach", "--project", project, "src/a.ts#f", "src/b.ts#g"],
        ["impact", "src/a.ts#f", f"--project={project}", "--dispatch", "direct", "--entry-points"],
        ["impact", "--project", project, "--roots-from", "ids.json", "--format", "mermaid"],
    ):
        assert graph_scope(traversal) == plain, traversal


def test_the_default_cache_folder_is_the_caches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    assert cache_folder(None, str(tmp_path)) == os.path.realpath(default_cache_dir())
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_folder(None, "/") == os.path.realpath(default_cache_dir())


def test_plain_records_are_the_records_without_details() -> None:
    graph = rebuild(None, GraphOptions(str(FIXTURE), use_cache=False)).graph
    assert graph_records(graph, details=False) == without_details(graph_records(graph))


def test_the_client_imports_no_command(place: Place) -> None:
    """What a served run imports before it asks: no command, no builder (their imports
    cost more than the answer)."""
    script = (
        "import sys\n"
        "from tsograph.producers.serve.client import served\n"
        "import tsograph.producers.cli\n"
        f"served({place.argv()!r})\n"
        "print(sorted(name for name in sys.modules if name.startswith('tsograph')))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(REPO))
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == str(
        [
            "tsograph",
            "tsograph.exchange",
            "tsograph.exchange.errors",
            "tsograph.exchange.version",
            "tsograph.producers",
            "tsograph.producers.cli",
            "tsograph.producers.progress",
            "tsograph.producers.serve",
            "tsograph.producers.serve.address",
            "tsograph.producers.serve.client",
        ]
    )


def test_the_command_line_serves_and_stops(
    place: Place, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    """`tsograph serve` in its own process, a `graph` process it answers, and --stop."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    serve = ["serve", "--project", str(place.project), "--cache-dir", str(place.cache)]
    server = subprocess.Popen(
        [sys.executable, "-m", "tsograph", *serve], env=env, stderr=subprocess.PIPE, text=True
    )
    try:
        assert server.stderr is not None
        assert "holding the graph of p" in server.stderr.readline()  # listening from then on
        argv = place.argv("--generated-at", GENERATED)
        graph = [sys.executable, "-m", "tsograph", *argv]
        answered = subprocess.run(graph, env=env, capture_output=True, check=True)
        assert "graph answered" in server.stderr.readline()
        assert answered.stdout == _run(argv, capsysbinary) and answered.stderr == b""
        assert cli.run([*serve, "--stop"]) == 0
        assert server.wait(60) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert not os.path.lexists(place.socket)

"""The client side: a `graph`, `reach` or `impact` run asks a live server of its scope first.

cli.main calls `served(argv)` before the command line parser is even
imported. It reads the few options that name the scope (an option it does
not know, `--help` or `--no-server` means: no server), and when a socket of
that scope exists it sends the words as given and the working folder; the
server parses them with the real parser and answers only what it can answer
byte for byte as the run would (everything else it declines, and the run
goes on as usual, reporting its own errors).

No socket, or one nobody listens on, is no server: the run goes on
silently. A server that is found but cannot be used (another protocol,
version or code, another user, a broken or late answer) gets one line on
stderr before the run goes on without it.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Sequence
from typing import Any

from tsograph.producers.serve.address import PROTOCOL
from tsograph.producers.serve.address import Scope
from tsograph.producers.serve.address import code_fingerprint
from tsograph.producers.serve.address import receive
from tsograph.producers.serve.address import same_user
from tsograph.producers.serve.address import scope_of
from tsograph.producers.serve.address import send
from tsograph.producers.serve.address import socket_path
from tsograph.producers.serve.address import usable_path

# The options a served run may use: those with a value, then the flags; the traversals'
# own, which also take root ids as words of their own.
_VALUED = ("--project", "--workspace", "--tsconfig", "--language", "--cache-dir")
_VALUED_OUTPUT = ("--format", "--generated-at")
_FLAGS = ("--no-cache",)
_GRAPH_FLAGS = ("--details",)
_TRAVERSAL_VALUED = ("--max-depth", "--max-reached", "--dispatch", "--max-nodes", "--roots-from")
_TRAVERSAL_FLAGS = ("--entry-points",)
_TRAVERSALS = ("reach", "impact")
# Seconds to wait for an answer: a refresh after a configuration edit binds the whole
# project again. TSOGRAPH_SERVE_TIMEOUT overrides it.
TIMEOUT = 120.0


class Unusable(Exception):
    """A server was found but cannot answer; the message says why, in a few words."""


def served(argv: Sequence[str], timeout: float | None = None) -> int | None:
    """The exit code of a run a live server answered (its output written), or None: no
    server answers this run and the caller runs the command itself."""
    try:
        scope = graph_scope(argv)
    except OSError:
        return None  # no working folder (removed): the run reports what it finds
    if scope is None:
        return None
    path = socket_path(scope)
    try:
        info = os.lstat(path)
    except OSError:
        return None
    import socket

    if not hasattr(socket, "AF_UNIX") or not usable_path(path):
        return None  # Windows without AF_UNIX, or a path no socket can have
    wait = timeout if timeout is not None else _timeout()
    try:
        if not stat.S_ISSOCK(info.st_mode) or info.st_uid != os.getuid():
            raise Unusable("its socket is not a socket of this user")
        header, payload = ask(path, {"op": "graph", "argv": list(argv)}, wait)
    except DeadServer:
        return None
    except Unusable as problem:
        _note(f"the graph server of this project was not used ({problem}); running without it")
        return None
    if header.get("status") != "answered":
        return None  # declined: the run reports what the server would not answer
    try:
        sys.stdout.buffer.write(payload)
        sys.stdout.buffer.flush()
    except BrokenPipeError:
        return 2  # as cli.run: the reader went away
    return int(header.get("exit", 0))


def graph_scope(argv: Sequence[str]) -> Scope | None:
    """The scope of a `graph`, `reach` or `impact` run's words, or None when no server
    may answer it."""
    if len(argv) < 2 or (argv[0] != "graph" and argv[0] not in _TRAVERSALS):
        return None
    traversal = argv[0] in _TRAVERSALS
    valued = (*_VALUED, *_VALUED_OUTPUT, *(_TRAVERSAL_VALUED if traversal else ()))
    flag_names = (*_FLAGS, *(_TRAVERSAL_FLAGS if traversal else _GRAPH_FLAGS))
    values: dict[str, str] = {}
    flags: set[str] = set()
    words = iter(argv[1:])
    for word in words:
        name, equals, value = word.partition("=")
        if name in flag_names and not equals:
            flags.add(name)
        elif name in valued:
            if not equals:
                value = next(words, "")
            if not value or name in values:
                return None
            values[name] = value
        elif traversal and not word.startswith("-"):
            continue  # a root id
        else:
            return None  # --no-server, --help, a word argparse may read otherwise
    # Roots on standard input are the client's to read.
    if "--project" not in values or values.get("--roots-from") == "-":
        return None
    return scope_of(
        values["--project"],
        values.get("--workspace"),
        values.get("--tsconfig"),
        values.get("--language"),
        "--no-cache" not in flags,
        values.get("--cache-dir"),
        os.getcwd(),
    )


class DeadServer(Exception):
    """Nobody listens on the socket (a server that ended without removing it)."""


def ask(path: str, request: dict[str, Any], timeout: float) -> tuple[dict[str, Any], bytes]:
    """Send one request with what identifies this client, and read the answer."""
    import socket

    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.settimeout(timeout)
    try:
        try:
            connection.connect(path)
        except (ConnectionRefusedError, FileNotFoundError):
            raise DeadServer from None
        if not same_user(connection):
            raise Unusable("it runs as another user")
        identity = {"protocol": PROTOCOL, "version": _version(), "code": code_fingerprint()}
        send(connection, {**identity, **request, "cwd": os.getcwd()})
        header, payload = receive(connection)
    except TimeoutError:
        raise Unusable(f"no answer within {timeout:g} s") from None
    except (OSError, EOFError, ValueError) as problem:
        raise Unusable(f"broken answer: {type(problem).__name__}") from None
    finally:
        connection.close()
    if header.get("status") == "mismatch":
        raise Unusable(str(header.get("reason", "another protocol")))
    return header, payload


def _version() -> str:
    from tsograph.exchange.version import TOOL_VERSION

    return TOOL_VERSION


def _timeout() -> float:
    try:
        return float(os.environ.get("TSOGRAPH_SERVE_TIMEOUT", TIMEOUT))
    except ValueError:
        return TIMEOUT


def _note(text: str) -> None:
    sys.stderr.write(f"tsograph: note: {text}\n")
    sys.stderr.flush()

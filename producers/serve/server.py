"""The server's socket: who may connect, what it answers, and when it ends.

One connection at a time, one request per connection (a client waits in
the listen queue while another is answered). Only the owner of the process
gets an answer: the socket lives in a folder of mode 0700 and has mode 0600,
and the peer's user id is checked (SO_PEERCRED where the platform has it).
A request carries the client's protocol, tool version and code fingerprint;
any difference gets a `mismatch` answer naming it. A request of a `graph`,
`reach` or `impact` run holds the client's words and working folder: the
server parses them with the command line's own parser and answers only when
they name its scope and the document can be written (for a traversal, every
root a graph node); anything else is `declined` and the client runs the
command itself, which reports its own errors.

The server ends when idle for its timeout, on SIGTERM or SIGINT, or when
asked to stop (`tsograph serve --stop`), and removes its socket then. A
socket nobody listens on (a server killed with SIGKILL, a reboot) is
replaced at start.
"""

from __future__ import annotations

import argparse
import os
import select
import signal
import socket
import stat
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import field
from types import FrameType
from typing import Any
from typing import NoReturn
from typing import TextIO

from tsograph.exchange.errors import InputError
from tsograph.exchange.errors import ToolError
from tsograph.exchange.version import TOOL_VERSION
from tsograph.producers.graph import command as graph_command
from tsograph.producers.graph import traverse_command
from tsograph.producers.graph.traverse_command import root_ids
from tsograph.producers.serve import address
from tsograph.producers.serve.address import PROTOCOL
from tsograph.producers.serve.address import Scope
from tsograph.producers.serve.address import send
from tsograph.producers.serve.held_build import HeldBuild
from tsograph.producers.serve.held_build import MissingRoots

# Seconds a connected client has to send its request (a client sends it at once).
REQUEST_SECONDS = 10.0
# Clients that may wait in the listen queue while one is answered.
BACKLOG = 16


class Stopped(BaseException):
    """SIGTERM: end the server as SIGINT does (KeyboardInterrupt), socket removed."""


@dataclass
class Server:
    """The socket and the loop of one scope's graph server."""

    build: HeldBuild
    scope: Scope
    path: str
    idle: float  # seconds without a request before the server ends
    log: TextIO = field(default_factory=lambda: sys.stderr)
    code: str = field(default_factory=address.code_fingerprint)
    listener: socket.socket | None = None
    stopping: bool = False
    _parser: argparse.ArgumentParser | None = None

    def listen(self) -> None:
        """Bind the socket, replacing one nobody listens on."""
        folder = os.path.dirname(self.path)
        os.makedirs(folder, mode=0o700, exist_ok=True)
        info = os.lstat(folder)
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
            raise InputError(
                f"{SOCKETS}: not a folder of this user; remove it or pass another --cache-dir"
            )
        if stat.S_IMODE(info.st_mode) != 0o700:
            os.chmod(folder, 0o700)
        if os.path.lexists(self.path):
            if listening(self.path):
                raise InputError(ALREADY)
            os.unlink(self.path)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        mask = os.umask(0o177)
        try:
            listener.bind(self.path)
        except OSError:
            listener.close()
            raise InputError(ALREADY) from None
        finally:
            os.umask(mask)
        os.chmod(self.path, 0o600)
        listener.listen(BACKLOG)
        self.listener = listener

    def run(self) -> None:
        """Answer until idle for `idle` seconds, stopped or signalled; then remove the
        socket (only if it is still this server's)."""
        assert self.listener is not None
        identity = os.stat(self.path)
        try:
            deadline = time.monotonic() + self.idle
            while not self.stopping:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    self.say("idle, stopping")
                    break
                ready, _, _ = select.select([self.listener], [], [], remaining)
                if ready:
                    connection, _ = self.listener.accept()
                    with connection:
                        self.handle(connection)
                    deadline = time.monotonic() + self.idle
        except (KeyboardInterrupt, Stopped):
            self.say("signalled, stopping")
        finally:
            self.listener.close()
            try:
                if os.path.samestat(os.stat(self.path), identity):
                    os.unlink(self.path)
            except OSError:
                pass

    def handle(self, connection: socket.socket) -> None:
        connection.settimeout(REQUEST_SECONDS)
        try:
            if not address.same_user(connection):
                return
            request, _ = address.receive(connection)
            self._answer(connection, request)
        except (OSError, EOFError, ValueError):
            return  # the client went away or is no client of this protocol
        # Once the answer is sent: what the next answer needs and this one did not.
        try:
            self.build.settle()
        except Exception as error:  # a defect: the next request builds the graph in full
            self.build.forget()
            self.say(f"internal error ({type(error).__name__}); the next build is a full one")

    def _answer(self, connection: socket.socket, request: dict[str, Any]) -> None:
        mismatch = self._mismatch(request)
        if mismatch:
            send(connection, {"protocol": PROTOCOL, "status": "mismatch", "reason": mismatch})
            return
        if request.get("op") == "stop":
            self.stopping = True
            send(connection, {"protocol": PROTOCOL, "status": "stopped"})
            self.say("asked to stop")
            return
        started = time.perf_counter()
        try:
            payload = self._graph(request)
        except _Declined as declined:
            send(connection, {"protocol": PROTOCOL, "status": "declined"})
            self.say(f"declined a request: {declined}")
            return
        send(connection, {"protocol": PROTOCOL, "status": "answered", "exit": 0}, payload)
        command = request["argv"][0]
        self.say(f"{command} answered in {time.perf_counter() - started:.2f} s ({self.build.made})")

    def _mismatch(self, request: dict[str, Any]) -> str:
        if request.get("protocol") != PROTOCOL:
            return f"it speaks protocol {PROTOCOL}, not {request.get('protocol')}"
        if request.get("op") == "stop":
            return ""  # a server of other code may still be stopped
        if request.get("version") != TOOL_VERSION:
            return f"it runs tsograph {TOOL_VERSION}"
        if request.get("code") != self.code:
            return "it runs other code than this tsograph: stop it with tsograph serve --stop"
        return ""

    def _graph(self, request: dict[str, Any]) -> bytes:
        argv, cwd = request.get("argv"), request.get("cwd")
        if not isinstance(argv, list) or not all(isinstance(word, str) for word in argv):
            raise _Declined("no command words")
        if not isinstance(cwd, str):
            raise _Declined("no working folder")
        args = self._parse(argv)  # _Declined when the command line would refuse them
        if args.no_server or (args.command != "graph" and args.project is None):
            raise _Declined("not a run of a project's graph")
        if getattr(args, "roots_from", None) == "-":
            raise _Declined("roots on the client's standard input")
        if address.scope_of_arguments(args, cwd) != self.scope:
            raise _Declined("another project or other options")
        try:
            if args.command == "graph":
                return self.build.graph_document(args)
            return self.build.traversal_document(args, root_ids(args, cwd))
        except ToolError as error:
            raise _Declined(error.message.splitlines()[0]) from None
        except MissingRoots as missing:
            raise _Declined(str(missing)) from None
        except Exception as error:  # a defect: the run builds the graph itself
            self.build.forget()  # and the next request builds it again in full
            raise _Declined(f"internal error ({type(error).__name__})") from None

    def warm(self) -> None:
        """Write one document before listening: the first client then finds the records
        made and the writer's validators compiled."""
        self.build.graph_document(self._parse(["graph", "--project", self.build.options.project]))

    def _parse(self, argv: list[str]) -> Any:
        if self._parser is None:
            self._parser = graph_parser()
        return self._parser.parse_args(argv)

    def say(self, text: str) -> None:
        self.log.write(f"tsograph serve: {text}\n")
        self.log.flush()


SOCKETS = "the serve folder of the cache folder"
ALREADY = (
    "a graph server already holds this project with these options; stop it first "
    "(tsograph serve --stop with the same options)"
)


class _Declined(Exception):
    """A request the server does not answer; the client runs the command itself."""


class _Refusing(argparse.ArgumentParser):
    """A parser that declines what the command line would refuse (and prints nothing)."""

    def error(self, message: str) -> NoReturn:
        raise _Declined(message)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        raise _Declined(message or "the words end the run")


def graph_parser() -> argparse.ArgumentParser:
    """The command line's parser for `graph`, `reach` and `impact` words: the same options,
    registered by the same functions (the command line's own parser would import every
    command)."""
    parser = _Refusing(prog="tsograph")
    subparsers = parser.add_subparsers(dest="command", parser_class=_Refusing)
    graph_command.register(subparsers)
    traverse_command.register(subparsers)
    return parser


def listening(path: str) -> bool:
    """Whether a process accepts connections on the socket at `path`."""
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    probe.settimeout(REQUEST_SECONDS)
    try:
        probe.connect(path)
    except OSError:
        return False
    finally:
        probe.close()
    return True


@contextmanager
def stopped_by_signals() -> Iterator[None]:
    """SIGTERM ends the server as SIGINT does (only the main thread may set handlers)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(_signal: int, _frame: FrameType | None) -> None:
        raise Stopped

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)

"""`tsograph serve --project ROOT [graph options]`: hold a project's graph for later `graph` runs.

The server runs in the foreground until idle for --idle-timeout seconds,
SIGTERM, SIGINT or `tsograph serve --stop` with the same options. It binds
the whole project once, then listens; each `graph` run of the same scope
asks it first (client.py) and prints its answer.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from typing import Any

from tsograph.exchange.errors import InputError
from tsograph.exchange.errors import UsageError
from tsograph.producers.graph.command import add_project_options
from tsograph.producers.help_text import add_command
from tsograph.producers.serve.address import Scope
from tsograph.producers.serve.address import scope_of_arguments
from tsograph.producers.serve.address import socket_path
from tsograph.producers.serve.address import usable_path

IDLE_SECONDS = 30 * 60.0


def register(subparsers: Any) -> None:
    parser = add_command(subparsers, "serve")
    parser.set_defaults(run=run)
    add_project_options(parser)
    parser.add_argument(
        "--idle-timeout",
        type=_seconds,
        default=IDLE_SECONDS,
        metavar="SECONDS",
        help="end the server after this many seconds without a request (default: 1800)",
    )
    parser.add_argument(
        "--stop",
        action="store_true",
        help="stop the server that holds the project with these options, and start none",
    )


def run(args: argparse.Namespace) -> int:
    import socket

    if not hasattr(socket, "AF_UNIX"):
        raise UsageError("serve needs Unix-domain sockets, which this platform lacks")
    scope = scope_of_arguments(args, os.getcwd())
    path = socket_path(scope)
    if not usable_path(path):
        raise InputError(
            "--cache-dir: the server's socket would be too long a path for a Unix socket; "
            "pass a shorter --cache-dir"
        )
    if args.stop:
        return _stop(path, scope)
    return _serve(args, scope, path)


def _serve(args: argparse.Namespace, scope: Scope, path: str) -> int:
    from tsograph.producers.graph.options import GraphOptions
    from tsograph.producers.serve.held_build import HeldBuild
    from tsograph.producers.serve.server import ALREADY
    from tsograph.producers.serve.server import Server
    from tsograph.producers.serve.server import Stopped
    from tsograph.producers.serve.server import listening
    from tsograph.producers.serve.server import stopped_by_signals

    if os.path.lexists(path) and listening(path):
        raise InputError(ALREADY)  # before the first build, which takes a while
    # The command line turns the cyclic collector off for a run; a server lives long, and
    # its builds pause the collector themselves (incremental.paused_collector).
    gc.enable()
    build = HeldBuild(GraphOptions.of(args))
    server = Server(build, scope, path, args.idle_timeout)
    with stopped_by_signals():
        try:
            build.refresh()
            build.settle()
            server.warm()
            # One full collection now, while nobody waits: until the first one, the
            # collector counts nothing as long-lived and would run a full collection (a
            # scan of the whole build, a second or more) during an early answer.
            gc.collect()
            server.listen()
        except (KeyboardInterrupt, Stopped):
            return 0
        assert build.state is not None
        server.say(
            f"holding the graph of {scope[0].rsplit('/', 1)[-1]} ({len(build.state.facts)} "
            f"sources); idle timeout {args.idle_timeout:g} s"
        )
        server.run()
    return 0


def _stop(path: str, scope: Scope) -> int:
    from tsograph.producers.serve.client import DeadServer
    from tsograph.producers.serve.client import Unusable
    from tsograph.producers.serve.client import ask

    name = scope[0].rsplit("/", 1)[-1]
    if not os.path.lexists(path):
        _note(f"no graph server holds {name} with these options")
        return 0
    try:
        ask(path, {"op": "stop"}, REPLY_SECONDS)
    except DeadServer:
        os.unlink(path)
        _note(f"removed the socket of a graph server of {name} that had ended")
        return 0
    except Unusable as problem:
        raise InputError(f"the graph server of {name} was not stopped ({problem})") from None
    _note(f"stopped the graph server of {name}")
    return 0


# Seconds --stop waits for the server: it answers between two requests.
REPLY_SECONDS = 60.0


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError("must be a positive number of seconds")
    return value


def _note(text: str) -> None:
    sys.stderr.write(f"tsograph: {text}\n")
    sys.stderr.flush()

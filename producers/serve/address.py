"""Where the server of a scope listens, and what a client and a server check of each other.

Every `tsograph graph` run imports this module before its command line is
parsed (client.py), so it uses the standard library only (json: importing
orjson costs ten times as much, for headers of a few words).

A scope is what decides the build a server holds: the project and workspace
folders (real paths), the tsconfig and language as given, whether the cache
is used, and the cache folder (real path). Its socket is
`<cache folder>/serve/<digest of the scope>.sock`, in a folder only its user
may enter. The code fingerprint (each module's path, size and modification
time) tells a client that the server runs other code than it would, for
instance after an upgrade or an edit of a source checkout.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
from typing import Any

# Bumped whenever a message changes shape; a client and a server of different protocols
# never exchange anything but the first message.
PROTOCOL = 1
SOCKET_FOLDER = "serve"
# The longest socket path every platform with AF_UNIX binds (sun_path is 104 bytes on
# macOS and the BSDs, 108 on Linux, the terminating NUL included).
MAX_SOCKET_PATH = 103
_HEADER = struct.Struct(">IQ")  # the header's length, then the payload's
# A header is a few option words; anything larger is not a message of this protocol.
MAX_HEADER = 1 << 20

Scope = tuple[str, str | None, str | None, str | None, bool, str]


def cache_folder(cache_dir: str | None, cwd: str) -> str:
    """The real path of the cache folder: --cache-dir, else the default one
    (producers/project/facts_cache.default_cache_dir, which imports too much for here;
    tests/serve check that both agree)."""
    if cache_dir:
        folder = os.path.join(cwd, cache_dir)
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        folder = os.path.join(cwd, base, "tsograph")
    return os.path.realpath(folder)


def scope_of(
    project: str,
    workspace: str | None,
    tsconfig: str | None,
    language: str | None,
    use_cache: bool,
    cache_dir: str | None,
    cwd: str,
) -> Scope:
    """The scope of a graph run's options, paths taken from `cwd` as the run would."""
    return (
        os.path.realpath(os.path.join(cwd, project)),
        os.path.realpath(os.path.join(cwd, workspace)) if workspace is not None else None,
        tsconfig,
        language,
        use_cache,
        cache_folder(cache_dir, cwd),
    )


def scope_of_arguments(args: Any, cwd: str) -> Scope:
    """The scope of parsed graph or serve arguments, paths taken from `cwd`."""
    return scope_of(
        args.project,
        args.workspace,
        args.tsconfig,
        args.language,
        not args.no_cache,
        args.cache_dir,
        cwd,
    )


def socket_path(scope: Scope) -> str:
    """The socket of a scope's server: in the scope's cache folder, named by the scope."""
    digest = hashlib.sha256(json.dumps(scope).encode()).hexdigest()[:24]
    return os.path.join(scope[-1], SOCKET_FOLDER, f"{digest}.sock")


def usable_path(path: str) -> bool:
    """Whether a socket can be bound or reached at this path (its length)."""
    return len(os.fsencode(path)) <= MAX_SOCKET_PATH


def code_fingerprint() -> str:
    """A digest of the path, size and modification time of every module and schema of this
    installation: a server whose code differs from the client's is not asked."""
    package = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    digest = hashlib.sha256()
    for top in ("producers", "exchange", "schemas"):
        for folder, subfolders, names in os.walk(os.path.join(package, top)):
            subfolders[:] = sorted(name for name in subfolders if name != "__pycache__")
            for name in sorted(names):
                if name.endswith((".py", ".json")):
                    info = os.stat(os.path.join(folder, name))
                    relative = os.path.relpath(os.path.join(folder, name), package)
                    digest.update(f"{relative}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def same_user(connection: Any) -> bool:
    """Whether the process at the other end of a Unix socket runs as this user. Where the
    platform cannot tell (no SO_PEERCRED), the socket's folder (mode 0700) and the
    socket's mode (0600) are what keep other users out."""
    import socket

    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return True
    credentials = connection.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", credentials)
    return bool(uid == os.getuid())


def send(connection: Any, header: dict[str, Any], payload: bytes = b"") -> None:
    """One message: the lengths, a JSON header, then the payload's bytes."""
    encoded = json.dumps(header).encode()
    connection.sendall(_HEADER.pack(len(encoded), len(payload)) + encoded)
    if payload:
        connection.sendall(payload)


def receive(connection: Any) -> tuple[dict[str, Any], bytes]:
    """One message (ValueError: not a message of this protocol; EOFError: cut short)."""
    header_size, payload_size = _HEADER.unpack(_exactly(connection, _HEADER.size))
    if header_size > MAX_HEADER:
        raise ValueError("header too large")
    header = json.loads(_exactly(connection, header_size))
    if not isinstance(header, dict):
        raise ValueError("header is not an object")
    return header, _exactly(connection, payload_size)


def _exactly(connection: Any, size: int) -> bytes:
    buffer = bytearray(size)
    view = memoryview(buffer)
    done = 0
    while done < size:
        received = connection.recv_into(view[done:], min(size - done, 1 << 22))
        if not received:
            raise EOFError("connection closed")
        done += received
    return bytes(buffer)

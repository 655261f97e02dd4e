"""Record the request line requests, httpx, aiohttp and urllib.request really send for each join.

    python3.11 oracle/python-clients/record.py [scratch folder]

Makes a scratch virtual environment (default /tmp/tsograph-python-clients),
pip installs the pinned packages below into it, and runs this same file in it
with `--inside`: a ThreadingHTTPServer on 127.0.0.1 (ephemeral port) answers
every method and records the request line and Host header; each vector
(base_url x URL, query strings, trailing slashes, absolute overrides, method
spellings) is sent with each library, and what the server saw, or the name of
the exception the library raised before sending, is written to
oracle/recordings/python-clients/<library>.json. The origin is written
`{o}` (http://127.0.0.1:<port>) and another host `{abs}` (http://localhost:<port>),
so the recordings do not depend on the port.

tests/routes/python_client/test_python_join_oracle.py replays them offline.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any
from typing import ClassVar

PINS = ("requests==2.34.2", "httpx==0.28.1", "aiohttp==3.14.5", "yarl==1.25.1")
OUT = Path(__file__).resolve().parents[1] / "recordings" / "python-clients"

BASES = [
    "{o}",
    "{o}/",
    "{o}/api",
    "{o}/api/",
    "{o}/api/v1",
    "{o}/api/v1/",
    "{o}/api?k=1",
    "{o}/api/?k=1",
    "{o}/a%20b/",
    "{o}/api/./v1/",
    "/api/",
]
RELATIVE = [
    "",
    "/",
    "x",
    "/x",
    "x/",
    "x/y",
    "/x/y",
    "./x",
    "../x",
    "../../x",
    "x/../y",
    "x?q=1",
    "/x?q=1#f",
    "?q=1",
    "//other/x",
    "x#frag",
    "a b",
    "x%2Fy",
    "caf\u00e9",
    "{abs}/abs",
    "{abs}/a/../b",
    "{abs}",
]
ABSOLUTE = [
    "{o}",
    "{o}/",
    "{o}/x",
    "{o}/a/../b",
    "{o}/a/./b/",
    "{o}/a/%2e%2e/b",
    "{o}/a/%2E/b",
    "{o}//x",
    "{o}/x?q=1#f",
    "{o}?q=1",
    "{o}/a b",
    "{o}/caf%C3%A9",
    "{o}/caf\u00e9",
    "{abs}/abs",
    "/x",
    "x",
    "//127.0.0.1/x",
]
METHODS = ["GET", "get", "Patch", "DELETE"]


class Recorder(BaseHTTPRequestHandler):
    seen: ClassVar[list[dict[str, str]]] = []

    def handle_one_request(self) -> None:
        self.raw_requestline = self.rfile.readline(65537)
        if not self.raw_requestline:
            self.close_connection = True
            return
        if not self.parse_request():
            return
        # The raw request line: parse_request collapses a leading `//` in self.path.
        words = self.raw_requestline.decode("latin-1").rstrip("\r\n").split(" ")
        Recorder.seen.append(
            {
                "method": words[0],
                "target": words[1] if len(words) > 1 else "",
                "host": self.headers.get("Host", ""),
            }
        )
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        self.send_response(204)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        return


def main() -> int:
    scratch = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/tsograph-python-clients")
    python = scratch / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(scratch)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", *PINS], check=True)
    subprocess.run([str(python), __file__, "--inside"], check=True)
    return 0


def inside() -> int:
    import aiohttp
    import httpx
    import requests
    import yarl

    server = ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    port = server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin, other = f"http://127.0.0.1:{port}", f"http://localhost:{port}"

    def real(text: str) -> str:
        return text.replace("{o}", origin).replace("{abs}", other)

    def sent(call: Any) -> dict[str, Any]:
        Recorder.seen.clear()
        try:
            call()
        except Exception as error:  # the library raised before (or instead of) sending
            if not Recorder.seen:
                return {"error": type(error).__name__}
        if not Recorder.seen:
            return {"error": "nothing sent"}
        line = dict(Recorder.seen[0])
        line["host"] = line["host"].replace(str(port), "{port}")
        return line

    versions = {
        "requests": requests.__version__,
        "httpx": httpx.__version__,
        "aiohttp": aiohttp.__version__,
        "yarl": yarl.__version__,
        "python": ".".join(map(str, sys.version_info[:3])),
    }

    def write(library: str, vectors: list[dict[str, Any]]) -> None:
        OUT.mkdir(parents=True, exist_ok=True)
        document = {"library": library, "versions": versions, "vectors": vectors}
        text = json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False)
        (OUT / f"{library}.json").write_text(text + "\n", encoding="utf-8")

    # httpx: a Client per base, and the module functions (no base).
    vectors: list[dict[str, Any]] = []
    for base in [None, *BASES]:
        for url in RELATIVE:

            def go(base: str | None = base, url: str = url) -> None:
                if base is None:
                    httpx.get(real(url))
                else:
                    with httpx.Client(base_url=real(base)) as client:
                        client.get(real(url))

            vectors.append({"base": base, "url": url, "method": "GET", "sent": sent(go)})
    for method in METHODS:
        vectors.append(
            {
                "base": None,
                "url": "{o}/m",
                "method": method,
                "sent": sent(lambda method=method: httpx.request(method, real("{o}/m"))),
            }
        )
    write("httpx", vectors)

    # aiohttp: a ClientSession per base (its constructor checks the base), and aiohttp.request.
    async def aio(base: str | None, url: str, method: str) -> None:
        if base is None:
            async with aiohttp.request(method, real(url)) as response:
                await response.read()
            return
        async with (
            aiohttp.ClientSession(base_url=real(base)) as session,
            session.request(method, real(url)) as response,
        ):
            await response.read()

    vectors = []
    for base in [None, *BASES]:
        for url in RELATIVE:
            vectors.append(
                {
                    "base": base,
                    "url": url,
                    "method": "GET",
                    "sent": sent(lambda b=base, u=url: asyncio.run(aio(b, u, "GET"))),
                }
            )
    for method in METHODS:
        vectors.append(
            {
                "base": None,
                "url": "{o}/m",
                "method": method,
                "sent": sent(lambda m=method: asyncio.run(aio(None, "{o}/m", m))),
            }
        )
    write("aiohttp", vectors)

    # requests: no base; absolute URLs and method spellings, module function and Session.
    vectors = []
    for url in ABSOLUTE:
        vectors.append(
            {
                "base": None,
                "url": url,
                "method": "GET",
                "sent": sent(lambda u=url: requests.get(real(u))),
            }
        )
    for method in METHODS:
        vectors.append(
            {
                "base": None,
                "url": "{o}/m",
                "method": method,
                "sent": sent(lambda m=method: requests.Session().request(m, real("{o}/m"))),
            }
        )
    write("requests", vectors)

    # urllib.request: urlopen(url) and urlopen(Request(url, method=…)).
    import urllib.request

    vectors = []
    for url in ABSOLUTE:
        vectors.append(
            {
                "base": None,
                "url": url,
                "method": "GET",
                "sent": sent(lambda u=url: urllib.request.urlopen(real(u)).read()),
            }
        )
    for method in METHODS:
        request = lambda m=method: urllib.request.Request(real("{o}/m"), method=m)  # noqa: E731
        vectors.append(
            {
                "base": None,
                "url": "{o}/m",
                "method": method,
                "sent": sent(lambda r=request: urllib.request.urlopen(r()).read()),
            }
        )
    vectors.append(
        {
            "base": None,
            "url": "{o}/data",
            "method": "(data)",
            "sent": sent(lambda: urllib.request.urlopen(real("{o}/data"), data=b"x").read()),
        }
    )
    write("urllib", vectors)
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(inside() if sys.argv[1:] == ["--inside"] else main())

"""The grammars ship inside the language-pack wheel: parsing works with the network off.

Run in a fresh interpreter whose socket functions raise before the language
pack is imported, so nothing cached by earlier tests can hide a download.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

SAMPLES = {
    "typescript": "const x: number = f(1);",
    "tsx": "const v = <Item id={1} />;",
    "javascript": "module.exports = function () { return 1; };",
    "python": "def f(x):\n    return x + 1\n",
    "go": "package main\nfunc main() { println(1) }\n",
    "ruby": "def f(x)\n  x + 1\nend\n",
}

_PROGRAM = textwrap.dedent(
    """
    import json, socket, sys

    def refuse(*args, **kwargs):
        raise OSError("network disabled by the offline grammar test")

    socket.socket = refuse
    socket.create_connection = refuse
    socket.getaddrinfo = refuse
    try:
        socket.create_connection(("127.0.0.1", 9))
        blocked = False
    except OSError as error:
        blocked = "network disabled" in str(error)

    from tree_sitter_language_pack import get_parser

    results = {"network blocked": blocked}
    for language, source in json.loads(sys.argv[1]).items():
        root = get_parser(language).parse(source.encode()).root_node
        results[language] = [root.type, root.has_error, root.child_count]
    print(json.dumps(results))
    """
)


def test_grammars_parse_without_network() -> None:
    completed = subprocess.run(
        [sys.executable, "-c", _PROGRAM, json.dumps(SAMPLES)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    results = json.loads(completed.stdout)
    assert results.pop("network blocked") is True
    assert set(results) == set(SAMPLES)
    roots = {"python": "module", "go": "source_file", "ruby": "program"}
    for language, (root_type, has_error, children) in results.items():
        assert root_type == roots.get(language, "program"), language
        assert not has_error, language
        assert children >= 1, language


_FRONT_END = textwrap.dedent(
    """
    import json, socket

    def refuse(*args, **kwargs):
        raise OSError("network disabled by the offline grammar test")

    socket.socket = refuse
    socket.create_connection = refuse
    socket.getaddrinfo = refuse

    from tsograph.producers.lang.python import read_syntax

    syntax = read_syntax("app/main.py", b"import os\\ndef main():\\n    return os.getcwd()\\n")
    print(json.dumps([syntax.facts.language, [d.id for d in syntax.facts.declarations]]))
    """
)


def test_the_python_front_end_reads_a_file_without_network() -> None:
    completed = subprocess.run(
        [sys.executable, "-c", _FRONT_END],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == [
        "python",
        ["app/main.py#<module>", "app/main.py#main"],
    ]

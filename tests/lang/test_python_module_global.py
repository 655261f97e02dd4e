"""A `global` statement at module level (FastChat's fastchat/serve/lightllm_worker.py writes
one inside `if __name__ == "__main__":`): CPython accepts it and it changes nothing, since
the module scope is the global scope."""

from __future__ import annotations

from tsograph.producers.lang.python import extract

SOURCE = (
    "import http_server\n"
    'if __name__ == "__main__":\n'
    "    global manager\n"
    "    manager = http_server.Manager()\n"
    "    manager.start()\n"
)


def test_a_module_level_global_binds_the_module_name() -> None:
    compile(SOURCE, "main.py", "exec")  # CPython 3.11 accepts it
    facts = extract("main.py", SOURCE.encode())
    assert facts.parse_errors == 0
    assert any(call for call in facts.calls)

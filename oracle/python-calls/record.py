"""Record which project function called which while a fixture program ran, under CPython.

    python oracle/python-calls/record.py <project folder> <script> > <recording>.json
    <venv>/bin/python oracle/python-calls/record.py <package folder> --pytest [args] > <rec>.json

The script (relative to the project folder) runs as `__main__` with its folder
first on sys.path, as `python <script>` would, under `sys.setprofile` (Python
3.11 has no sys.monitoring). With `--pytest`, a package's test suite runs
instead (`pytest.main(args)` in the package folder, with the interpreter of a
scratch venv where the package is installed from that folder, `pip install -e`).
Every Python-level call whose callee and caller code lie in the project
folder is recorded as `[caller id, caller line, callee id]` with the ids
tsograph's graph gives declarations: `<path>#<qualname>`,
`<locals>` left out, module code as `<module>`. A comprehension's frame is its
function's (the facts attribute comprehension code to the code around it);
lambdas and generator expressions keep their own names and match no node.
The recording holds no absolute path and is sorted, so rerunning it on the same
program writes the same bytes.
"""

from __future__ import annotations

import inspect
import json
import os
import runpy
import sys
from types import CodeType
from types import FrameType
from typing import Any

INLINE = frozenset({"<listcomp>", "<dictcomp>", "<setcomp>"})
LAZY = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR


def main() -> int:
    root = os.path.realpath(sys.argv[1])
    script = sys.argv[2]
    calls: set[tuple[str, int, str]] = set()
    lazy: set[str] = set()

    symbols: dict[CodeType, str | None] = {}

    def symbol(code: CodeType) -> str | None:
        # Once per code object: a test suite makes millions of calls.
        if code in symbols:
            return symbols[code]
        filename = os.path.realpath(code.co_filename)
        found = None
        if filename.startswith(root + os.sep):
            path = os.path.relpath(filename, root).replace(os.sep, "/")
            found = f"{path}#{code.co_qualname.replace('.<locals>', '')}"
        symbols[code] = found
        return found

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        callee = symbol(frame.f_code)
        if callee is not None and frame.f_code.co_flags & LAZY and "<" not in callee:
            # Calling it made a generator or coroutine; its frame first runs where it is
            # iterated or awaited, so the site that called it is never seen calling it.
            lazy.add(callee)
        caller_frame = frame.f_back
        while caller_frame is not None and caller_frame.f_code.co_name in INLINE:
            caller_frame = caller_frame.f_back
        if callee is None or caller_frame is None:
            return
        caller = symbol(caller_frame.f_code)
        if caller is not None:
            calls.add((caller, caller_frame.f_lineno, callee))

    stdout = sys.stdout
    # The program's own output is not the recording.
    with open(os.devnull, "w") as silent:
        sys.stdout = silent
        try:
            if script == "--pytest":
                import pytest  # the scratch venv's, never a dependency of tsograph

                os.chdir(root)
                sys.setprofile(profile)
                pytest.main(["-p", "no:cacheprovider", *sys.argv[3:]])
            else:
                target = os.path.join(root, script)
                sys.path.insert(0, os.path.dirname(target))
                sys.argv = [target]
                sys.setprofile(profile)
                runpy.run_path(target, run_name="__main__")
        finally:
            sys.setprofile(None)
            sys.stdout = stdout
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    lines = ",\n".join("    " + json.dumps(list(call)) for call in sorted(calls))
    # Only written when the run made some (the fixture recordings stay as they were).
    generators = f',\n  "generators": {json.dumps(sorted(lazy))}' if lazy else ""
    sys.stdout.write(
        f'{{\n  "python": "{version}",\n  "script": {json.dumps(script)},\n'
        f'  "calls": [\n{lines}\n  ]{generators}\n}}\n'
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The Python value reader shared by the graph, the client and schema evaluator and the
server interpreter (docs/architecture.md, "The Python producers").

`modules.py`: project modules and namespace packages as values, where a name reaches a
package's submodule, which names a star import binds; `strings.py`: strings with unknown
parts and the formatting operations on them; `literals.py`: what list, tuple and
f-string displays hold; `arguments.py`: a call's arguments as Python binds them;
`members.py`: an attribute read before its call. The one `UNKNOWN` and the one depth
budget are the language-neutral ones of `producers/values/` (`unknown.py`, `budget.py`).
"""

"""The Python value reader shared by the graph, the client and schema evaluator and the
server interpreter.

`modules.py`: the project module value and how a name reaches a package's submodule;
`arguments.py`: a call's arguments as Python binds them; `literals.py`: what a list,
tuple or f-string literal holds. The one `UNKNOWN` and the one depth budget are the
language-neutral ones of `producers/values/` (`unknown.py`, `budget.py`).
"""

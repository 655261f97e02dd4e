"""`tsograph serve`: a resident process that holds one project's graph and answers `graph`.

A new `graph` process binds every file from the cached facts (seconds on a
large project) even after a one-file edit; a process that keeps its build
rebinds only what an edit can change (graph/incremental.py). The server is
that process: it holds the build of one scope (project, workspace, tsconfig,
language, cache folder and whether the cache is used), listens on a Unix
socket in the cache folder named by that scope, and answers a `graph` run of
the same scope with the bytes the run would print.

The client side (client.py, address.py) runs before the command line parser
and imports almost nothing, since the interpreter's start and imports count
against the answer's time. Anything wrong with a server (dead, another
version or code, a broken or late answer) makes the run fall back to
building the graph itself.
"""

"""tsograph: static facts about services (routes, calls, storage, call graphs) as documents.

The installed distribution has this one import package. In a source checkout
its sub-packages are the repository's top-level folders, reached through the
symbolic links beside this file; the wheel maps them in (pyproject's
`package-dir`), so nothing is installed under another top-level name.
"""

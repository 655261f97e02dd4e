"""The base side of `changes --base REF` and `impact --base REF`: the graph of a commit.

The base is read from git objects and never checked out, with the review
code (producers/review/git_base.py): the commit's files under the source
root are written into a scratch folder, the graph is built from it (the
facts cache is keyed by content, so files the change left alone are not
parsed again), and review/changes.py tells which symbols the change edited,
added, removed or moved, from the diff of the work tree against the commit.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tsograph.exchange.errors import InputError
from tsograph.producers.graph.options import GraphOptions
from tsograph.producers.graph.project_graph import load_project_graph
from tsograph.producers.query.held import HeldGraph
from tsograph.producers.query.load import hold
from tsograph.producers.query.request import Refused
from tsograph.producers.review import git_base
from tsograph.producers.review.changes import Changes
from tsograph.producers.review.changes import compare

# The held graph of a folder (the scratch base), built the way the head was.
Loader = Callable[[Path], HeldGraph]


@dataclass(frozen=True)
class BaseSide:
    commit: str
    how: str  # how the commit was chosen (git_base.Base.how)
    held: HeldGraph  # the base's graph
    changes: Changes
    missing: tuple[str, ...]  # base files a partial clone holds no content for


def read_base(head: HeldGraph, ref: str, load: Loader) -> BaseSide:
    """The base commit `ref` against the work tree of the head's source root."""
    root = head.root
    if root is None:
        raise Refused("no-base", "this graph has no source folder to compare with a base")
    try:
        top = git_base.toplevel(root)
        base = git_base.resolve_base(top, ref)
        prefix = root.resolve().relative_to(top.resolve()).as_posix()
        prefix = "" if prefix == "." else prefix
        with tempfile.TemporaryDirectory(prefix="tsograph-base-") as scratch:
            folder = Path(scratch) / "base"
            folder.mkdir()
            missing = git_base.write_base(top, base.commit, prefix, folder)
            git_base.link_dependencies(root, folder)
            held = load(folder)
            cut = len(prefix) + 1 if prefix else 0
            files = {
                path[cut:]: ("R" + status[1 + cut :]) if status.startswith("R") else status
                for path, status in git_base.changed_paths(top, base.commit, prefix).items()
            }
            lines = {
                path[cut:]: found
                for path, found in git_base.changed_lines(top, base.commit, prefix).items()
            }
            changes = compare(held, folder, head, root, files, lines)
    except InputError as error:
        message = error.message.splitlines()[0].removeprefix("review: ")
        raise Refused("no-base", f"--base {ref}: {message}") from None
    return BaseSide(base.commit, base.how, held, changes, tuple(missing))


def folder_loader(options: GraphOptions, head: HeldGraph) -> Loader:
    """How a base folder is read: with the head's caches, language and config."""

    def load(folder: Path) -> HeldGraph:
        loaded = load_project_graph(
            str(folder),
            tsconfig=options.tsconfig if options.workspace is None else None,
            cache_dir=options.cache_dir,
            use_cache=options.use_cache,
            language=head.platform,
        )
        return hold(loaded)

    return load

"""`tsograph review [--base REF] [--project ROOT] [--out DIR]`: what a change reaches.

The base (default: the merge base of HEAD with the default branch, else HEAD)
is read from git objects into a folder kept in the cache folder (the last few
bases; with --no-cache a scratch folder), and the work tree as it is;
both graphs go through the same caches, so files the change left alone are
not parsed again. The brief goes to stdout, or with --out to DIR/brief.md
next to the packet (packet.py).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tsograph.exchange.errors import InputError
from tsograph.exchange.errors import UsageError
from tsograph.producers.command_args import add_cache_arguments
from tsograph.producers.command_args import cache_folder
from tsograph.producers.command_args import syntax_files
from tsograph.producers.graph.project_graph import load_project_graph
from tsograph.producers.help_text import add_command
from tsograph.producers.query.held import HeldGraph
from tsograph.producers.query.load import hold
from tsograph.producers.review import git_base
from tsograph.producers.review.brief import render
from tsograph.producers.review.changes import compare
from tsograph.producers.review.diagram import review_diagram
from tsograph.producers.review.packet import write_packet
from tsograph.producers.review.summary import summarize


def register(subparsers: Any) -> None:
    parser = add_command(subparsers, "review")
    parser.add_argument(
        "--base",
        metavar="REF",
        help="the version to compare with (default: the merge base with the default branch, "
        "else HEAD)",
    )
    parser.add_argument(
        "--project", default=".", metavar="ROOT", help="the project folder (default: .)"
    )
    parser.add_argument(
        "--out", metavar="DIR", help="write brief.md and the packet here instead of stdout"
    )
    add_cache_arguments(parser)
    parser.set_defaults(run=run)


def _load(folder: Path, args: argparse.Namespace, variant: str = "") -> HeldGraph:
    return hold(
        load_project_graph(
            str(folder), cache_dir=args.cache_dir, use_cache=not args.no_cache, variant=variant
        )
    )


@contextmanager
def _base_folder(
    args: argparse.Namespace, top: Path, commit: str, prefix: str, project: Path
) -> Iterator[tuple[Path, list[str]]]:
    """The base's files: kept in the cache folder for the next review of the same base, or
    with --no-cache in a scratch folder removed afterwards."""
    if not args.no_cache:
        yield git_base.kept_base(cache_folder(args) / "review-bases", top, commit, prefix, project)
        return
    with tempfile.TemporaryDirectory(prefix="tsograph-review-") as scratch:
        folder = Path(scratch) / "base"
        folder.mkdir()
        missing = git_base.write_base(top, commit, prefix, folder)
        git_base.link_dependencies(project, folder)
        yield folder, missing


def _relation_uses(project: Path, args: argparse.Namespace) -> list[dict[str, Any]] | None:
    """The work tree's relation-use facts with graph ids; None when the scan fails."""
    from tsograph.producers.project.model import ProjectModel
    from tsograph.producers.schema.collect_all import scan_project

    try:
        scan = scan_project(ProjectModel.load(project, False, syntax_files(args)))
    except (OSError, InputError):
        return None
    return [fact for fact in scan.facts if fact.get("kind") == "relation-use"]


def _out_folder(text: str | None) -> Path | None:
    if text is None:
        return None
    out = Path(text)
    if out.exists() and (
        not out.is_dir() or (any(out.iterdir()) and not (out / "index.md").is_file())
    ):
        raise UsageError(
            f"--out {text} holds files that are not a review packet; give an empty or new folder"
        )
    return out


def run(args: argparse.Namespace) -> int:
    out = _out_folder(args.out)
    project = Path(args.project).resolve()
    if not project.is_dir():
        raise InputError(f"review: --project {args.project} is not a folder; give a project folder")
    top = git_base.toplevel(project)
    base = git_base.resolve_base(top, args.base)
    prefix = project.relative_to(top.resolve()).as_posix()
    prefix = "" if prefix == "." else prefix
    head = _load(project, args)
    with _base_folder(args, top, base.commit, prefix, project) as (base_folder, missing):
        # The base's sources may be the work tree's with other configs: its cached graph
        # is kept apart from the work tree's.
        base_held = _load(base_folder, args, variant="review base")
        cut = len(prefix) + 1 if prefix else 0
        files = {
            path[cut:]: (("R" + status[1 + cut :]) if status.startswith("R") else status)
            for path, status in git_base.changed_paths(top, base.commit, prefix).items()
        }
        lines = {
            path[cut:]: found
            for path, found in git_base.changed_lines(top, base.commit, prefix).items()
        }
        changes = compare(base_held, base_folder, head, project, files, lines)
        uses = _relation_uses(project, args)
        summary, lists = summarize(base_held, head, changes, uses)
    status = {
        "base": {"commit": base.commit, "how": base.how},
        "head": {"build": head.build, "mode": head.mode, "status": head.status()},
        "baseGraph": {
            "build": base_held.build,
            "mode": base_held.mode,
            "status": base_held.status(),
        },
        "partial": head.status() == "partial" or base_held.status() == "partial" or bool(missing),
        # Files of the base the clone holds no content for (a partial clone): not read.
        "baseFilesMissing": missing,
        "limitations": head.limitations,
    }
    brief = render(summary, status, review_diagram(head, summary))
    if out is None:
        sys.stdout.write(brief)
        return 0
    if out.exists():
        shutil.rmtree(out)
    write_packet(out, summary, lists, changes, status)
    (out / "brief.md").write_text(brief, encoding="utf-8")
    return 0

"""`tsograph mcp [--repo DIR]`: serve the graph questions as MCP tools over stdin and stdout.

The agent starts it; it reads nothing until the first question (see
session.py). The `mcp` SDK is imported only here, when the command runs.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from tsograph.producers.command_args import add_cache_arguments
from tsograph.producers.command_args import project_folder
from tsograph.producers.help_text import add_command
from tsograph.producers.query.command import add_kept_option


def register(subparsers: Any) -> None:
    parser = add_command(subparsers, "mcp")
    parser.add_argument(
        "--repo", metavar="DIR", default=".", help="the repository to answer for (default: .)"
    )
    add_cache_arguments(parser)
    add_kept_option(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from tsograph.producers.mcp.server import serve
    from tsograph.producers.mcp.session import GraphSession

    repo = Path(os.path.realpath(project_folder(args.repo, "--repo")))
    session = GraphSession(
        repo, cache_dir=args.cache_dir, use_cache=not args.no_cache, kept_mb=args.kept_builds_mb
    )
    serve(session)
    return 0

"""`tsograph mcp [--repo DIR]`: serve the graph questions as MCP tools over stdin and stdout.

The agent starts it; it reads nothing until the first question (see
session.py). The `mcp` SDK is imported only here, when the command runs.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from tsograph.producers.command_args import project_folder
from tsograph.producers.help_text import USAGE_ERROR, command_help


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "mcp",
        help="serve the graph questions to an agent as MCP tools over stdin/stdout",
        **command_help(
            "An MCP server over standard input and output (no network port): one tool per "
            "question of `tsograph query` (graph_callers, graph_callees, ..., graph_refresh), "
            "each answering with the JSON of `query --json`. See docs/mcp.md to register it "
            "with an agent.",
            [
                (0, "the agent closed the connection"),
                (2, "--repo names no readable folder"),
                (64, USAGE_ERROR),
            ],
            ["tsograph mcp", "tsograph mcp --repo path/to/repo"],
        ),
    )
    parser.add_argument(
        "--repo", metavar="DIR", default=".", help="the repository to answer for (default: .)"
    )
    parser.add_argument(
        "--cache-dir", metavar="DIR", help="where per-file facts and whole graphs are cached"
    )
    parser.add_argument("--no-cache", action="store_true", help="read and write no cache")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from tsograph.producers.mcp.server import serve
    from tsograph.producers.mcp.session import GraphSession

    repo = Path(os.path.realpath(project_folder(args.repo, "--repo")))
    serve(GraphSession(repo, cache_dir=args.cache_dir, use_cache=not args.no_cache))
    return 0

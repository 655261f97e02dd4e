"""The options a graph is built with, written once for every way a graph is built.

`graph`, `reach`, `impact`, `query`, the MCP server and the incremental
rebuilds all read a project with the same options; they travel as one value
rather than as a list of keywords repeated at each step.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tsograph.producers.project.facts_cache import default_cache_dir


@dataclass(frozen=True)
class GraphOptions:
    """--project and the shared graph arguments (--workspace, --tsconfig, --cache-dir,
    --no-cache, --language), and the kept-builds bound of `query` and `mcp`."""

    project: str
    workspace: str | None = None
    tsconfig: str | None = None
    cache_dir: str | None = None
    use_cache: bool = True
    language: str | None = None
    kept_mb: int | None = None  # the kept-builds collector's bound; None: environment or default

    @classmethod
    def of(cls, args: Any) -> GraphOptions:
        """The options of a command's parsed arguments (the shared graph arguments)."""
        return cls(
            args.project,
            workspace=args.workspace,
            tsconfig=args.tsconfig,
            cache_dir=args.cache_dir,
            use_cache=not args.no_cache,
            language=getattr(args, "language", None),
            kept_mb=getattr(args, "kept_builds_mb", None),
        )

    def cache_folder(self) -> Path:
        """The cache folder: --cache-dir, else the default one (whether or not it is used)."""
        return Path(self.cache_dir) if self.cache_dir else default_cache_dir()

    def cache_directory(self) -> Path | None:
        """The cache folder a build reads and writes; None with --no-cache."""
        return self.cache_folder() if self.use_cache else None

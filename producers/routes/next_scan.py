"""What one Next.js route scan collects, the settings it reads, and the file checks it shares."""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

from tsograph.producers.project.syntax_cache import SyntaxFiles
from tsograph.producers.project.syntax_cache import uncached_syntax_files
from tsograph.producers.routes.route_scan import RouteScan


@dataclass
class Scan(RouteScan):
    """What one run found: besides the facts, limitations and files, what it could not model."""

    coverage: Counter[str] = field(default_factory=Counter)
    coverage_names: set[str] = field(default_factory=set)
    missing_usrs: list[str] = field(default_factory=list)
    metadata: int = 0
    # Route files and the config are read through the run's syntax cache.
    syntax_files: SyntaxFiles = field(default_factory=uncached_syntax_files)


@dataclass(frozen=True)
class Settings:
    base_path: str  # "" when none
    base_known: bool
    trailing_slash: bool | None  # None: not a literal
    skip_redirect: bool | None
    extensions: tuple[str, ...]
    resolved: bool
    i18n: bool
    asset_prefix: bool


def lstat(path: Path) -> os.stat_result | None:
    """What the path itself is (a link is not followed); None when nothing is there."""
    try:
        return os.lstat(path)
    except OSError:
        return None


def exists_following(path: Path) -> bool:
    return os.path.exists(path)


def cover(scan: Scan, reason: str, name: str | None = None) -> None:
    """Count a file or folder the scan could not fully model (route-coverage:)."""
    scan.coverage[reason] += 1
    if name:
        scan.coverage_names.add(name)

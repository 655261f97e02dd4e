"""The Next.js config a scan obeys: which file Next.js loads and the settings read from it."""

from __future__ import annotations

import stat
from pathlib import Path

from tsograph.exchange.limitations import counted
from tsograph.producers.project.walk import UnreadableSource
from tsograph.producers.project.walk import read_source
from tsograph.producers.routes.next_config import CONFIG_FILES
from tsograph.producers.routes.next_config import DEFAULT_PAGE_EXTENSIONS
from tsograph.producers.routes.next_config import ROUTE_KEYS
from tsograph.producers.routes.next_config import UNKNOWN
from tsograph.producers.routes.next_config import NextConfig
from tsograph.producers.routes.next_config import accepted_base_path
from tsograph.producers.routes.next_config import read_next_config
from tsograph.producers.routes.next_scan import Scan
from tsograph.producers.routes.next_scan import Settings
from tsograph.producers.routes.next_scan import cover
from tsograph.producers.routes.next_scan import exists_following
from tsograph.producers.routes.next_scan import lstat


def config_file(root: Path) -> tuple[str | None, bool]:
    """The config file Next.js would load, and whether it is a symbolic link.

    next@16.4.6 server/config.js loadConfig: find-up of CONFIG_FILES in order, by existence
    (a dangling link is absent); only the project root is looked at here (spec decision).
    """
    for name in CONFIG_FILES:
        info = lstat(root / name)
        if info is None:
            continue
        if stat.S_ISLNK(info.st_mode):
            if not exists_following(root / name):
                continue  # a dangling link is absent, like existsSync
            return name, True
        return name, False
    return None, False


def settings_from(root: Path, scan: Scan) -> Settings:
    name, linked = config_file(root)
    unresolved: list[str] = []
    config = NextConfig()
    if name is not None and linked:
        unresolved.append(f"{name} is a symbolic link and was not read")
    elif name is not None:
        try:
            data = read_source(root, name)
        except UnreadableSource:
            unresolved.append(f"{name} could not be read")
        else:
            scan.read.append(root / name)
            config = read_next_config(scan.syntax_files.get(name, data))
            if config.problems:
                unresolved.append(f"{name} could not be read statically ({config.problems[0]})")
    values = config.values
    if config.unresolved_spread:
        unresolved.append(f"{name} has spreads or members tsograph cannot resolve")
    base_known = not unresolved
    base_path = ""
    raw_base = values.get("basePath", "")
    if raw_base is UNKNOWN or not isinstance(raw_base, str):
        base_known = False
        unresolved.append(f"basePath in {name} is not a string literal")
    elif not accepted_base_path(raw_base):
        base_known = False
        unresolved.append(f"basePath in {name} is a value Next.js rejects")
    else:
        base_path = raw_base
    if config.wrapped:
        unresolved.append(f"{name} passes its config through wrapper calls")
    for line in unresolved:
        scan.limitations.append(counted("unresolved-route-prefix:", 1, line))
    extensions: tuple[str, ...] = DEFAULT_PAGE_EXTENSIONS
    raw_extensions = values.get("pageExtensions", None)
    if raw_extensions is not None:
        if (
            isinstance(raw_extensions, list)
            and raw_extensions
            and all(isinstance(item, str) and item for item in raw_extensions)
        ):
            extensions = tuple(raw_extensions)
        else:
            cover(scan, "page-extensions-not-literal", name)
    route_keys = sorted(key for key in ROUTE_KEYS if key in values)
    if route_keys:
        scan.limitations.append(
            counted(
                "framework-provided-routes:",
                len(route_keys),
                f"config key(s) in {name} add or move routes tsograph does not enumerate",
                names=route_keys,
            )
        )
    trailing = values.get("trailingSlash", False)
    skip = values.get("skipTrailingSlashRedirect", False)
    return Settings(
        base_path=base_path,
        base_known=base_known,
        trailing_slash=trailing if isinstance(trailing, bool) and base_known else None,
        skip_redirect=skip if isinstance(skip, bool) else None,
        extensions=extensions,
        resolved=base_known and not config.wrapped and not route_keys,
        i18n="i18n" in values,
        asset_prefix="assetPrefix" in values and values["assetPrefix"] not in ("", None),
    )

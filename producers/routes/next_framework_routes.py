"""Routes Next.js itself serves (public/, static/, /_next, proxy/middleware, metadata files).

They are limitation lines with scopes, not route-decl facts: tsograph cannot list them.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from tsograph.exchange.limitations import counted
from tsograph.producers.routes.next_scan import Scan
from tsograph.producers.routes.next_scan import Settings
from tsograph.producers.routes.next_scan import lstat
from tsograph.producers.routes.route_scan import Limitations


def _nonempty_folder(root: Path, name: str) -> tuple[bool, bool]:
    """(exists with content or is a link, is a link)."""
    info = lstat(root / name)
    if info is None:
        return False, False
    if stat.S_ISLNK(info.st_mode):
        return True, True
    if not stat.S_ISDIR(info.st_mode):
        return False, False
    try:
        with os.scandir(root / name) as listing:
            return any(True for _ in listing), False
    except OSError:
        return True, False


# next@16.4.6 server/lib/router-utils/filesystem.js getItem: public/ at the root, static/ under
# /static, /_next/static, /_next/image, /_next/data, all after basePath and only GET/HEAD for
# files (server/lib/router-server.js answers 405 otherwise); i18n adds default-locale lookups
# and a path assetPrefix a rewrite (lib/load-custom-routes.js), so the scopes drop then.
# proxy/middleware: lib/constants.js PROXY_FILENAME / MIDDLEWARE_FILENAME next to app/pages.
def framework_routes(root: Path, settings: Settings, found_dirs: list[str], scan: Scan) -> None:
    base = settings.base_path if settings.base_known else "<basePath>"
    scoped = settings.resolved

    add = Limitations(scan.limitations, scan.scopes).add

    # The folders served as files: the folder, how the line names it, where it is served,
    # and whether the limitation can be scoped (static/'s not under i18n).
    folders = (
        ("public", "public/", base or "/", scoped),
        ("static", "the legacy static/ folder", f"{base}/static", scoped and not settings.i18n),
    )
    for folder, what, prefix, exact in folders:
        present, linked = _nonempty_folder(root, folder)
        if present:
            note = " (a symbolic link, not read)" if linked else ""
            add(
                counted(
                    "framework-provided-routes:",
                    1,
                    f"{what} is served at {prefix} for GET and HEAD{note}",
                ),
                {"templatePrefixes": [prefix], "methods": ["GET", "HEAD"]} if exact else None,
            )
    if found_dirs:
        add(
            counted(
                "framework-provided-routes:",
                1,
                "Next.js serves build assets, the image optimizer and page data "
                f"under {base}/_next",
            ),
            {"templatePrefixes": [f"{base}/_next"]}
            if scoped and not settings.i18n and not settings.asset_prefix
            else None,
        )
    handlers: list[str] = []
    places = sorted({folder.rpartition("/")[0] for folder in found_dirs}) or [""]
    for place in places:
        for stem in ("middleware", "proxy"):
            for extension in settings.extensions:
                name = f"{place}/{stem}.{extension}" if place else f"{stem}.{extension}"
                if lstat(root / name) is not None:
                    handlers.append(name)
    if handlers:
        scan.limitations.append(
            counted(
                "framework-provided-routes:",
                len(handlers),
                "proxy/middleware file(s) can answer or rewrite any request",
                names=handlers,
            )
        )
    if scan.metadata:
        scan.limitations.append(
            counted(
                "framework-provided-routes:",
                scan.metadata,
                "metadata file(s) (sitemap, robots, manifest, icons, images) "
                "create framework routes",
            )
        )

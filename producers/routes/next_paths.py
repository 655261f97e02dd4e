"""Which URL forms Next.js serves: metadata files and the trailing-slash redirects.

Both are ports of regular expressions in next@16.4.6 (checked with the oracle
under oracle/next/, whose recordings tests/routes/test_next_oracle.py replays):
the patterns are kept as Next writes them, extension lists unescaped included,
so the port answers exactly as Next does.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from tsograph.exchange.templates import Part
from tsograph.exchange.templates import encode_literal

# lib/metadata/is-metadata-route.js: STATIC_METADATA_IMAGES and the fast-path checks.
_ICON_EXTENSIONS = ("ico", "jpg", "jpeg", "png", "svg")
_APPLE_EXTENSIONS = ("jpg", "jpeg", "png")
_SOCIAL_EXTENSIONS = ("jpg", "jpeg", "png", "gif")
_FAST_TRUE = re.compile(
    r"^[\\/]favicon\.ico$|^[\\/]robots\.txt$|^[\\/]manifest\.json$|^[\\/]manifest\.webmanifest$"
)
_SITEMAP_XML = re.compile(r"[\\/]sitemap\.xml$")
_KEYWORDS = (
    "robots",
    "manifest",
    "sitemap",
    "icon",
    "apple-icon",
    "opengraph-image",
    "twitter-image",
    "favicon",
)

# lib/load-custom-routes.js, trailingSlash: true. `:file(...)` takes a last segment that ends
# in `.\w+` (JavaScript's \w is ASCII), `:notfile(...)` one without a dot; both skip paths whose
# first segment starts with `.well-known` (the lookahead `(?!\.well-known(?:/.*)?)`).
_FILE_SEGMENT = re.compile(r"^[^/]+\.\w+$", re.ASCII)
_NOT_FILE_SEGMENT = re.compile(r"^[^/.]+$")
_WELL_KNOWN = ".well-known"


def _extensions(static: Sequence[str], dynamic: Sequence[str]) -> str:
    """getExtensionRegexString: extensions joined as written (a `.` in one is a regex dot)."""
    if not dynamic:
        return rf"(\.(?:{'|'.join(static)}))"
    return rf"(?:\.({'|'.join(static)})|(\.({'|'.join(dynamic)})))"


@lru_cache(maxsize=16)
def _metadata_patterns(extensions: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    """getCompiledRegexes(pageExtensions, strictlyMatchExtensions=true), as the build calls it."""
    robots = [*extensions, "txt"] if extensions else ["txt"]
    manifest = [*extensions, "webmanifest", "json"] if extensions else ["webmanifest", "json"]
    sources = (
        rf"^[\\/]robots{_extensions(robots, ())}$",
        rf"^[\\/]manifest{_extensions(manifest, ())}$",
        rf"[\\/]sitemap{_extensions(['xml'], extensions)}$",
        rf"[\\/]icon\d?{_extensions(_ICON_EXTENSIONS, extensions)}$",
        rf"[\\/]apple-icon\d?{_extensions(_APPLE_EXTENSIONS, extensions)}$",
        rf"[\\/]opengraph-image\d?{_extensions(_SOCIAL_EXTENSIONS, extensions)}$",
        rf"[\\/]twitter-image\d?{_extensions(_SOCIAL_EXTENSIONS, extensions)}$",
    )
    return tuple(re.compile(source, re.ASCII) for source in sources)


def is_metadata_file(app_relative: str, extensions: Sequence[str]) -> bool:
    """isMetadataRouteFile(path, pageExtensions, true) for `/`-led paths relative to app/."""
    if len(app_relative) < 2:
        return False
    if _FAST_TRUE.search(app_relative) or _SITEMAP_XML.search(app_relative):
        return True
    if not any(keyword in app_relative for keyword in _KEYWORDS):
        return False
    return any(pattern.search(app_relative) for pattern in _metadata_patterns(tuple(extensions)))


def _literal(segment: Sequence[Part]) -> str | None:
    """The URL text of a segment, None when a parameter is part of it."""
    if not all(isinstance(part, str) for part in segment):
        return None
    return encode_literal("".join(part for part in segment if isinstance(part, str)))


def slash_redirect(full: Sequence[Sequence[Part]]) -> str | None:
    """With trailingSlash: true, the form Next.js redirects a non-root path to.

    `full` is every URL segment, basePath included. "slash" or "no-slash" when
    a redirect makes that form canonical, "none" when neither redirect applies
    (both forms reach the handler), None when it depends on a parameter value.
    """
    first = _literal(full[0])
    if first is None:
        return None
    if first.startswith(_WELL_KNOWN):
        return "none"
    last = _literal(full[-1])
    if last is None:
        return None
    if _FILE_SEGMENT.match(last):
        return "no-slash"
    if _NOT_FILE_SEGMENT.match(last):
        return "slash"
    return "none"

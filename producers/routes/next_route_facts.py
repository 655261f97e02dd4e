"""route-decl facts for one Next.js handler: channel, trailing-slash form and dynamic scope."""

from __future__ import annotations

from typing import Any
from typing import NamedTuple

from tsograph.exchange.scopes import validate_dynamic_scope
from tsograph.exchange.templates import Part
from tsograph.exchange.templates import canonicalize_segments
from tsograph.producers.lang.facts import Export
from tsograph.producers.routes.next_paths import slash_redirect
from tsograph.producers.routes.next_scan import Scan
from tsograph.producers.routes.next_scan import Settings
from tsograph.producers.routes.next_segments import Route
from tsograph.producers.routes.node.paths.model import PathVariant
from tsograph.producers.routes.route_gaps import route_decl


def _trailing(
    settings: Settings, full: list[list[Part]], route_segments: int, channel: str
) -> tuple[str, str | None]:
    """The channel's trailing-slash form and the trailingSlash value (None: omitted).

    next@16.4.6 lib/load-custom-routes.js: trailingSlash false redirects `/:path+/` (and
    `<basePath>/`) to the form without the slash; true redirects by the last segment (see
    next_paths.slash_redirect) and `<basePath>` to `<basePath>/`; skipTrailingSlashRedirect
    drops the redirects and server/lib/router-utils/filesystem.js matches both forms.
    """
    if settings.trailing_slash is None or settings.skip_redirect is None:
        return channel, None
    if settings.skip_redirect:
        return channel, "optional"
    if not settings.trailing_slash or not full:
        return channel, "strict"
    if not route_segments:
        return channel + "/", "strict"  # the `<basePath>` -> `<basePath>/` redirect
    form = slash_redirect(full)
    if form is None:
        return channel, None
    if form == "none":
        return channel, "optional"
    return (channel + "/" if form == "slash" else channel), "strict"


def _channel(
    settings: Settings, segments: list[list[Part]], mixed: bool
) -> tuple[str, bool, str | None]:
    base: list[list[Part]] = (
        [[part] for part in settings.base_path.split("/")[1:]] if settings.base_path else []
    )
    full: list[list[Part]] = [*base, *segments]
    template = canonicalize_segments(full)
    channel, trailing = _trailing(settings, full, len(segments), template.channel)
    return channel, template.dynamic or mixed, trailing


class _Place(NamedTuple):
    path: str
    line: int
    column: int


def _fact(
    settings: Settings,
    service: str | None,
    channel: str,
    dynamic: bool,
    trailing: str | None,
    method: str,
    path: str,
    line: int,
    column: int,
    qualified: str,
    usr: str | None,
    test: bool,
) -> dict[str, Any]:
    """The route fact the Node and Python emitters write too (route_gaps.route_decl), with
    the trailing-slash form Next.js serves."""
    place = _Place(path, line, column)
    handler = (qualified, usr or None)
    variant = PathVariant(channel, dynamic)
    fact = route_decl(method, variant, place, handler, settings.base_known, service, test)
    if trailing is not None:
        fact["trailingSlash"] = trailing
    return fact


def emit_route(
    scan: Scan,
    settings: Settings,
    service: str | None,
    route: Route,
    method: str,
    path: str,
    export: Export,
    usr: str | None,
    test: bool,
) -> None:
    name = "default" if export.kind in ("equals", "commonjs") else export.name
    qualified = f"{path}#{name}"
    channel, dynamic, trailing = _channel(settings, route.segments, route.mixed)
    args = (method, path, export.line, export.column, qualified, usr, test)
    scan.facts.append(
        _scoped(settings, route, _fact(settings, service, channel, dynamic, trailing, *args))
    )
    if route.optional_catch_all:
        prefix_channel, prefix_dynamic, prefix_trailing = _channel(
            settings, route.segments[:-1], route.mixed
        )
        fact = _fact(settings, service, prefix_channel, prefix_dynamic, prefix_trailing, *args)
        if usr:
            fact["catchAllPrefix"] = True
        scan.facts.append(_scoped(settings, route, fact))


def _scoped(settings: Settings, route: Route, fact: dict[str, Any]) -> dict[str, Any]:
    """A dynamic fact with the literal segments before its first hole as its dynamicScope.

    A Next.js route only answers below its folder path, so basePath plus the literal
    folders in front of the mixed segment bound what it can serve.
    """
    if not fact["dynamic"]:
        return fact
    literal: list[list[Part]] = [[part] for part in settings.base_path.split("/")[1:] if part]
    for segment in route.segments:
        if not all(isinstance(part, str) for part in segment):
            break
        literal.append(segment)
    if literal:
        scope = canonicalize_segments(literal)
        candidate = {**fact, "dynamicScope": scope.channel}
        if not scope.dynamic and validate_dynamic_scope(candidate) is None:
            return candidate
    return fact

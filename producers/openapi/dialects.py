"""Which version a spec is, and what that version allows in a path item.

Swagger 2.0 and OpenAPI 3.x differ in what tsograph reads: the method keys
(`trace` exists only in 3.x), the other fields a path item may hold, and where
the path prefix comes from (`basePath` in 2.0, `servers` in 3.x). OpenAPI 3.0
and 3.1 read the same for routes: 3.1 adds `webhooks`, which are requests the
service sends, and `components.pathItems`, which is only a `$ref` target.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tsograph.exchange.errors import InputError
from tsograph.producers.openapi.tree import SpecMap
from tsograph.producers.openapi.tree import scalar_text


@dataclass(frozen=True)
class Dialect:
    # Operation keys, case-sensitive: `GET` is an unknown field, not an operation.
    methods: tuple[str, ...]
    # Path-item fields that are not operations (extensions `x-…` are always allowed).
    other_fields: frozenset[str]
    # True when prefixes come from `servers` (3.x), False for `basePath` (2.0).
    uses_servers: bool


SWAGGER_2 = Dialect(
    methods=("get", "put", "post", "delete", "options", "head", "patch"),
    other_fields=frozenset({"$ref", "parameters"}),
    uses_servers=False,
)
OPENAPI_3 = Dialect(
    methods=("get", "put", "post", "delete", "options", "head", "patch", "trace"),
    other_fields=frozenset({"$ref", "summary", "description", "servers", "parameters"}),
    uses_servers=True,
)

_OPENAPI_VERSION = re.compile(r"3\.[01]\.[0-9]+(?:-[0-9A-Za-z.-]+)?")
_SUPPORTED = 'swagger: "2.0", or openapi: 3.0.x or 3.1.x'


def detect(root: SpecMap, name: str) -> Dialect:
    """The dialect a spec declares; anything else is not a spec tsograph reads."""
    swagger = root.get("swagger")
    openapi = root.get("openapi")
    if swagger is not None and openapi is not None:
        raise InputError(
            f"{name}: declares both swagger and openapi versions; keep the one that applies"
        )
    # A YAML spec may write the version unquoted (swagger: 2.0); its text still decides.
    if swagger is not None and scalar_text(swagger) == "2.0":
        return SWAGGER_2
    if openapi is not None and _OPENAPI_VERSION.fullmatch(scalar_text(openapi) or ""):
        return OPENAPI_3
    raise InputError(
        f"{name}: does not declare a supported version ({_SUPPORTED}); "
        "pass a Swagger 2.0 or OpenAPI 3.0/3.1 spec"
    )

"""Which package exports are request clients, and which calls make new client instances: data.

The evaluator (static_values.py) asks these tables instead of naming libraries
in code, so proving one more client library is one more row: which package exports
are clients is a row of the shared table (producers/values/provenance.py), which
client methods make instances is INSTANCE_FACTORIES here.

Read from the packages: axios@1.21.1 (lib/axios.js: the default export, also
`module.exports` for CommonJS, is the request function; `axios.create(config)`
returns an instance whose defaults are mergeConfig(axios.defaults, config));
ky@1.14.3 and ky@2.1.0 (distribution/index.js: the default export is the
request function, an ES module only; `ky.create(options)` starts from no
defaults, `ky.extend(options)` merges into the instance's own, and a function
`extend(fn)` computes the options at run time).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tsograph.producers.values import provenance

# The generator of the SDKs routes/client/heyapi.py reads (a dependency that makes a client).
HEY_API_PACKAGE = "@hey-api/openapi-ts"

Library = Literal["fetch", "axios", "ky"]
LIBRARIES: tuple[Library, ...] = ("fetch", "axios", "ky")


def client_export(package: str, export: str) -> Library | None:
    """The client library a package export is (the shared provenance table decides);
    `export` is `""` for what `require(package)` returns."""
    kind = provenance.kind_of(package, export, "value")
    for library in LIBRARIES:
        if kind == library:
            return library
    return None


@dataclass(frozen=True)
class Factory:
    """A client method whose call constructs a new instance of the same library."""

    inherits: bool  # the new instance starts from the receiver's defaults (else from none)
    options_may_compute: bool = False  # a function argument computes the options at run time


# (library, method called on a client) -> how the instance it returns is made.
INSTANCE_FACTORIES: dict[tuple[Library, str], Factory] = {
    ("axios", "create"): Factory(inherits=True),
    ("ky", "create"): Factory(inherits=False),
    ("ky", "extend"): Factory(inherits=True, options_may_compute=True),
}

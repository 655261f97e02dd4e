"""The origin an absolute request URL names, serialized as the WHATWG URL parser does.

A request to `https://api.github.com/repos/x` goes to another service than
the scanned one, so its route-call fact carries that origin as its `service`
(scheme://host[:port], what `new URL(url).origin` gives) and never joins
with the routes of the `--service` the client was scanned for.

The host rules are those of the WHATWG URL standard for the special schemes
http and https, checked against Node 20's `new URL` and real fetch, axios
1.21.1 and ky 1.14.3/2.1.0 requests (conformance/client-url-origins.json,
recorded by oracle/client/origins.mjs):

* the scheme and an ASCII domain are lowercased; a trailing dot stays;
* userinfo (`user:token@`) is dropped: an origin never holds it;
* a host that ends in a number is an IPv4 address in any of the legacy
  spellings (`0x7f.1`, `2130706433`, `0177.0.0.1`, `127.1`) and is written
  dotted-decimal; IPv6 is written compressed in lowercase, brackets kept;
* the port loses its leading zeros and is elided when it is the scheme's
  default (80 for http, 443 for https);
* a URL the parser rejects (bad IPv4, port over 65535, forbidden host code
  point, empty host) throws before any request is sent.

Hosts that need IDNA processing (non-ASCII, percent-encoded or `xn--`
labels) are not converted here: UTS #46 is not reimplemented, so such a
request is counted instead of being given a possibly wrong origin. A
protocol-relative URL (`//host/x`) takes the page's scheme, which is not
known statically: its service is `//host[:port]`, port written as given.
A host label that looks like a credential (urls.looks_secret) is written
`{}` so no token reaches a document.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable
from dataclasses import dataclass

_DEFAULT_PORTS = {"http": "80", "https": "443"}
# WHATWG forbidden domain code points (ASCII part): C0 controls, space,
# # % / : < > ? @ [ \ ] ^ | and DEL.
_FORBIDDEN = re.compile(r"[\x00-\x20#%/:<>?@\[\\\]^|\x7f]")
_HEX = re.compile(r"^[0-9a-fA-F]*$")
_OCTAL = re.compile(r"^[0-7]*$")
_DIGITS = re.compile(r"^[0-9]+$")


class Rejected(Exception):
    """The URL parser rejects the URL: fetch, axios and ky throw before sending."""


class Unconverted(Exception):
    """The host needs IDNA processing, which tsograph does not reproduce."""


@dataclass(frozen=True)
class Origin:
    service: str
    masked: int = 0  # host labels written `{}`


def origin_of(scheme: str | None, authority: str, looks_secret: Callable[[str], bool]) -> Origin:
    """The origin of `scheme://authority` (scheme None: protocol-relative).

    `authority` holds no hole; `looks_secret(label) -> bool` decides masking.
    """
    hostport = authority[authority.rfind("@") + 1 :]
    host, port = _split_port(hostport)
    if host.startswith("["):
        name, masked = "[" + _ipv6(host) + "]", 0
    else:
        name, masked = _host(host, looks_secret)
    port = _port(port)
    if scheme is None:
        return Origin("//" + name + (":" + port if port else ""), masked)
    if port == _DEFAULT_PORTS[scheme]:
        port = ""
    return Origin(scheme + "://" + name + (":" + port if port else ""), masked)


def _split_port(hostport: str) -> tuple[str, str | None]:
    if hostport.startswith("["):
        close = hostport.find("]")
        if close < 0:
            raise Rejected("unclosed IPv6 address")
        rest = hostport[close + 1 :]
        if rest and not rest.startswith(":"):
            raise Rejected("text after an IPv6 address")
        return hostport[: close + 1], rest[1:] if rest else None
    host, colon, port = hostport.partition(":")
    return host, port if colon else None


def _port(port: str | None) -> str:
    if not port:
        return ""
    if not _DIGITS.match(port) or int(port) > 65535:
        raise Rejected("invalid port")
    return str(int(port))


def _host(host: str, looks_secret: Callable[[str], bool]) -> tuple[str, int]:
    if not host:
        raise Rejected("empty host")
    if not host.isascii() or "%" in host:
        raise Unconverted("non-ASCII or percent-encoded host")
    lowered = host.lower()
    labels = lowered.split(".")
    if any(label.startswith("xn--") for label in labels):
        raise Unconverted("punycode label")
    if _FORBIDDEN.search(lowered):
        raise Rejected("forbidden host code point")
    if _ends_in_number(labels):
        return _ipv4(labels), 0
    written = [
        "{}" if looks_secret(raw) else label
        for raw, label in zip(host.split("."), labels, strict=True)
    ]
    return ".".join(written), sum(1 for label in written if label == "{}")


def _ends_in_number(labels: list[str]) -> bool:
    if labels[-1] == "" and len(labels) > 1:
        labels = labels[:-1]
    last = labels[-1]
    return bool(_DIGITS.match(last)) or _ipv4_number(last) is not None


def _ipv4_number(part: str) -> int | None:
    if not part:
        return None
    if part[:2] in ("0x", "0X"):
        digits = part[2:]
        return int(digits or "0", 16) if _HEX.match(digits) else None
    if len(part) > 1 and part.startswith("0"):
        return int(part[1:], 8) if _OCTAL.match(part[1:]) else None
    return int(part) if _DIGITS.match(part) else None


def _ipv4(labels: list[str]) -> str:
    if labels[-1] == "" and len(labels) > 1:
        labels = labels[:-1]
    if len(labels) > 4:
        raise Rejected("more than four IPv4 parts")
    numbers = [_ipv4_number(label) for label in labels]
    if any(number is None for number in numbers):
        raise Rejected("IPv4 part that is not a number")
    values = [number for number in numbers if number is not None]
    if any(value > 255 for value in values[:-1]) or values[-1] >= 256 ** (5 - len(values)):
        raise Rejected("IPv4 part out of range")
    address = values[-1]
    for index, value in enumerate(values[:-1]):
        address += value * 256 ** (3 - index)
    return ".".join(str((address >> shift) & 255) for shift in (24, 16, 8, 0))


def _ipv6(bracketed: str) -> str:
    if "%" in bracketed:
        raise Rejected("zone identifier")  # Python accepts `%zone`, the URL parser does not
    try:
        packed = ipaddress.IPv6Address(bracketed[1:-1]).packed
    except ValueError:
        raise Rejected("invalid IPv6 address") from None
    pieces = [int.from_bytes(packed[index : index + 2], "big") for index in range(0, 16, 2)]
    # WHATWG: compress the first longest run of two or more zero pieces.
    best_start, best_length, start = -1, 1, -1
    for index, piece in enumerate([*pieces, 1]):
        if piece == 0 and start < 0:
            start = index
        elif piece != 0 and start >= 0:
            if index - start > best_length:
                best_start, best_length = start, index - start
            start = -1
    if best_start < 0:
        return ":".join(f"{piece:x}" for piece in pieces)
    head = ":".join(f"{piece:x}" for piece in pieces[:best_start])
    tail = ":".join(f"{piece:x}" for piece in pieces[best_start + best_length :])
    return head + "::" + tail

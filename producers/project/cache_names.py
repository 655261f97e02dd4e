"""The names of cache namespaces: what made a cached entry, so a changed maker misses the cache."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from tsograph.exchange.version import TOOL_VERSION
from tsograph.producers.lang.facts import FACTS_VERSION


@functools.cache
def grammar_version() -> str:
    # Reading package metadata costs milliseconds a call and every run of a query
    # server or a test asks several times; the installed grammars do not change under it.
    # importlib.metadata is imported here: about 50 ms that a warm run does not need.
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version

    try:
        return version("tree-sitter-language-pack") + "/" + version("tree-sitter")
    except PackageNotFoundError:
        return "unknown"


@functools.cache
def code_digest(folders: tuple[str, ...]) -> str:
    """A digest of the code in some folders of `producers/`.

    Cached facts and graphs are only as good as the code that made them; the
    digest makes a changed extractor or builder miss the cache even when
    nobody remembered to bump FACTS_VERSION.
    """
    digest = hashlib.sha256()
    package = Path(__file__).resolve().parents[1]  # producers/
    for folder in folders:
        for source in sorted((package / folder).rglob("*.py")):
            digest.update(source.relative_to(package).as_posix().encode())
            digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


def cache_namespace() -> str:
    """The namespace of cached per-file facts: the front end's code decides them."""
    return (
        f"tsograph {TOOL_VERSION} facts {FACTS_VERSION} grammars {grammar_version()} "
        f"code {code_digest(('lang',))}"
    )

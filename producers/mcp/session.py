"""One MCP session: one repository, one held build, the recent answers for cursor paging.

Nothing is read until the first question; it builds the graph (through the
same caches as `tsograph graph`) and the session holds that build until
graph_refresh moves to a new one. At most once a second a question checks
whether a file the build read changed since (the walked sources and the
folders above them by size and modification time, and the configuration
files a fresh build recorded);
`graph.freshness.laterEditsKnown` then turns true and stays so until a
refresh. Arguments are checked before anything is read: a path that is
absolute or has a `..` part, another repository or a build this session does
not hold is refused.

Every question runs through questions.ask and answer.answer, exactly as
`query --json`. The 32 most recent complete lists are kept, so a cursor
reads the next page without walking again.
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from tsograph.exchange.errors import ToolError
from tsograph.producers.graph.model import EVIDENCE_ORDER
from tsograph.producers.graph.project_graph import load_project_graph
from tsograph.producers.graph.python.load import LANGUAGES
from tsograph.producers.project.fsread import Dependency, still_holds
from tsograph.producers.project.walk import walk
from tsograph.producers.query.answer import (
    DEFAULT_LIMIT,
    MAX_LIMIT,
    Page,
    answer,
    error_answer,
    read_cursor,
    request_key,
)
from tsograph.producers.query.budget import DEFAULT_BUDGET_MS, MAX_BUDGET_MS, Budget, Clock
from tsograph.producers.query.held import HeldGraph
from tsograph.producers.query.load import hold
from tsograph.producers.query.questions import (
    MAX_DEPTH,
    QUESTIONS,
    Refused,
    Request,
    Result,
    ask,
)
from tsograph.producers.query.targets import target_path, unsafe_path

KEPT_ANSWERS = 32
FRESHNESS_SECONDS = 1.0

Fingerprint = tuple[tuple[str, int, int], ...]


class GraphSession:
    def __init__(
        self,
        repo: Path,
        *,
        cache_dir: str | None = None,
        use_cache: bool = True,
        clock: Clock = time.monotonic,
    ) -> None:
        self.repo = repo
        self._cache_dir = cache_dir
        self._use_cache = use_cache
        self._clock = clock
        # One held build per language asked (js, python); most repositories hold one.
        self._helds: dict[str, HeldGraph] = {}
        self._default_language: str | None = None
        self._fingerprint: Fingerprint = ()
        self._watched: list[str] = []
        self._dependencies: list[Dependency] = []
        self._checked_at = float("-inf")
        self._later_edits = False
        self._answers: OrderedDict[tuple[str, str], Result] = OrderedDict()
        self._lock = threading.Lock()  # one build at a time, questions in order
        self.builds = 0  # how many builds this session made (for tests and status)
        self.walks = 0  # how many questions walked the graph

    # -- the held build -------------------------------------------------------

    def _build(self, language: str) -> HeldGraph:
        loaded = load_project_graph(
            str(self.repo),
            cache_dir=self._cache_dir,
            use_cache=self._use_cache,
            language=language,
        )
        held = hold(loaded)
        held.later_edits = self._changed_since
        if not self._helds:
            # The first build of the session (or of a refresh) takes the fingerprint.
            self._fingerprint = self._take_fingerprint()
            self._dependencies = []
            self._later_edits = False
            self._checked_at = self._clock()
        self._dependencies.extend(loaded.dependencies)
        self._helds[language] = held
        self.builds += 1
        return held

    def language(self, asked: str | None) -> str:
        """The language asked, else the one the repository holds (js when it holds both)."""
        if asked is not None:
            return asked
        if self._default_language is None:
            found = walk(self.repo)
            self._default_language = (
                "python" if found.python_sources and not found.sources else "js"
            )
        return self._default_language

    def held(self, language: str | None = None) -> HeldGraph:
        chosen = self.language(language)
        held = self._helds.get(chosen)
        return held if held is not None else self._build(chosen)

    def refresh(self, language: str | None = None) -> HeldGraph:
        chosen = self.language(language)
        self._helds.clear()
        self._answers.clear()
        return self._build(chosen)

    @property
    def _held(self) -> HeldGraph | None:
        """The held build answers of a failed question name (the default language's)."""
        if self._default_language is None:
            return None
        return self._helds.get(self._default_language)

    def _take_fingerprint(self) -> Fingerprint:
        """Size and modification time of every walked file and of each folder above one.

        A folder's modification time changes when an entry is added, removed or
        renamed in it, so a new source next to a read one is seen without walking
        the tree again (a walk of a large repository takes longer than an answer).
        """
        found = walk(self.repo)
        files = [
            item.path for item in (*found.sources, *found.python_sources, *found.declaration_files)
        ]
        folders = {""}
        for path in files:
            parent = os.path.dirname(path)
            while parent not in folders:
                folders.add(parent)
                parent = os.path.dirname(parent)
        self._watched = sorted({*files, *folders})
        return self._stat_watched()

    def _stat_watched(self) -> Fingerprint:
        stamps = []
        for path in self._watched:
            try:
                info = os.stat(self.repo / path)
            except OSError:
                stamps.append((path, -1, -1))
                continue
            stamps.append((path, info.st_size, info.st_mtime_ns))
        return tuple(stamps)

    def _changed_since(self) -> bool:
        if self._later_edits:
            return True
        now = self._clock()
        if now - self._checked_at < FRESHNESS_SECONDS:
            return False
        self._checked_at = now
        self._later_edits = self._stat_watched() != self._fingerprint or not still_holds(
            self.repo, self._dependencies
        )
        return self._later_edits

    # -- questions ------------------------------------------------------------

    def call(
        self, tool: str, arguments: Mapping[str, Any], cancelled: Callable[[], bool] | None = None
    ) -> tuple[dict[str, Any], bool]:
        """The answer document of a tool call, and whether it is a tool error."""
        question = tool.removeprefix("graph_")
        with self._lock:
            try:
                request, page, budget_ms = request_of(question, arguments)
                language = arguments.get("language")
                if language is not None and language not in LANGUAGES:
                    raise Refused("bad-request", f"language takes {', '.join(LANGUAGES)}")
            except Refused as refusal:
                return error_answer(None, question, refusal), True
            try:
                held = self.refresh(language) if question == "refresh" else self.held(language)
                if question == "refresh":
                    request = Request("status")
                generation = arguments.get("generation")
                if generation is not None and generation != held.build:
                    raise Refused(
                        "unknown-build",
                        f"generation {generation!r} is not the build this session holds "
                        f"({held.build}); leave it out or call graph_refresh",
                    )
                result = self._result(held, request, page, budget_ms, cancelled)
                return answer(held, request, result, page), False
            except Refused as refusal:
                return error_answer(self._held, question, refusal), True
            except ToolError as error:
                failed = Refused("build-failed", error.message.splitlines()[0])
                return error_answer(self._held, question, failed), True

    def _result(
        self,
        held: HeldGraph,
        request: Request,
        page: Page,
        budget_ms: int,
        cancelled: Callable[[], bool] | None,
    ) -> Result:
        key = (request_key(request), held.build)
        if page.cursor is not None:
            read_cursor(page.cursor, request, held.build)
            kept = self._answers.get(key)
            if kept is not None:
                self._answers.move_to_end(key)
                return kept
        self.walks += 1
        result = ask(held, request, Budget(budget_ms, cancelled=cancelled))
        if result.unexpanded is None:
            self._answers[key] = result
            self._answers.move_to_end(key)
            while len(self._answers) > KEPT_ANSWERS:
                self._answers.popitem(last=False)
        return result


def _text(arguments: Mapping[str, Any], name: str) -> str | None:
    value = arguments.get(name)
    if value is None:
        return None
    if not isinstance(value, str) or not value:
        raise Refused("bad-request", f"{name} must be a non-empty string")
    return value


def _whole(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Refused("bad-request", f"{name} must be a whole number from {low} to {high}")
    return value


def request_of(question: str, arguments: Mapping[str, Any]) -> tuple[Request, Page, int]:
    """A tool call's request, checked before anything is read."""
    if question not in QUESTIONS and question != "refresh":
        raise Refused("bad-request", f"no tool graph_{question}")
    repo = arguments.get("repo")
    if repo is not None and repo != ".":
        raise Refused(
            "outside-repository",
            "this server answers for one repository; leave repo out (or give '.')",
        )
    symbol = _text(arguments, "symbol")
    file = _text(arguments, "file")
    identifier = _text(arguments, "id")
    to = _text(arguments, "to")
    name = _text(arguments, "name")
    text = _text(arguments, "text")
    for value in (symbol, to, identifier, file):
        path = file if value is file else target_path(value) if value else None
        refusal = unsafe_path(path) if path else None
        if refusal:
            raise Refused("outside-repository", refusal)
    target: str | None
    if question in ("outline", "importers"):
        target, file = file or symbol, None
    elif question == "search":
        target = text or symbol
    elif question == "unknowns":
        target = name or symbol
    else:
        target = identifier or symbol
    depth = arguments.get("depth")
    if depth is not None:
        depth = _whole(depth, "depth", 1, MAX_DEPTH.get(question, 0) or 1)
        if question not in MAX_DEPTH:
            raise Refused("bad-request", f"depth does not apply to graph_{question}")
    tiers: tuple[str, ...] = EVIDENCE_ORDER
    if arguments.get("tier") is not None:
        raw = arguments["tier"]
        asked = raw.split(",") if isinstance(raw, str) else raw
        if not isinstance(asked, list) or not asked or any(t not in EVIDENCE_ORDER for t in asked):
            raise Refused("bad-request", f"tier takes {', '.join(EVIDENCE_ORDER)}")
        tiers = tuple(tier for tier in EVIDENCE_ORDER if tier in asked)
    edges = arguments.get("edges")
    if edges is not None:
        edges = tuple(edges.split(",") if isinstance(edges, str) else edges)
    budget = arguments.get("budget") or {}
    if not isinstance(budget, Mapping):
        raise Refused("bad-request", "budget is an object with items, tokens and ms")
    limit = arguments.get("limit", budget.get("items", DEFAULT_LIMIT))
    tokens = budget.get("tokens")
    request = Request(
        question,
        target=target,
        to=to,
        file=file,
        depth=depth,
        tiers=tiers,
        edges=edges,
        level=arguments.get("level") or "files",
        text=text if question == "routes" else None,
        base=_text(arguments, "base"),
    )
    page = Page(
        _whole(limit, "limit", 1, MAX_LIMIT),
        _text(arguments, "cursor"),
        _whole(tokens, "budget.tokens", 1, 10**9) if tokens is not None else None,
    )
    budget_ms = _whole(budget.get("ms", DEFAULT_BUDGET_MS), "budget.ms", 1, MAX_BUDGET_MS)
    return request, page, budget_ms

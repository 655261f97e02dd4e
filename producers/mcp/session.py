"""One MCP session: one repository, one held build, the recent answers for cursor paging.

Nothing is read until the first question; it reaches a build through
query/keep.py (the current kept build of the cache while every file it read
still holds, else a new build, kept in turn) and the session holds it, with
a lease in the cache, until graph_refresh moves to the build the work tree
has now, or the client disconnects and the lease is released. At most once
a second a question compares the build's read-set with the disk (sizes and
modification times first, contents where those moved); `graph.freshness.
laterEditsKnown` then turns true and stays so until a refresh. When the
client sent a progress token, a build reports the files parsed of the files
to parse. Arguments are checked before anything is read: a path that is
absolute or has a `..` part, another repository or a build this session does
not hold is refused.

Every question runs through questions.ask and answer.answer, exactly as
`query --json`. The 32 most recent complete lists are kept, so a cursor
reads the next page without walking again.
"""

from __future__ import annotations

import gc
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tsograph.exchange.errors import ToolError
from tsograph.exchange.errors import UsageError
from tsograph.producers import progress
from tsograph.producers.graph.model import EVIDENCE_ORDER
from tsograph.producers.graph.options import GraphOptions
from tsograph.producers.graph.project_graph import PARSING
from tsograph.producers.project.languages import LANGUAGES
from tsograph.producers.query.answer import DEFAULT_LIMIT
from tsograph.producers.query.answer import MAX_LIMIT
from tsograph.producers.query.answer import Page
from tsograph.producers.query.answer import answer
from tsograph.producers.query.answer import error_answer
from tsograph.producers.query.answer import read_cursor
from tsograph.producers.query.answer import request_key
from tsograph.producers.query.base_side import BaseSide
from tsograph.producers.query.base_side import folder_loader
from tsograph.producers.query.base_side import read_base
from tsograph.producers.query.budget import DEFAULT_BUDGET_MS
from tsograph.producers.query.budget import MAX_BUDGET_MS
from tsograph.producers.query.budget import Budget
from tsograph.producers.query.budget import Clock
from tsograph.producers.query.held import HeldGraph
from tsograph.producers.query.keep import Keeper
from tsograph.producers.query.questions import MAX_DEPTH
from tsograph.producers.query.questions import QUESTIONS
from tsograph.producers.query.questions import Refused
from tsograph.producers.query.questions import Request
from tsograph.producers.query.questions import Result
from tsograph.producers.query.questions import ask
from tsograph.producers.query.targets import target_path
from tsograph.producers.query.targets import unsafe_path

KEPT_ANSWERS = 32
KEPT_BASES = 4  # base versions read for --base questions, most recent first
FRESHNESS_SECONDS = 1.0

AUTO = "auto"
# Where a build's progress goes: (files parsed, files to parse, phase).
Report = Callable[[int, int | None, str], None]


class BuildProgress:
    """The build's parsing of sources as progress of one question: a notification per
    parsed file, counting up to the files to parse. Only the graph's own parsing phase
    counts (later readers reuse its facts, and a count that starts again would go back)."""

    def __init__(self, report: Report | None) -> None:
        self.report = report
        self.name = ""
        self.total: int | None = None
        self.done = 0
        self.parsed = False  # the graph's parsing phase is over

    def phase(self, name: str, total: int | None = None) -> None:
        self.parsed = self.parsed or self.name == PARSING
        self.name, self.total, self.done = name, total, 0

    def advance(self, count: int = 1) -> None:
        self.done += count
        if self.report is not None and self.name == PARSING and not self.parsed:
            self.report(self.done, self.total, self.name)

    def clear(self) -> None:
        return None


class GraphSession:
    def __init__(
        self,
        repo: Path,
        *,
        cache_dir: str | None = None,
        use_cache: bool = True,
        kept_mb: int | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        self.repo = repo
        self._cache_dir = cache_dir
        self._use_cache = use_cache
        self._kept_mb = kept_mb
        self._clock = clock
        # One held build per language asked (js, python, or AUTO: the one the repository
        # holds); most sessions hold one. Each keeper leases its build in the cache.
        self._helds: dict[str, HeldGraph] = {}
        self._keepers: dict[str, Keeper] = {}
        self._default_language: str | None = None
        self._checked_at = float("-inf")
        self._later_edits = False
        self._answers: OrderedDict[tuple[str, str], Result] = OrderedDict()
        self._bases: OrderedDict[tuple[str, str], BaseSide] = OrderedDict()
        self._lock = threading.Lock()  # one build at a time, questions in order
        self.builds = 0  # how many builds this session made (for tests and status)
        self.walks = 0  # how many questions walked the graph

    # -- the held build -------------------------------------------------------

    def _keeper(self, language: str) -> Keeper:
        keeper = self._keepers.get(language)
        if keeper is None:
            options = GraphOptions(
                str(self.repo),
                cache_dir=self._cache_dir,
                use_cache=self._use_cache,
                language=None if language == AUTO else language,
                kept_mb=self._kept_mb,
            )
            keeper = self._keepers[language] = Keeper(options, refreshes=True)
        return keeper

    def _build(self, language: str, report: Report | None) -> HeldGraph:
        """The one way this session reaches a build: the first question of a language and
        graph_refresh alike (keep.Keeper reuses the kept build while its read-set holds)."""
        # The builds held before are let go (a refresh): collectable again, see below.
        gc.unfreeze()
        try:
            with progress.reporting(BuildProgress(report)):
                held = self._keeper(language).held()
        except UsageError:
            if language != AUTO:
                raise
            # Both languages in the repository: js unless a question asks for python.
            self._default_language = "js"
            return self._build("js", report)
        held.later_edits = self._changed_since
        if not self._helds:
            # The first build of the session (or of a refresh) starts the freshness clock.
            self._later_edits = False
            self._checked_at = self._clock()
        self._helds[language] = held
        self.builds += 1
        # The held build lives for the session: out of the collector's sight, so a
        # collection during a question does not walk its millions of objects again.
        gc.freeze()
        return held

    def language(self, asked: str | None) -> str:
        """The language asked, else the one the repository holds (js when it holds both)."""
        return asked or self._default_language or AUTO

    def held(self, language: str | None = None, report: Report | None = None) -> HeldGraph:
        chosen = self.language(language)
        held = self._helds.get(chosen)
        return held if held is not None else self._build(chosen, report)

    def refresh(self, language: str | None = None, report: Report | None = None) -> HeldGraph:
        chosen = self.language(language)
        self._helds.clear()
        self._answers.clear()
        return self._build(chosen, report)

    def close(self) -> None:
        """Let go of every held build (the client disconnected)."""
        for keeper in self._keepers.values():
            keeper.release()
        self._helds.clear()

    def _base_of(self, held: HeldGraph) -> Callable[[str], BaseSide]:
        """The base side of a --base question on the held build, read once per ref."""

        def base(ref: str) -> BaseSide:
            key = (ref, held.build)
            side = self._bases.get(key)
            if side is None:
                options = GraphOptions(
                    str(self.repo), cache_dir=self._cache_dir, use_cache=self._use_cache
                )
                side = read_base(held, ref, folder_loader(options, held))
                self._bases[key] = side
                while len(self._bases) > KEPT_BASES:
                    self._bases.popitem(last=False)
            return side

        return base

    @property
    def _held(self) -> HeldGraph | None:
        """The held build answers of a failed question name (the default language's)."""
        return self._helds.get(self.language(None))

    def _changed_since(self) -> bool:
        if self._later_edits:
            return True
        now = self._clock()
        if now - self._checked_at < FRESHNESS_SECONDS:
            return False
        self._checked_at = now
        self._later_edits = any(
            self._keepers[language].changed(held) is not None
            for language, held in self._helds.items()
        )
        return self._later_edits

    # -- questions ------------------------------------------------------------

    def call(
        self,
        tool: str,
        arguments: Mapping[str, Any],
        cancelled: Callable[[], bool] | None = None,
        report: Report | None = None,
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
                held = (
                    self.refresh(language, report)
                    if question == "refresh"
                    else self.held(language, report)
                )
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
                document = answer(held, request, result, page)
                # A build from a kept build or the graph cache: bind what a refresh starts
                # from in the background now, so the first refresh is incremental too.
                for keeper in self._keepers.values():
                    keeper.prepare()
                return document, False
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
        result = ask(held, request, Budget(budget_ms, cancelled=cancelled), self._base_of(held))
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

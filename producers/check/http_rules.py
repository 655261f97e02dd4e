"""The HTTP joins: calls against declarations, declarations against contracts, shadowed routes.

Documents are grouped by service: a fact's `service`, else its document's.
A call goes to the service its fact names (a relative call carries the
`--service` of `routes --role client`, a call to another origin that origin),
so it is checked only against server documents of that service: against the
service's route declarations, or, when no declaration document of the service
was given, against its contract (the published interface stands in for the
server). A call to a service with no server document is not judged; the
report counts it. Facts from test sources (`testSource: true`) are left out of
every join and counted.

One request (a call, or a contract operation) against one server side:

* answered: some server fact answers it (`channels.Match.YES`, method and
  path) and both are root-anchored and not dynamic: no finding;
* otherwise the other side may exist unseen when the request is `dynamic` or
  `base`-anchored, when a server fact may answer it (a hole, a dynamic
  declaration inside its `dynamicScope` or without one, a `base` declaration
  whose path can end the request's, a trailing slash or case it does not
  prove), or when a limitation of a server document applies to it: a
  limitation without a `limitationScopes` entry applies to every request, a
  scoped one only inside one of its scopes (`exchange.scopes.scope_applies`).
  Then the finding is the `-unverified` form, with those reasons;
* with none of these it is the plain verdict.

The two contract limitations the spec calls informational
(`unsafe-operation-ids:`, `duplicate-mapping-keys:`) hide no operation and
are not gaps; every other server-side limitation is one, as the spec reads
them.

Shadowed routes: in a `registration-order` document the first registration
of a group (`order.group`) that answers a request handles it. A declaration is
`route-decl-shadowed` when an earlier registration of its group (a smaller
`order.index`) with the same method (or `ANY`) answers every request it could
serve: every spelling its trailing-slash flag allows, and every case when it
is case-insensitive. When the earlier one would, but carries
`paramConstraints` or `narrowed` (its constraints or host/version filters may
refuse a request), the finding is `route-decl-shadowed-unverified`.
Specificity routers (Next.js, Fastify) pick the most specific match, which
never hides a different template; equal templates are already resolved by the
producers, so they have no shadowing rule here.
"""

from __future__ import annotations

from collections import Counter
from collections import defaultdict
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from tsograph.exchange.limitations import prefix_of
from tsograph.exchange.scopes import dynamic_scope_applies
from tsograph.exchange.scopes import scope_applies
from tsograph.producers.check.channels import Match
from tsograph.producers.check.channels import ServerFlags
from tsograph.producers.check.channels import channel_match
from tsograph.producers.check.channels import method_match
from tsograph.producers.check.channels import toggled_slash
from tsograph.producers.check.documents import CALL
from tsograph.producers.check.documents import CONTRACT
from tsograph.producers.check.documents import DECL
from tsograph.producers.check.documents import Document
from tsograph.producers.check.findings import Finding
from tsograph.producers.check.findings import Side

INFORMATIONAL = frozenset({"unsafe-operation-ids:", "duplicate-mapping-keys:"})

Fact = Mapping[str, Any]


@dataclass
class Located:
    document: Document
    fact: Fact

    @property
    def side(self) -> Side:
        return Side.of(self.document.name, self.fact)


@dataclass
class Service:
    """The documents and facts of one service, per side."""

    documents: dict[str, list[Document]] = field(default_factory=lambda: defaultdict(list))
    facts: dict[str, list[Located]] = field(default_factory=lambda: defaultdict(list))

    def judge(self, request: Located, noun: str, side: str, *, dispatch: bool) -> Judgement:
        """Whether the facts of `side` answer `request` (see `judge`)."""
        return judge(request.fact, noun, self.facts[side], self.documents[side], dispatch=dispatch)


@dataclass
class HttpResult:
    findings: list[Finding]
    unchecked_calls: Counter[str]  # service (or "" for none) -> calls not judged
    test_facts: int
    answered: int


def _service_of(document: Document, fact: Fact) -> str | None:
    value = fact.get("service")
    return value if isinstance(value, str) else document.service


def _services(documents: Sequence[Document]) -> dict[str | None, Service]:
    services: dict[str | None, Service] = defaultdict(Service)
    for document in documents:
        names = {_service_of(document, fact) for fact in document.facts} or {document.service}
        for name in names | {document.service}:
            if document not in services[name].documents[document.side]:
                services[name].documents[document.side].append(document)
        for fact in document.facts:
            services[_service_of(document, fact)].facts[document.side].append(
                Located(document, fact)
            )
    return services


def _suffix_fits(suffix: str, channel: str) -> bool:
    """Whether `channel` could end with the segments of `suffix` (over-approximated)."""
    return scope_applies({"templateSuffixes": [suffix]}, "ANY", channel)


def _path_relation(server: Fact, request: Fact) -> tuple[Match, str | None]:
    """How the server fact's path relates to the request's, and why it is only MAYBE."""
    noun = "an operation" if server["kind"] == "route-contract" else "a declaration"
    if server["dynamic"]:
        scope = server.get("dynamicScope")
        if scope is None:
            return Match.MAYBE, f"{noun} with a dynamic path may answer it"
        if request["dynamic"] or dynamic_scope_applies(scope, request["channel"]):
            return Match.MAYBE, f"{noun} with a dynamic path under {scope} may answer it"
        return Match.NO, None
    server_base = server["pathAnchor"] == "base"
    request_base = request["pathAnchor"] == "base"
    if server_base or request_base:
        fits = (server_base and _suffix_fits(server["channel"], request["channel"])) or (
            request_base and _suffix_fits(request["channel"], server["channel"])
        )
        if not fits:
            return Match.NO, None
        if not server_base:
            # Only the request's prefix is unknown; `judge` says so in its own reason.
            return Match.MAYBE, f"{noun} may answer it"
        return Match.MAYBE, f"{noun} below an unknown prefix may answer it"
    found = channel_match(server["channel"], ServerFlags.of(server), request["channel"])
    if request["dynamic"]:
        found = min(found, Match.MAYBE)
    return found, (f"{noun} may answer it" if found is Match.MAYBE else None)


def _gap_reasons(documents: Iterable[Document], request: Fact) -> list[str]:
    reasons: list[str] = []
    for document in documents:
        scopes = document.scopes
        for line in document.limitations:
            if prefix_of(line) in INFORMATIONAL:
                continue
            own = [scope for scope in scopes if scope["limitation"] == line]
            if (
                not own
                or request["dynamic"]
                or any(scope_applies(scope, request["method"], request["channel"]) for scope in own)
            ):
                reasons.append(f"{document.name}: {line}")
    return reasons


@dataclass
class Judgement:
    match: Match
    reasons: list[str]
    related: list[Side]


def judge(
    request: Fact,
    noun: str,
    servers: Sequence[Located],
    server_documents: Sequence[Document],
    *,
    dispatch: bool,
) -> Judgement:
    reasons: list[str] = []
    related: list[Side] = []
    if request["dynamic"]:
        reasons.append(f"the {noun}'s path is dynamic")
    if request["pathAnchor"] == "base":
        reasons.append(f"the {noun}'s path has an unknown prefix (pathAnchor base)")
    if request.get("methodDynamic"):
        reasons.append(f"the {noun}'s method is not known")
    for server in servers:
        if server.fact.get("testSource"):
            continue
        method = method_match(server.fact["method"], request["method"], dispatch=dispatch)
        if method is Match.NO:
            continue
        path, why = _path_relation(server.fact, request)
        found = min(method, path)
        if found is Match.YES:
            return Judgement(Match.YES, [], [])
        if found is Match.MAYBE:
            reasons.append(why or "another fact may answer it")
            related.append(server.side)
    reasons.extend(_gap_reasons(server_documents, request))
    return Judgement(Match.MAYBE if reasons else Match.NO, reasons, related)


def _finding(verdict: str, subject: Located, service: str | None, judgement: Judgement) -> Finding:
    name = verdict if judgement.match is Match.NO else verdict + "-unverified"
    return Finding(name, subject.side, service, judgement.reasons, judgement.related)


def check_http(documents: Sequence[Document]) -> HttpResult:
    findings: list[Finding] = []
    unchecked: Counter[str] = Counter()
    tests = 0
    answered = 0
    for name, service in sorted(_services(documents).items(), key=lambda item: item[0] or ""):
        decl_docs, contract_docs = service.documents[DECL], service.documents[CONTRACT]
        server_side = DECL if decl_docs else CONTRACT
        for call in service.facts[CALL]:
            if call.fact.get("testSource"):
                tests += 1
                continue
            if not service.documents[server_side]:
                unchecked[name or ""] += 1
                continue
            judgement = service.judge(call, "call", server_side, dispatch=True)
            if judgement.match is Match.YES:
                answered += 1
            else:
                findings.append(_finding("route-call-without-decl", call, name, judgement))
        if decl_docs and contract_docs:
            findings.extend(_contract_drift(name, service))
        tests += sum(1 for decl in service.facts[DECL] if decl.fact.get("testSource"))
    for document in documents:
        if document.side == DECL and document.content.get("dispatch") == "registration-order":
            findings.extend(_shadowed(document))
    return HttpResult(findings, unchecked, tests, answered)


def _contract_drift(name: str | None, service: Service) -> Iterable[Finding]:
    decls = [d for d in service.facts[DECL] if not d.fact.get("testSource")]
    for operation in service.facts[CONTRACT]:
        judgement = judge(
            operation.fact, "operation", decls, service.documents[DECL], dispatch=True
        )
        if judgement.match is not Match.YES:
            yield _finding("route-contract-without-decl", operation, name, judgement)
    for decl in decls:
        judgement = service.judge(decl, "declaration", CONTRACT, dispatch=False)
        if judgement.match is not Match.YES:
            yield _finding("route-decl-without-contract", decl, name, judgement)


def _spellings(fact: Fact) -> list[str]:
    """Every path spelling a declaration serves: both trailing-slash forms when optional."""
    channel = fact["channel"]
    other = toggled_slash(channel)
    return [channel, other] if other and fact.get("trailingSlash") == "optional" else [channel]


def _covers_all(earlier: Fact, later: Fact) -> bool:
    if later.get("caseInsensitive") and not earlier.get("caseInsensitive"):
        return False
    flags = ServerFlags.of(earlier)
    relaxed = ServerFlags(flags.case_insensitive, flags.trailing_slash, None)
    return all(
        channel_match(earlier["channel"], relaxed, spelling) is Match.YES
        for spelling in _spellings(later)
    )


def _shadowable(fact: Fact) -> bool:
    return (
        "order" in fact
        and not fact["dynamic"]
        and fact["pathAnchor"] == "root"
        and not fact.get("testSource")
    )


def _shadowed(document: Document) -> Iterable[Finding]:
    groups: dict[str, list[Fact]] = defaultdict(list)
    for fact in document.facts:
        if _shadowable(fact):
            groups[fact["order"]["group"]].append(fact)
    for facts in groups.values():
        for later in facts:
            shadows = [
                earlier
                for earlier in facts
                if earlier["order"]["index"] < later["order"]["index"]
                and earlier["method"] in (later["method"], "ANY")
                and _covers_all(earlier, later)
            ]
            if not shadows:
                continue
            certain = [s for s in shadows if "paramConstraints" not in s and "narrowed" not in s]
            verdict = "route-decl-shadowed" if certain else "route-decl-shadowed-unverified"
            reasons = (
                []
                if certain
                else ["the earlier registration has parameter constraints or request filters"]
            )
            related = [Side.of(document.name, s) for s in (certain or shadows)]
            yield Finding(
                verdict,
                Side.of(document.name, later),
                later.get("service") or document.service,
                reasons,
                related,
            )

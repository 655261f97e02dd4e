"""One sentence per limitation prefix: what the gap means and what a user can do about it.

The `--format text` readings print it under each limitation line. The
sentences explain the prefix, never the count: the line itself says how many
and, where the spec allows names, which. tests/text_format/test_limitation_notes.py
checks that every prefix of exchange.limitations has a note, so a new prefix
cannot reach a text reading unexplained. docs/limitations.md quotes each
sentence under its prefix with the cause, what to change and how consumers
read the line; tests/text_format/test_limitations_doc.py keeps the two equal.
"""

from __future__ import annotations

NOTES: dict[str, str] = {
    # tsograph openapi
    "contract-coverage:": (
        "Parts of the spec were skipped or folded (broken $refs, keys that are not paths, "
        "dynamic templates); fix the spec where the line points, or accept that those "
        "operations are not in the contract."
    ),
    "unresolved-contract-servers:": (
        "A server URL has an open variable or a relative form, so its operations are "
        "anchored at an unknown base; give the variable an enum or write the server as an "
        "absolute path."
    ),
    "unsafe-operation-ids:": (
        "Some operationIds hold control characters or are too long and were left out; the "
        "operations are still facts, rename the ids if you want them shown."
    ),
    "duplicate-mapping-keys:": (
        "The spec repeats keys where no fact is read and the first one was used; remove the "
        "duplicates to keep other tools from reading the spec differently."
    ),
    # tsograph routes --role server
    "route-coverage:": (
        "Routes exist that tsograph does not model or cannot express (unmodelled routing "
        "packages, methods without a contract name, unreadable exports); those routes are "
        "missing from the document, so check them by hand or rewrite them in a modelled form."
    ),
    "unresolved-route-prefix:": (
        "A mount or base path could not be evaluated, so the routes below it carry only the "
        "proven suffix (pathAnchor base); make the prefix a literal or a const to anchor them."
    ),
    "framework-provided-routes:": (
        "The framework serves paths by itself (static files, rewrites, middleware, sub-apps "
        "from packages) that are not route facts; a consumer should not report calls to "
        "them as missing."
    ),
    "route-framework-version-unknown:": (
        "No lockfile or exact range proves the framework's major version (or Next.js is on "
        "another major than 16), so the newest rules were used; commit the lockfile or pin "
        "the dependency."
    ),
    "missing-route-usrs:": (
        "Some handlers have no graph id (CommonJS exports), so traversals cannot start from "
        "them; write the handler as an ES module export to give it one."
    ),
    "route-dispatch-order-unknown:": (
        "Some registrations may not answer in the order they are written (pass-through "
        "handlers, conditional or out-of-module registration); a consumer cannot rank them, "
        "so review overlapping routes by hand."
    ),
    "framework-dispatch-unmodeled:": (
        "Inline handlers have no graph node of their own and their facts name the enclosing "
        "code; move the handler into a named function for a precise traversal root."
    ),
    # tsograph routes --role client
    "client-call-coverage:": (
        "Requests whose URL, method or base could not be proven are dynamic, anchored at a "
        "base or left out by cause; use literal URLs and plain fetch/axios/ky calls, or "
        "declare an injected transport with --client-model."
    ),
    # the source walk, every producer that reads a project
    "unreadable-sources:": (
        "Some source files could not be read (permissions, encoding) and nothing from them "
        "is in the document; fix their permissions or encoding and run again."
    ),
    "oversized-sources:": (
        "Some files are over the size limit and were skipped (usually generated or bundled "
        "code); nothing in them is analysed."
    ),
    "parse-errors:": (
        "Some files hold syntax the parser could not read; facts from the rest of each file "
        "are kept, so check the named files for syntax tsograph does not support."
    ),
    "skipped-symlinks:": (
        "Symbolic links are never followed, so the code behind them is not scanned; scan "
        "the link target as its own project if it belongs to this service."
    ),
    "scan-truncated:": (
        "Code nested deeper than the reader's limit was cut off; facts inside the cut parts "
        "are missing."
    ),
    "unreadable-module-configs:": (
        "A package.json, tsconfig or jsconfig could not be read, so module resolution may "
        "miss paths or aliases; fix the named file."
    ),
    # tsograph schema
    "prisma-schema-not-found:": (
        "A folder depends on Prisma but no schema applies to it, so its models are unknown; "
        "put the schema where the Prisma CLI looks or point prisma.config at it."
    ),
    "unresolved-prisma-config:": (
        "A prisma.config value is not a literal and was not evaluated; write the schema path "
        "as a string literal."
    ),
    "missing-prisma-schemas:": (
        "A configured Prisma schema path does not exist; correct the path in the config."
    ),
    "schema-outside-project:": (
        "A Prisma schema, or a workspace package that holds the database client, lies "
        "outside the project folder or behind a link and was not read; scan from a folder "
        "that holds it."
    ),
    "non-relational-stores:": (
        "Document stores (MongoDB and similar) have no tables or columns, so their use is "
        "not written as relation facts."
    ),
    "prisma-naming-unverified:": (
        "The Prisma version is unknown and naming rules disagree, so the names in question "
        "are dynamic facts; commit the lockfile so the version is known."
    ),
    "prisma-8-surface-unscanned:": (
        "Prisma 8 contract files and client API are not read yet; their relations are "
        "missing from the document."
    ),
    "unparsed-schema-lines:": (
        "Some Prisma schema lines or SQL statements that may change a table were not "
        "understood and were skipped; check the named places for syntax the Prisma CLI or "
        "the SQL dialect accepts."
    ),
    "unresolved-field-types:": (
        "A Prisma field type names no model, enum or scalar, so the field's relation is "
        "unknown; fix the type name in the schema."
    ),
    "ignored-prisma-elements:": (
        "@ignore and @@ignore elements are absent from the Prisma client, so only their "
        "declarations are facts; this is expected and needs no action."
    ),
    "unresolved-generator-outputs:": (
        "A Prisma generator output could not be located, so imports of that client are not "
        "proven to be Prisma; give the generator a literal output inside the project."
    ),
    "unresolved-typed-sql:": (
        "TypedSQL files or folders could not be read, so their queries are missing; check "
        "the prisma/sql folder."
    ),
    "unsupported-db-packages:": (
        "The project uses database packages tsograph does not read yet (Kysely, MikroORM, "
        "…); their queries are missing, so review that code by hand."
    ),
    "dynamic-relation-names:": (
        "Some table or column names are computed at run time and are written as dynamic "
        "facts; use literal names where you want exact facts."
    ),
    "skipped-sql-literals:": (
        "String literals that look like lowercase SQL were not read, because only uppercase "
        "keywords count as SQL; write the keywords in uppercase to have them read."
    ),
    "unresolved-client-receivers:": (
        "Delegate-shaped calls (x.user.findMany) on receivers not proven to be a Prisma "
        "client are not facts; type or construct the client visibly (new PrismaClient, an "
        "annotation) so the calls are proven."
    ),
    "unresolved-orm-receivers:": (
        "ORM-shaped calls on receivers whose origin could not be traced are not facts; "
        "create the database handle where the code shows it, or import it."
    ),
    "orm-naming-unverified:": (
        "Some ORM names depend on options that could not be read, so those names are "
        "dynamic; write the naming options as literals."
    ),
    "unreadable-orm-declarations:": (
        "Some ORM table or entity declarations could not be read statically; their tables "
        "are missing, so write them with literal names."
    ),
    "provenance-truncated:": (
        "Tracing where a client or table value comes from hit its limit (deep nesting, long "
        "import or binding chains); uses beyond the cut are not facts."
    ),
    "missing-relation-usrs:": (
        "Some uses sit in module-level code with no enclosing declaration, so they carry no "
        "symbol.usr and no traversal reaches them; move them into a function to join them."
    ),
    "invalid-relation-names:": (
        "Some names hold control characters or are over 1024 characters and were left out; "
        "nothing can be done short of renaming them."
    ),
    # tsograph graph, reach and impact
    "unresolved-calls:": (
        "Calls through parameters, untyped values, computed names or unresolved imports got "
        "no edge and are counted by reason; add types or imports the code can be read by, "
        "or try --dispatch candidates."
    ),
    "partial-dispatch:": (
        "A receiver of a union type has parts that are not project classes, so only the "
        "proven parts are linked; narrow the type to see every target."
    ),
    "bound-dispatch:": (
        "Calls linked because every value that flows into the receiver is a project "
        "implementation; this holds only if the scanned code is the whole program."
    ),
    "candidate-dispatch:": (
        "Interface calls linked to every class or object that could implement them by "
        "member names; an over-approximation, so some targets may never run."
    ),
    "dispatch-budget:": (
        "A value-flow query ran out of budget and its call stays unlinked; simplify the "
        "flow or use --dispatch candidates."
    ),
    "overridden-methods:": (
        "Calls to methods that subclasses override are linked to the declared method only; "
        "the overrides may run too, so check them when the result matters."
    ),
    "missing-dependencies:": (
        "Calls go into packages that are not installed and count as external; install the "
        "dependencies (npm ci) before the scan to have them resolved."
    ),
    "unresolved-export-aliases:": (
        "Export nodes could not be linked to the declaration they name; check the named "
        "re-exports resolve inside the project."
    ),
    "graph-config:": (
        "A compiler or package configuration problem may change module resolution; fix "
        "the named configuration."
    ),
    "entry-points:": (
        "Some entry points (routes, crons, server actions) could not be marked; their "
        "nodes are in the graph without an entries mark."
    ),
    "non-http-entries:": (
        "Entry points other than route handlers (pages, server actions, crons, middleware) "
        "are among the symbols; the http join cannot reach them, so review them apart."
    ),
    "effect-inventory:": (
        "The inventory of side effects is incomplete, so proofs that rely on it were not "
        "made; the affected calls stay unlinked."
    ),
    "evidence-approximated:": (
        "The per-root evidence was too large to compute exactly and may be weaker than the "
        "truth, never stronger; narrow the roots for exact evidence."
    ),
    "unresolved-calls-capped:": (
        "Some unresolved-call counts were over 1,000,000 and are shown capped; the graph "
        "snapshot keeps the exact counts."
    ),
    "root-not-found:": (
        "Some requested ids are not graph nodes and reached nothing; pass ids exactly as "
        "tsograph graph writes them."
    ),
}

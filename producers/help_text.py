"""Every command's --help text, and the one helper that registers a command with it.

The texts are prose in one table (`COMMAND_HELP`), one entry per command, in
blocks separated by blank lines:

    one-line summary (the command list of `tsograph --help`)

    description, a paragraph

    0 what exit 0 means
    2 what exit 2 means; longer texts continue on lines indented
      by two spaces
    64
      (exit 64 is always a usage error; indented lines add to it)

    one example per line (a backslash at a line's end continues it)

`add_command(subparsers, name)` makes the subparser with them, so every command
states its exit codes in the same form (the codes are those of
exchange.errors; 1 is never used) and the wording of all commands can be read
in one place.
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Sequence
from typing import Any

# Exit code lines are wrapped to this width; examples stay on one line to be copied.
_WIDTH = 88
USAGE_ERROR = "usage error: a wrong or missing option or argument (stdout stays empty)"

_MONOREPO = (
    "At a monorepo root (npm/yarn workspaces, pnpm-workspace.yaml) whose packages hold "
    "several services, each service package is read as its own project (its own "
    "package.json, configs and versions) with paths and ids relative to the root: pass "
    "--out-dir DIR for one document per service, or --workspace PATH for one; without "
    "either the run lists the services and the command for each (exit 64)."
)


def _traversal_help(what: str, examples: str) -> str:
    """reach and impact: one help but for what they list and their examples."""
    return f"""\
list {what} (language-traversal v1)

List {what} (language-traversal v1): each symbol with its depth, the previous
symbol on a shortest path, the roots that reach it and its evidence tier. With
--project, a `tsograph serve` of the same project and options answers first (the
same bytes; --no-server skips it).

0 success
2 the project or graph file cannot be read, or the output is over the limits
64
  or some root ids are not graph nodes: then the document is still written for
  the other roots and stderr names the ids

{examples}
"""


COMMAND_HELP = {
    "validate": """\
check documents against tsograph's JSON Schemas

Check bridge-facts, language-traversal and tsograph-graph documents (JSON, or a
graph's NDJSON export): their JSON Schema, then what a schema cannot say (edges
and via name existing nodes, ids are unique and follow the symbol id grammar,
root indices are in range). The first problem is named by its JSON pointer.

0 every file is valid; one line per file on stdout
2 a file cannot be read or is invalid; one line on stderr names the file, the JSON
  pointer (and the line of an NDJSON export) and a fix
64

tsograph validate routes.json relations.json
tsograph graph --project . --format ndjson > g.ndjson && tsograph validate g.ndjson
""",
    "openapi": """\
route-contract facts from a Swagger 2.0 or OpenAPI 3.0/3.1 spec

Read one Swagger 2.0 or OpenAPI 3.0/3.1 spec (JSON or YAML) and write a
bridge-facts document with one route-contract fact per operation.

0 success (zero facts is still success, not a proof of completeness)
2 the spec cannot be read or accepted, or the output is over the limits
64
  also a spec outside --project

tsograph openapi api/openapi.yaml --service billing > contract.json
tsograph openapi api/openapi.yaml --service billing --format text
""",
    "graph": """\
write the project's call graph (tsograph-graph v1)

Build the TypeScript/JavaScript call graph of a project without running it: one
node per declaration, edges with their evidence tier, unresolved calls by reason.
At a monorepo root the graph spans every workspace package, with ids relative to
the root: the ids routes and schema write for the same declarations. When a
`tsograph serve` of the same project and options runs, its answer is printed
(the same bytes, without binding the project again; --no-server skips it).

0 success
2 the project or a config cannot be read, or --tsconfig names no readable config
64

tsograph graph --project . > graph.json
tsograph graph --project . --workspace apps/web --format ndjson > graph.ndjson
tsograph graph --project . --format text
""",
    "reach": _traversal_help(
        "what the given symbols reach",
        "tsograph reach --project . 'src/app/api/jobs/route.ts#POST'\n"
        "tsograph graph --project . > graph.json && \\\n"
        "tsograph reach --graph-file graph.json --format text 'src/lib/jobs.ts#createJob'",
    ),
    "impact": _traversal_help(
        "what reaches the given symbols",
        "tsograph impact --project . 'src/lib/audit.ts#audit'\n"
        "tsograph routes --role server --project . | tsograph impact --project . --roots-from -",
    ),
    "routes": f"""\
route-decl facts of a server, route-call facts of a client

Scan a project without running it. --role server: the routes a Next.js app (App
Router route handlers, Pages Router API routes) or a Node backend (Hono, Express,
Fastify, Koa with @koa/router, NestJS) declares, one route-decl fact per (route,
HTTP method). --role client: the requests fetch, axios and ky calls and calls of
SDKs generated by @hey-api/openapi-ts make, one route-call fact each.

{_MONOREPO}

0 success (zero facts is still success, not a proof of completeness)
2 the project (or --client-model file) cannot be read, or the output is over the
  limits
64
  also a monorepo root with several services and neither --out-dir nor --workspace

tsograph routes --role server --project . --service api > routes.json
tsograph routes --role client --project web --service api > calls.json
tsograph routes --role server --project . --format text
tsograph routes --role server --project . --out-dir routes/
tsograph routes --role server --project . --workspace apps/api > api-routes.json
""",
    "schema": f"""\
relation-use facts of Prisma schemas, Prisma Client, ORMs and SQL text

Scan a project without running it: Prisma schemas and client calls, Drizzle,
TypeORM, Sequelize, knex, SQL drivers, D1, raw SQL, TypedSQL and uppercase SQL
literals, written as a bridge-facts document with one relation-use fact per
observed relation or column. The SQL drivers read are pg, mysql2, better-sqlite3,
sqlite3, node:sqlite, bun:sqlite, @libsql/client, postgres.js, Neon,
@vercel/postgres, PlanetScale and Cloudflare D1; Kysely, Objection, MikroORM,
pg-promise, sequelize-typescript, MSSQL, Oracle and slonik are only counted under
unsupported-db-packages:.

{_MONOREPO}

0 success (zero facts is still success, not a proof of completeness)
2 the project cannot be read, or the output is over the limits (100,000 facts,
  16 Mi characters)
64
  also a monorepo root with several services and neither --out-dir nor --workspace

tsograph schema --project . > relations.json
tsograph schema --project . --format text
tsograph schema --project . --out-dir relations/
""",
    "sql-schema": """\
tables and columns declared by SQL DDL files (migrations)

Apply the CREATE/ALTER/DROP TABLE statements of SQL files in path order and
write the tables and columns that remain as a platform sql bridge-facts document.

0 success
2 a file cannot be read, or the output is over the limits
64

tsograph sql-schema prisma/migrations --dialect postgres
tsograph sql-schema schema.sql --project .
""",
    "check": """\
join route or relation documents and report what disagrees

Join openapi, routes --role server and routes --role client documents (or, with
--pairs, a schema document and its declarations) and report what disagrees.

0 no finding fails the run (warnings may be listed)
2 a document cannot be read or is not a bridge-facts document
3 findings at the --fail-on severity (default: error) fail the run
64

tsograph check contract.json decl.json calls.json
tsograph check --pairs uses.json sql.json --format github
""",
    "query": """\
ask the project's call graph one question (callers, callees, path, ...)

Answer one question about the project's call graph: status, capabilities,
search, symbol, callers, callees, routes, path, impact, outline, packages,
cycles, unknowns, explain. A target is a name, Class.method, file:line or an id;
a name several declarations carry answers with them as candidates.

0 an answer (a list that may be short, and candidates, included)
2 the question cannot be answered: an unknown name, a question this graph
  has no data for, a stale cursor, an unreadable project
64

tsograph query callers listJobs --project .
tsograph query callers Repo.save --depth 2 --tier direct,bound --project . --json
tsograph query path handler saveJob --project .
""",
    "review": """\
what a git change reaches: a brief for a reviewer and a packet of pages

Compare the base (default: the merge base with the default branch, else HEAD),
read from git objects, with the work tree: the symbols the change touches,
removes or moves, their callers one and two hops out, what they call, the
routes and tables they reach, and what the graph could not see. The brief is
Markdown on stdout, or DIR/brief.md with the packet under --out DIR.

0 the brief was written
2 the project is not in a git work tree, or git or the graph failed
64

tsograph review
tsograph review --base origin/main --project . --out review
""",
    "mcp": """\
serve the graph questions to an agent as MCP tools over stdin/stdout

An MCP server over standard input and output (no network port): one tool per
question of `tsograph query` (graph_callers, graph_callees, ..., graph_refresh),
each answering with the JSON of `query --json`. See docs/mcp.md to register it
with an agent.

0 the agent closed the connection
2 --repo names no readable folder
64

tsograph mcp
tsograph mcp --repo path/to/repo
""",
    "serve": """\
hold a project's graph in a resident process that later graph runs ask first

Bind the project's graph once, then listen on a Unix socket in the cache folder
(mode 0600, this user only) until idle for --idle-timeout seconds, SIGTERM,
SIGINT or `serve --stop` with the same options. A `graph`, `reach` or `impact`
run with the same project and build options (--workspace, --tsconfig,
--language, --cache-dir, --no-cache) asks the server first and prints its
answer, byte for byte the document it would write itself; after an edit the
server binds again only what the edit can change. --no-server on the run skips
the server. A server
that cannot be used (ended, another version, no answer in 120 s, or
TSOGRAPH_SERVE_TIMEOUT seconds) is skipped with one line on stderr. Python
projects are not served.

0 the server ended (idle, signalled or stopped), or --stop found it or none
2 the project cannot be read, a server already holds it, or the socket cannot be
  made in the cache folder
64

tsograph serve --project . &
tsograph serve --project . --workspace apps/web --idle-timeout 600
tsograph serve --project . --stop
""",
    "trace": """\
per route: the tables it touches and the services it calls

Follow each route's handler through a reach traversal to the relation uses and
route calls of the symbols it reaches.

0 the trace was written
2 a document or the project cannot be read
64

tsograph trace --project . --routes decl.json --uses uses.json
tsograph trace --project . --routes decl.json --uses uses.json --route 'GET /api/users/{id}'
""",
}


def add_command(subparsers: Any, name: str) -> argparse.ArgumentParser:
    """The subparser of a command, with its summary, description, exit codes and examples."""
    summary, description, codes, examples = _blocks(COMMAND_HELP[name])
    parser: argparse.ArgumentParser = subparsers.add_parser(
        name, help=summary[0], **command_help(" ".join(description), _exit_codes(codes), examples)
    )
    return parser


def _blocks(text: str) -> list[list[str]]:
    """Summary, description, exit codes, examples: the blank-line separated blocks, with
    the monorepo paragraph (a block of its own) joined to the description."""
    blocks = [block.splitlines() for block in text.strip().split("\n\n")]
    return [blocks[0], [line for block in blocks[1:-2] for line in block], *blocks[-2:]]


def _exit_codes(lines: list[str]) -> list[tuple[int, str]]:
    codes: list[tuple[int, str]] = []
    for line in lines:
        if line.startswith(" "):
            code, text = codes[-1]
            joint = "; " if text == USAGE_ERROR else " "
            codes[-1] = (code, text + joint + line.strip())
            continue
        code_text, _, text = line.partition(" ")
        codes.append((int(code_text), USAGE_ERROR if code_text == "64" else text))
    return codes


def command_help(
    description: str, exit_codes: Sequence[tuple[int, str]], examples: Sequence[str]
) -> dict[str, Any]:
    """Keyword arguments for add_parser: the description, then exit codes and examples."""
    codes = "\n".join(
        textwrap.fill(text, _WIDTH, initial_indent=f"  {code:<4}", subsequent_indent=" " * 6)
        for code, text in exit_codes
    )
    shown = "\n".join(f"  {example}" for example in examples)
    return {
        "description": description,
        "epilog": f"exit codes:\n{codes}\n\nexamples:\n{shown}",
        "formatter_class": _Formatter,
    }


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Wraps the description and option help, keeps the epilog's lines as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith("exit codes:\n"):
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return argparse.HelpFormatter._fill_text(self, text, width, indent)

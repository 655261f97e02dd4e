"""A small git history built in a test: the base commit, then the change under review.

The change holds every case the review must read: a renamed function (same body,
new name), a removed export still imported elsewhere, an interface method
changed with two implementations, a route handler edited two hops below its
route, a symbol moved to another file, a hub with 50 callers, a change in
a file that fails to parse, and a route registered with a handler the routes
scan cannot resolve.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

HUB_CALLERS = 50

BASE: dict[str, str] = {
    "package.json": '{ "name": "shop", "private": true, "dependencies": { "hono": "^4.6.0" } }\n',
    "tsconfig.json": '{ "compilerOptions": { "strict": true } }\n',
    "src/server.ts": """import { Hono } from 'hono';
import { showOrder } from './orders';

const app = new Hono();

app.get('/orders/:id', (c) => c.json(showOrder(c.req.param('id'))));

export default app;
""",
    "src/orders.ts": """import { loadOrder } from './store';
import { formatPrice } from './money';

export function showOrder(id: string) {
  return describe(loadOrder(id));
}

function describe(order: { total: number }) {
  return 'order of ' + formatPrice(order.total);
}
""",
    "src/store.ts": """import type { Repo } from './repo';
import { SqlRepo } from './repo';

const repo: Repo = new SqlRepo();

export function loadOrder(id: string) {
  return { id, total: repo.find(id).length };
}
""",
    "src/repo.ts": """export interface Repo {
  find(id: string): string;
}

export class SqlRepo implements Repo {
  find(id: string): string {
    return 'sql:' + id;
  }
}

export class MemRepo implements Repo {
  find(id: string): string {
    return 'mem:' + id;
  }
}
""",
    "src/money.ts": """export function formatPrice(cents: number): string {
  const units = Math.floor(cents / 100);
  const rest = String(cents % 100).padStart(2, '0');
  return `$${units}.${rest}`;
}

export function legacyRound(value: number): number {
  return Math.round(value * 100) / 100;
}

export function computeTaxes(amount: number, rate: number): number {
  const tax = amount * rate;
  return Math.round(tax * 100) / 100;
}
""",
    "src/report.ts": """import { legacyRound } from './money';

export function reportTotal(values: number[]): number {
  return legacyRound(values.reduce((a, b) => a + b, 0));
}
""",
    "src/util.ts": """export function log(message: string): void {
  console.log(message);
}
""",
    "src/broken.ts": """export function fine(): number {
  return 1;
}
""",
    # A key in code the change deletes: base/<key>.txt quotes it, redacted.
    "src/keys.ts": """export function stripeKey(): string {
  return 'sk_live_51HqLyjWDarjtT1zdp7dcXSGHqLyjWDarjtT1zdp7dc';
}
""",
}
for _number in range(HUB_CALLERS):
    BASE[f"src/callers/c{_number:02d}.ts"] = (
        f"import {{ log }} from '../util';\n\nexport function caller{_number:02d}(): void {{\n"
        f"  log('{_number}');\n}}\n"
    )

CHANGE: dict[str, str | None] = {
    # A route registered with a handler the routes scan cannot resolve.
    "src/server.ts": """import { Hono } from 'hono';
import { showOrder } from './orders';

declare const handlers: any;

const app = new Hono();

app.get('/orders/:id', (c) => c.json(showOrder(c.req.param('id'))));
app.post('/orders', handlers.create);

export default app;
""",
    # A manifest change: a changed file that holds no declaration.
    "package.json": ('{ "name": "shop", "private": true, "dependencies": { "hono": "^4.7.0" } }\n'),
    # The handler's second hop below the route is edited (describe), and the
    # money helpers: formatPrice renamed to formatCents (same body), legacyRound removed.
    "src/orders.ts": """import { loadOrder } from './store';
import { formatCents } from './money';

export function showOrder(id: string) {
  return describe(loadOrder(id));
}

function describe(order: { total: number }) {
  return 'order total ' + formatCents(order.total);
}
""",
    "src/money.ts": """export function formatCents(cents: number): string {
  const units = Math.floor(cents / 100);
  const rest = String(cents % 100).padStart(2, '0');
  return `$${units}.${rest}`;
}
""",
    # computeTaxes moved to its own file, body unchanged.
    "src/taxes.ts": """export function computeTaxes(amount: number, rate: number): number {
  const tax = amount * rate;
  return Math.round(tax * 100) / 100;
}
""",
    # The interface method gains a parameter; both implementations follow.
    "src/repo.ts": """export interface Repo {
  find(id: string, fresh?: boolean): string;
}

export class SqlRepo implements Repo {
  find(id: string, fresh?: boolean): string {
    return (fresh ? 'sql!' : 'sql:') + id;
  }
}

export class MemRepo implements Repo {
  find(id: string, fresh?: boolean): string {
    return (fresh ? 'mem!' : 'mem:') + id;
  }
}
""",
    # The hub: 50 files call log.
    "src/util.ts": """export function log(message: string): void {
  console.log('[shop] ' + message);
}
""",
    # A file that no longer parses.
    "src/broken.ts": """export function fine(): number {
  return (1 +;
}
""",
    "src/keys.ts": None,
}


def _git(folder: Path, *args: str) -> str:
    env = dict(
        os.environ,
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@example.com",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@example.com",
        GIT_AUTHOR_DATE="2026-01-01T00:00:00Z",
        GIT_COMMITTER_DATE="2026-01-01T00:00:00Z",
        GIT_CONFIG_GLOBAL="/dev/null",
        GIT_CONFIG_NOSYSTEM="1",
    )
    done = subprocess.run(
        ["git", "-C", str(folder), *args], env=env, capture_output=True, check=True
    )
    return done.stdout.decode()


def _write(folder: Path, files: dict[str, str | None]) -> None:
    for path, text in files.items():
        target = folder / path
        if text is None:
            target.unlink()
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def build(folder: Path, *, commit_change: bool = True) -> Path:
    """The repository: `main` with the base commit, branch `change` with the change
    (committed, or left in the work tree)."""
    folder.mkdir(parents=True, exist_ok=True)
    _git(folder, "init", "-q", "-b", "main")
    _write(folder, dict(BASE))
    _git(folder, "add", "-A")
    _git(folder, "commit", "-q", "-m", "base")
    _git(folder, "checkout", "-q", "-b", "change")
    _write(folder, CHANGE)
    if commit_change:
        _git(folder, "add", "-A")
        _git(folder, "commit", "-q", "-m", "change")
    return folder

import { createHash, randomBytes, randomUUID } from 'node:crypto';
import picomatch from 'picomatch';
import { pathFilter } from '../src/sync-rules/globs.js';
import { type DatabaseKind, startTarget, type Target } from './lib/target.js';

/**
 * Local-sync bench: `npx tsx bench/local-sync.ts`. On a fresh service (PGlite on disk; also PostgreSQL when
 * DATABASE_URL is set), over real HTTP:
 *   1. push 1,000 files (10 MB in all, 10 KB each) to a fresh source in batches of 500 — target < 2 s;
 *   2. read 10,000 delta events (limit 1,000 per call) — target < 0.5 s.
 * Hashing the files (the connector's work) is done before the clock starts and reported apart.
 * First, without a database: the glob matcher shared by service and connector against picomatch (the regex-based
 * matcher it replaced) as the baseline, on ordinary patterns and on a backtracking-heavy one.
 */
const FILES = 1000;
const FILE_BYTES = 10 * 1024;
const BATCH = 500;
const EVENTS = 10_000;

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

async function post(target: Target, token: string, ws: string, path: string, body: unknown) {
  const res = await fetch(`${target.appUrl}/api/local-sync/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-workspace-id': ws, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as any;
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

async function run(kind: DatabaseKind) {
  const target = await startTarget(kind);
  try {
    const signup = await target.call('POST', '/api/v1/auth/signup', undefined, {
      email: `bench-${randomUUID()}@example.com`,
      password: 'correct-horse',
      name: 'Bench',
    });
    const token = signup.data.token as string;
    const ws = (await target.call('POST', '/api/v1/workspaces', token, { name: 'Bench', hostname: `bench-${Date.now()}` })).data.id as string;
    const { connectorId } = await post(target, token, ws, 'connectors/register', { name: 'bench', platform: process.platform, version: '1' });
    const { sourceId } = await post(target, token, ws, 'sources', { name: 'bench', mode: 'bidirectional', connectorId });

    // Text files of printable random characters (Base64 of random bytes), 10 KB each.
    let t0 = process.hrtime.bigint();
    const items = Array.from({ length: FILES }, (_, i) => {
      const content = randomBytes((FILE_BYTES * 3) / 4)
        .toString('base64')
        .slice(0, FILE_BYTES);
      return {
        operationId: randomUUID(),
        relativePath: `docs/${String(i).padStart(4, '0')}.md`,
        content,
        contentType: 'text/markdown',
        contentHash: sha(Buffer.from(content)),
      };
    });
    const hashMs = ms(t0);
    const totalBytes = items.reduce((n, i) => n + i.content.length, 0);

    t0 = process.hrtime.bigint();
    for (let i = 0; i < FILES; i += BATCH) {
      const { results } = await post(target, token, ws, 'sources/push-batch', { sourceId, connectorId, items: items.slice(i, i + BATCH) });
      if (results.some((r: any) => r.status !== 'applied')) throw new Error('an item was not applied');
    }
    const pushMs = ms(t0);

    // Seed the rest of the 10,000 events with small edits (not timed).
    for (let n = FILES; n < EVENTS; n += BATCH) {
      const batch = Array.from({ length: BATCH }, (_, k) => {
        const content = `edit ${n + k}\n`;
        return { operationId: randomUUID(), relativePath: `small/${n + k}.txt`, content, contentHash: sha(Buffer.from(content)) };
      });
      await post(target, token, ws, 'sources/push-batch', { sourceId, items: batch });
    }

    const read = async (extra: Record<string, unknown>) => {
      const start = process.hrtime.bigint();
      let cursor: string | undefined;
      let count = 0;
      for (;;) {
        const page = await post(target, token, ws, 'sources/deltas', { sourceId, cursor, limit: 1000, ...extra });
        count += page.events.length;
        cursor = page.nextCursor;
        if (!page.hasMore) break;
      }
      if (count !== EVENTS) throw new Error(`read ${count} events, expected ${EVENTS}`);
      return ms(start);
    };
    await read({}); // warm the statement cache once, as a running service would be
    const readMs = await read({});
    const readContentMs = await read({ includeContent: true });

    const verdict = (v: number, target: number) => `${v.toFixed(0)} ms (target < ${target} ms: ${v < target ? 'met' : 'NOT met'})`;
    console.log(`\n[${kind}] local sync`);
    console.log(`  hash ${FILES} files (${(totalBytes / 1e6).toFixed(1)} MB), client side: ${hashMs.toFixed(0)} ms`);
    console.log(`  push ${FILES} files, ${(totalBytes / 1e6).toFixed(1)} MB, batches of ${BATCH}: ${verdict(pushMs, 2000)}`);
    console.log(`  read ${EVENTS} delta events (limit 1000): ${verdict(readMs, 500)}`);
    console.log(`  read ${EVENTS} delta events with includeContent: ${readContentMs.toFixed(0)} ms`);
  } finally {
    await target.close();
  }
}

/** Time of `n` calls of `f` in ms. */
function timed(n: number, f: (i: number) => unknown): number {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) f(i);
  return ms(t0);
}

function globBench() {
  const include = ['**/*.md', 'docs/**', '*.txt'];
  const exclude = ['drafts/**', '**/.obsidian/**', '**/*.tmp'];
  const paths = Array.from(
    { length: 100_000 },
    (_, i) => ['docs/a', 'notes/deep', 'drafts', 'vault/.obsidian', 'src'][i % 5] + `/f${i}.${['md', 'txt', 'tmp'][i % 3]}`,
  );
  const ours = pathFilter(include, exclude);
  const inc = picomatch(include, { dot: true });
  const exc = picomatch(exclude, { dot: true });
  const base = timed(paths.length, (i) => inc(paths[i]) && !exc(paths[i]));
  const mine = timed(paths.length, (i) => ours(paths[i]));
  console.log('\n[globs] 100,000 paths, 3 include + 3 exclude patterns');
  console.log(`  picomatch (baseline): ${base.toFixed(0)} ms; shared matcher: ${mine.toFixed(0)} ms (${(mine / base).toFixed(2)}× the baseline)`);
  const redos = 'a*a*a*a*a*a*a*a*a*a*a*a*b';
  const slow = picomatch(redos, { dot: true });
  const fast = pathFilter([redos], []);
  const baseRedos = timed(1, () => slow('a'.repeat(24)));
  const mineRedos = timed(1, () => fast('a'.repeat(1000)));
  console.log(`  ${redos}: picomatch on 24 characters ${baseRedos.toFixed(0)} ms; shared matcher on 1,000 characters ${mineRedos.toFixed(2)} ms`);
}

globBench();
for (const kind of (process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite']) as DatabaseKind[]) await run(kind);

/**
 * Search latency on a large workspace: `npx tsx bench/search-latency.ts` (SEARCH_BENCH_PAGES, default 100000;
 * SEARCH_BENCH_QUERIES, default 300). Seeds a fresh PGlite database (on disk, in a temporary folder, or in
 * SEARCH_BENCH_KEEP, which a later run reuses) with
 * generated pages of team-wiki text through bulk SQL, then calls the search and suggest services one request at a
 * time, as the embedded database serves them, and prints p50/p95/p99 and throughput. Targets: search p95 < 50 ms,
 * suggest p95 < 20 ms. With DATABASE_URL set, the same on a fresh database of that PostgreSQL server (dropped after).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { search, suggest } from '../src/areas/search/search.service.js';
import type { Ctx } from '../src/context.js';
import { migrateToLatest, openDatabase } from '../src/db/index.js';
import { freshDatabase } from './lib/target.js';
import { newId } from '../src/ids.js';
import { KEY_DOCS } from './search-relevance/corpus-docs.js';
import { prng } from './search-relevance/corpus.js';

const PAGES = Number(process.env.SEARCH_BENCH_PAGES ?? 100_000);
const QUERIES = Number(process.env.SEARCH_BENCH_QUERIES ?? 300);
const r = prng(7);

// Vocabulary: the sentences of the hand-written corpus, plus a long tail of made-up names (customers, services,
// projects) drawn with a Zipf-like skew, so some words are everywhere and most are rare, as in real wikis.
const SENTENCES = KEY_DOCS.flatMap((d) => d.body.split(/(?<=[.!?])\s+/)).filter((s) => s.length > 20);
const SYL = [
  'al',
  'bor',
  'cen',
  'dra',
  'el',
  'fin',
  'gar',
  'hol',
  'ist',
  'jun',
  'kor',
  'lum',
  'mar',
  'nex',
  'or',
  'pra',
  'quin',
  'ros',
  'sel',
  'tor',
  'ul',
  'ven',
  'wyn',
  'zel',
];
const NAMES = Array.from({ length: 20_000 }, () => {
  const n = 2 + r.int(2);
  let w = '';
  for (let i = 0; i < n; i++) w += r.pick(SYL);
  return w[0].toUpperCase() + w.slice(1);
});
const zipfName = (g = r) => NAMES[Math.floor(NAMES.length ** g.next()) - 1];
const TITLE_HEADS = ['Notes on', 'How to', 'Runbook:', 'Plan for', 'Review of', 'Guide to', 'FAQ:', 'Decision:', 'Status of', 'Ideas for'];

function makePage(i: number) {
  const doc = KEY_DOCS[i % KEY_DOCS.length];
  const n = 3 + r.int(12);
  const parts: string[] = [];
  for (let s = 0; s < n; s++) {
    parts.push(r.pick(SENTENCES));
    if (r.next() < 0.5) parts.push(`${zipfName()} and ${zipfName()} are affected.`);
  }
  const title = `${r.pick(TITLE_HEADS)} ${doc.title.toLowerCase()} ${zipfName()}`;
  return { title, text: parts.join(' ') };
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

type Db = Awaited<ReturnType<typeof openDatabase>>['db'];

/**
 * A workspace of `PAGES` generated pages in 10 spaces (the last one private, its pages invisible to the bench
 * user). Pages go in by batches of one multi-row statement each (`insert … select from unnest(arrays)`), so the
 * statistics triggers run once a batch.
 */
async function seed(db: Db): Promise<{ workspaceId: string; userId: string }> {
  const userId = newId();
  const workspaceId = newId();
  await sql`insert into users (id, email, name) values (${userId}, 'bench@example.com', 'Bench')`.execute(db);
  await sql`insert into workspaces (id, name, hostname, settings) values (${workspaceId}, 'Bench', 'bench', '{}')`.execute(db);
  await sql`insert into workspace_members (workspace_id, user_id, role) values (${workspaceId}, ${userId}, 'editor')`.execute(db);
  const spaces = Array.from({ length: 10 }, (_, i) => ({ id: newId(), private: i === 9 }));
  for (const s of spaces)
    await sql`insert into spaces (id, workspace_id, name, slug, visibility) values (${s.id}, ${workspaceId}, ${`Space ${s.id.slice(-4)}`}, ${s.id}, ${s.private ? 'private' : 'public'})`.execute(
      db,
    );
  const t0 = performance.now();
  const BATCH = Number(process.env.SEARCH_BENCH_BATCH ?? 5000);
  for (let start = 0; start < PAGES; start += BATCH) {
    const ids: string[] = [];
    const sp: string[] = [];
    const titles: string[] = [];
    const texts: string[] = [];
    for (let i = start; i < Math.min(PAGES, start + BATCH); i++) {
      const p = makePage(i);
      ids.push(newId());
      sp.push(spaces[i % spaces.length].id);
      titles.push(p.title);
      texts.push(p.text);
    }
    // Positions and edit times follow the page number: one page every 5 minutes since 2025-01-01.
    await sql`insert into pages (id, workspace_id, space_id, title, slug, content, text_content, position, updated_at)
      select id, ${workspaceId}, space_id, title, id, jsonb_build_object('type', 'doc', 'content', jsonb_build_array(jsonb_build_object('type', 'paragraph',
        'content', jsonb_build_array(jsonb_build_object('type', 'text', 'text', text))))), text,
        'a' || lpad((${start} + n - 1)::text, 7, '0'), timestamptz '2025-01-01 00:00:00+00' + (${start} + n - 1) * interval '5 minutes'
      from unnest(${ids}::text[], ${sp}::text[], ${titles}::text[], ${texts}::text[]) with ordinality as x(id, space_id, title, text, n)`.execute(db);
    if (start + BATCH >= PAGES || (start / BATCH) % 4 === 3)
      process.stdout.write(`  seeded ${Math.min(PAGES, start + BATCH)} pages (${((performance.now() - t0) / 1000).toFixed(0)} s)\n`);
  }
  await sql`vacuum analyze`.execute(db);
  console.log(`seeded ${PAGES} pages in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { workspaceId, userId };
}

async function main() {
  const keep = process.env.SEARCH_BENCH_KEEP; // a folder to keep the seeded database in (and reuse on the next run)
  const dir = keep ?? mkdtempSync(path.join(tmpdir(), 'kb-search-bench-'));
  // DATABASE_URL set: a fresh database on that server (not kept), else PGlite.
  const { database, drop } = process.env.DATABASE_URL
    ? await freshDatabase('postgres', dir)
    : { database: await openDatabase({ dataDir: path.join(dir, 'db') }), drop: async () => {} };
  try {
    const db = database.db;
    await migrateToLatest(db);
    const seeded = (await sql<{ id: string }>`select id from workspaces where hostname = 'bench'`.execute(db)).rows[0];
    let workspaceId: string;
    let userId: string;
    if (seeded) {
      workspaceId = seeded.id;
      userId = (await sql<{ userId: string }>`select user_id from workspace_members where workspace_id = ${workspaceId}`.execute(db)).rows[0].userId;
      const n = (await sql<{ n: number }>`select count(*)::int as n from pages where workspace_id = ${workspaceId}`.execute(db)).rows[0].n;
      console.log(`reusing the database in ${dir}: ${n} pages`);
    } else ({ workspaceId, userId } = await seed(db));

    const ctx = { db, actor: { userId, via: 'jwt', apiKeyId: null }, log: console, now: () => new Date() } as unknown as Ctx;
    const words = [
      ...new Set(
        SENTENCES.join(' ')
          .toLowerCase()
          .match(/\p{L}{4,}/gu) ?? [],
      ),
    ];
    // Queries come from their own generator: the same ones whether the database was just seeded or reused.
    const q = prng(11);
    const searchQueries: string[] = [];
    for (let i = 0; i < QUERIES; i++) {
      const kind = i % 4;
      if (kind === 0) searchQueries.push(`how do I ${q.pick(words)} the ${q.pick(words)} ${q.pick(words)}?`);
      else if (kind === 1) searchQueries.push(`${q.pick(words)} ${q.pick(words)}`);
      else if (kind === 2) searchQueries.push(`${zipfName(q).toLowerCase()} ${q.pick(words).slice(0, 4)}`);
      else searchQueries.push(`"${q.pick(SENTENCES).split(' ').slice(1, 3).join(' ')}" -${q.pick(words)}`);
    }
    const suggestQueries = Array.from({ length: QUERIES }, (_, i) => {
      const w = i % 3 === 0 ? zipfName(q).toLowerCase() : q.pick(words);
      return w.slice(0, 2 + q.int(4));
    });
    // A same-run yardstick: a primary-key read of a random page, timed in the same loop as each call, so that the
    // ratio to it means something on a loaded machine.
    const pageIds = (await sql<{ id: string }>`select id from pages where workspace_id = ${workspaceId} order by random() limit 1000`.execute(db)).rows.map(
      (x) => x.id,
    );
    const pk = (i: number) => sql`select id, title, updated_at from pages where id = ${pageIds[i % pageIds.length]}`.execute(db);

    const only = process.env.SEARCH_BENCH_ONLY; // 'search' or 'suggest'
    for (const [label, queries, run] of [
      ['search', searchQueries, (q: string) => search(ctx, { query: q, workspaceId, limit: 20 })],
      ['suggest', suggestQueries, (q: string) => suggest(ctx, { query: q, workspaceId, limit: 10 })],
    ] as const) {
      if (process.env.SEARCH_BENCH_SEED_ONLY || (only && only !== label)) continue;
      for (const q of queries.slice(0, 20)) await run(q); // warm-up
      const times: number[] = [];
      const base: number[] = [];
      const slow: [number, string][] = [];
      const began = performance.now();
      let i = 0;
      for (const q of queries) {
        let s = performance.now();
        await pk(i++);
        base.push(performance.now() - s);
        s = performance.now();
        await run(q);
        const ms = performance.now() - s;
        times.push(ms);
        slow.push([ms, q]);
      }
      const total = performance.now() - began;
      times.sort((a, b) => a - b);
      base.sort((a, b) => a - b);
      const target = label === 'search' ? 50 : 20;
      const p95 = percentile(times, 95);
      console.log(
        `${label.padEnd(8)} n=${times.length}  p50 ${percentile(times, 50).toFixed(1)} ms  p95 ${p95.toFixed(1)} ms  p99 ${percentile(times, 99).toFixed(1)} ms  ` +
          `max ${times.at(-1)?.toFixed(1)} ms  ${((times.length * 1000) / total).toFixed(0)} req/s (with the yardstick)  (target p95 < ${target} ms: ${p95 < target ? 'met' : 'NOT met'})`,
      );
      console.log(
        `${''.padEnd(8)} yardstick (primary-key select, same loop): p50 ${percentile(base, 50).toFixed(2)} ms  p95 ${percentile(base, 95).toFixed(2)} ms;  ` +
          `${label} p50/p95 = ${(percentile(times, 50) / percentile(base, 50)).toFixed(0)}× / ${(p95 / percentile(base, 95)).toFixed(0)}× the yardstick's`,
      );
      if (process.env.SEARCH_BENCH_SLOW)
        for (const [ms, q] of slow.sort((a, b) => b[0] - a[0]).slice(0, 8)) console.log(`    ${ms.toFixed(1).padStart(7)} ms  ${q}`);
    }
  } finally {
    await database.close();
    await drop();
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

await main();

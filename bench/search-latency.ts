/**
 * Search latency on a large workspace, through HTTP with an API key, as users see it:
 * `npx tsx bench/search-latency.ts` (SEARCH_BENCH_PAGES, default 10,000 for a short run; the goal below is at 100,000;
 * SEARCH_BENCH_QUERIES, default 200). Seeds a fresh PGlite database (on disk, in a temporary folder, or in
 * SEARCH_BENCH_KEEP, which a later run reuses) with generated pages of team-wiki text through bulk SQL, starts the
 * service on it, and sends search and suggest requests one at a time, each interleaved with two baselines measured in
 * the same loop: an authenticated page read through the same HTTP and auth path (`GET /api/v1/pages/:id`), and a bare
 * primary-key select below HTTP. It prints p50/p95/p99 of each and the ratios to the page read. Goals: search
 * p95 < 50 ms and suggest p95 < 20 ms at 100,000 pages, published with the page read's p95 beside them. With
 * DATABASE_URL set, the same on a fresh database of that PostgreSQL server (dropped after).
 * SEARCH_BENCH_HUGE=n adds n huge pages (every word of the queries' vocabulary, every name and 20,000 made-up words
 * each), and a quarter of the searches ask for two names and a prefix, which rank them among the best, so
 * pseudo-relevance feedback reads them; SEARCH_BENCH_RANKING (as in the relevance benches) tries other ranking
 * constants, e.g. '{"feedback":{"weight":0}}' for a run without feedback.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { createApiKey } from '../src/areas/auth/auth.service.js';
import { cliCtx } from '../src/cli/database.js';
import { loadConfig } from '../src/config.js';
import { type Database, migrateToLatest, openDatabase } from '../src/db/index.js';
import { newId } from '../src/ids.js';
import { rankingFromEnv } from './lib/ranking-override.js';
import { describeLatencies, describeRatio, percentile, timedGet, timeInterleaved } from './lib/sequential.js';
import { freshDatabase } from './lib/target.js';
import { KEY_DOCS } from './search-relevance/corpus-docs.js';
import { prng } from './search-relevance/corpus.js';

const PAGES = Number(process.env.SEARCH_BENCH_PAGES ?? 10_000);
const QUERIES = Number(process.env.SEARCH_BENCH_QUERIES ?? 200);
const HUGE = Number(process.env.SEARCH_BENCH_HUGE ?? 0);
/** The goals (p95, ms) and the page count they are set at. */
const GOALS = { search: 50, suggest: 20, atPages: 100_000 };
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

/**
 * `n` huge pages in the first space (added once: a reused database keeps them): each holds every word of the queries'
 * vocabulary, every name of the pages and 20,000 more made-up words, as a glossary, a log dump or a pasted spreadsheet does.
 */
async function seedHugePages(db: Db, workspaceId: string, n: number) {
  const have = (await sql<{ n: number }>`select count(*)::int as n from pages where workspace_id = ${workspaceId} and title like 'Huge page %'`.execute(db))
    .rows[0].n;
  const spaceId = (
    await sql<{ id: string }>`select id from spaces where workspace_id = ${workspaceId} and visibility = 'public' order by id limit 1`.execute(db)
  ).rows[0].id;
  const g = prng(13);
  for (let i = have; i < n; i++) {
    const made = Array.from({ length: 20_000 }, (_, k) => `${g.pick(SYL)}${g.pick(SYL)}${k.toString(36)}`);
    const text = `${SENTENCES.join(' ')} ${NAMES.join(' ')} ${made.join(' ')}`;
    const id = newId();
    await sql`insert into pages (id, workspace_id, space_id, title, slug, content, text_content, position)
      values (${id}, ${workspaceId}, ${spaceId}, ${`Huge page ${i + 1}`}, ${id}, ${JSON.stringify({ type: 'doc', content: [] })}::jsonb, ${text}, ${`z${i}`})`.execute(
      db,
    );
  }
  if (n > have) console.log(`added ${n - have} huge pages (${n} in all)`);
}

/** The queries of a run: from their own generator, so the same whether the database was just seeded or reused. */
function makeQueries() {
  const words = [
    ...new Set(
      SENTENCES.join(' ')
        .toLowerCase()
        .match(/\p{L}{4,}/gu) ?? [],
    ),
  ];
  const q = prng(11);
  const search: string[] = [];
  for (let i = 0; i < QUERIES; i++) {
    const kind = i % 4;
    if (kind === 0) search.push(`how do I ${q.pick(words)} the ${q.pick(words)} ${q.pick(words)}?`);
    else if (kind === 1) search.push(`${q.pick(words)} ${q.pick(words)}`);
    // With huge pages, names come in pairs: few pages hold both, the huge ones all, so they are among the best.
    else if (kind === 2) search.push(`${zipfName(q).toLowerCase()}${HUGE ? ` ${zipfName(q).toLowerCase()}` : ''} ${q.pick(words).slice(0, 4)}`);
    else search.push(`"${q.pick(SENTENCES).split(' ').slice(1, 3).join(' ')}" -${q.pick(words)}`);
  }
  const suggest = Array.from({ length: QUERIES }, (_, i) => {
    const w = i % 3 === 0 ? zipfName(q).toLowerCase() : q.pick(words);
    return w.slice(0, 2 + q.int(4));
  });
  return { search, suggest };
}

/** The seeded workspace and its user, seeding them first when the database is new. */
async function seededWorkspace(db: Db, dir: string): Promise<{ workspaceId: string; userId: string }> {
  const seeded = (await sql<{ id: string }>`select id from workspaces where hostname = 'bench'`.execute(db)).rows[0];
  if (!seeded) return seed(db);
  const userId = (await sql<{ userId: string }>`select user_id from workspace_members where workspace_id = ${seeded.id}`.execute(db)).rows[0].userId;
  const n = (await sql<{ n: number }>`select count(*)::int as n from pages where workspace_id = ${seeded.id}`.execute(db)).rows[0].n;
  console.log(`reusing the database in ${dir}: ${n} pages`);
  return { workspaceId: seeded.id, userId };
}

/** The service on `database`, listening on 127.0.0.1, and an API key of the bench user made as `kb key create` does. */
async function startService(database: Database, dir: string, url: string | undefined, userId: string) {
  // A limit no run reaches: the limiter still counts every request (its cost is part of the measured path).
  const config = loadConfig({
    DATA_DIR: dir,
    DATABASE_URL: url,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX: String(1e9),
    AUTH_RATE_LIMIT_MAX: String(1e9),
    AUTH_RATE_LIMIT_PER_EMAIL: String(1e9),
  });
  // A reused database keeps the keys of earlier runs: start from none, under the per-user cap.
  await sql`delete from api_keys where user_id = ${userId}`.execute(database.db);
  const { key } = await createApiKey(cliCtx(config, database), { name: 'search-bench' }, userId);
  const app = await buildApp({ config, database, logger: false });
  const appUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, appUrl, headers: { authorization: `Bearer ${key}` } };
}

async function main() {
  const keep = process.env.SEARCH_BENCH_KEEP; // a folder to keep the seeded database in (and reuse on the next run)
  const dir = keep ?? mkdtempSync(path.join(tmpdir(), 'kb-search-bench-'));
  // DATABASE_URL set: a fresh database on that server (not kept), else PGlite.
  const { database, url, drop } = process.env.DATABASE_URL
    ? await freshDatabase('postgres', dir)
    : { database: await openDatabase({ dataDir: path.join(dir, 'db') }), url: undefined, drop: async () => {} };
  let app: FastifyInstance | undefined;
  try {
    const db = database.db;
    await migrateToLatest(db);
    const { workspaceId, userId } = await seededWorkspace(db, dir);
    await seedHugePages(db, workspaceId, HUGE);
    const ranking = rankingFromEnv();
    if (ranking) console.log(`ranking: ${ranking}`);
    const service = await startService(database, dir, url, userId);
    app = service.app;
    const queries = makeQueries();
    // Baselines: pages of the spaces the bench user may read (a private space's page would answer 404).
    const pageIds = (
      await sql<{ id: string }>`select p.id from pages p join spaces s on s.id = p.space_id and s.workspace_id = p.workspace_id
        where p.workspace_id = ${workspaceId} and s.visibility = 'public' order by random() limit 1000`.execute(db)
    ).rows.map((x) => x.id);
    const at = (i: number) => pageIds[i % pageIds.length];
    const get = (route: string) => timedGet(`${service.appUrl}${route}`, service.headers);
    const pageRead = { label: 'page read', run: (i: number) => get(`/api/v1/pages/${at(i)}?workspaceId=${workspaceId}`) };
    const bareSelect = { label: 'bare select', run: (i: number) => sql`select id, title, updated_at from pages where id = ${at(i)}`.execute(db) };
    const enc = encodeURIComponent;
    const only = process.env.SEARCH_BENCH_ONLY; // 'search' or 'suggest'
    for (const [label, list, route] of [
      ['search', queries.search, (q: string) => `/api/v1/search?workspaceId=${workspaceId}&limit=20&query=${enc(q)}`],
      ['suggest', queries.suggest, (q: string) => `/api/v1/search/suggest?workspaceId=${workspaceId}&limit=10&query=${enc(q)}`],
    ] as const) {
      if (process.env.SEARCH_BENCH_SEED_ONLY || (only && only !== label)) continue;
      const measured = { label, run: (i: number) => get(route(list[i])) };
      await timeInterleaved(Math.min(20, list.length), [measured, pageRead, bareSelect]); // warm-up
      const [l, read, bare] = await timeInterleaved(list.length, [measured, pageRead, bareSelect]);
      const p95 = percentile(l.sorted, 95);
      const goal = GOALS[label];
      console.log(`\n${describeLatencies(l)}`);
      console.log(`  baseline ${describeLatencies(read)}  (authenticated GET /api/v1/pages/:id, same HTTP and auth path)`);
      console.log(`  floor    ${describeLatencies(bare)}  (primary-key select, below HTTP)`);
      console.log(`  ${describeRatio(l, read)}`);
      console.log(
        `  goal at ${GOALS.atPages.toLocaleString('en-US')} pages: p95 < ${goal} ms; here (${PAGES.toLocaleString('en-US')} pages) p95 ${p95.toFixed(1)} ms ` +
          `beside the page read's ${percentile(read.sorted, 95).toFixed(1)} ms: ${p95 < goal ? 'met' : 'NOT met'}`,
      );
      if (process.env.SEARCH_BENCH_SLOW) {
        const each: [number, string][] = [];
        for (const q of list) each.push([await get(route(q)), q]);
        for (const [ms, q] of each.sort((a, b) => b[0] - a[0]).slice(0, 8)) console.log(`    ${ms.toFixed(1).padStart(7)} ms  ${q}`);
      }
    }
  } finally {
    await app?.close();
    await database.close();
    await drop();
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

await main();

/**
 * Search latency on a large workspace: `npx tsx bench/search-latency.ts` (SEARCH_BENCH_PAGES, default 100000;
 * SEARCH_BENCH_QUERIES, default 300). Seeds a fresh PGlite database (on disk, in a temporary folder) with
 * generated pages of team-wiki text through bulk SQL, then calls the search and suggest services one request at a
 * time, as the embedded database serves them, and prints p50/p95/p99 and throughput. Targets: search p95 < 50 ms,
 * suggest p95 < 20 ms.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { search, suggest } from '../src/areas/search/search.service.js';
import type { Ctx } from '../src/context.js';
import { migrateToLatest, openDatabase } from '../src/db/index.js';
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
const zipfName = () => NAMES[Math.floor(NAMES.length ** r.next()) - 1];
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

async function main() {
  const keep = process.env.SEARCH_BENCH_KEEP; // a folder to keep the seeded database in (for profiling)
  const dir = keep ?? mkdtempSync(path.join(tmpdir(), 'kb-search-bench-'));
  const database = await openDatabase({ dataDir: path.join(dir, 'db') });
  try {
    const db = database.db;
    await migrateToLatest(db);
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
    const BATCH = 2000;
    for (let start = 0; start < PAGES; start += BATCH) {
      const ids: string[] = [];
      const sp: string[] = [];
      const titles: string[] = [];
      const texts: string[] = [];
      const positions: string[] = [];
      const updated: string[] = [];
      for (let i = start; i < Math.min(PAGES, start + BATCH); i++) {
        const p = makePage(i);
        ids.push(newId());
        sp.push(spaces[i % spaces.length].id);
        titles.push(p.title);
        texts.push(p.text);
        positions.push(`a${String(i).padStart(7, '0')}`);
        updated.push(new Date(Date.UTC(2025, 0, 1) + i * 300_000).toISOString());
      }
      await sql`insert into pages (id, workspace_id, space_id, title, slug, content, text_content, position, updated_at)
        select id, ${workspaceId}, space_id, title, id, jsonb_build_object('type', 'doc', 'content', jsonb_build_array(jsonb_build_object('type', 'paragraph',
          'content', jsonb_build_array(jsonb_build_object('type', 'text', 'text', text))))), text, position, updated::timestamptz
        from unnest(${ids}::text[], ${sp}::text[], ${titles}::text[], ${texts}::text[], ${positions}::text[], ${updated}::text[])
          as x(id, space_id, title, text, position, updated)`.execute(db);
      if ((start / BATCH) % 10 === 9) process.stdout.write(`  seeded ${start + BATCH} pages (${((performance.now() - t0) / 1000).toFixed(0)} s)\n`);
    }
    await sql`vacuum analyze`.execute(db);
    console.log(`seeded ${PAGES} pages in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const ctx = { db, actor: { userId, via: 'jwt', apiKeyId: null }, log: console, now: () => new Date() } as unknown as Ctx;
    const words = [
      ...new Set(
        SENTENCES.join(' ')
          .toLowerCase()
          .match(/\p{L}{4,}/gu) ?? [],
      ),
    ];
    const searchQueries: string[] = [];
    for (let i = 0; i < QUERIES; i++) {
      const kind = i % 4;
      if (kind === 0) searchQueries.push(`how do I ${r.pick(words)} the ${r.pick(words)} ${r.pick(words)}?`);
      else if (kind === 1) searchQueries.push(`${r.pick(words)} ${r.pick(words)}`);
      else if (kind === 2) searchQueries.push(`${zipfName().toLowerCase()} ${r.pick(words).slice(0, 4)}`);
      else searchQueries.push(`"${r.pick(SENTENCES).split(' ').slice(1, 3).join(' ')}" -${r.pick(words)}`);
    }
    const suggestQueries = Array.from({ length: QUERIES }, (_, i) => {
      const w = i % 3 === 0 ? zipfName().toLowerCase() : r.pick(words);
      return w.slice(0, 2 + r.int(4));
    });

    for (const [label, queries, run] of [
      ['search', process.env.SEARCH_BENCH_SEED_ONLY ? [] : searchQueries, (q: string) => search(ctx, { query: q, workspaceId, limit: 20 })],
      ['suggest', process.env.SEARCH_BENCH_SEED_ONLY ? [] : suggestQueries, (q: string) => suggest(ctx, { query: q, workspaceId, limit: 10 })],
    ] as const) {
      if (!queries.length) continue;
      for (const q of queries.slice(0, 20)) await run(q); // warm-up
      const times: number[] = [];
      const began = performance.now();
      for (const q of queries) {
        const s = performance.now();
        await run(q);
        times.push(performance.now() - s);
      }
      const total = performance.now() - began;
      times.sort((a, b) => a - b);
      const target = label === 'search' ? 50 : 20;
      const p95 = percentile(times, 95);
      console.log(
        `${label.padEnd(8)} n=${times.length}  p50 ${percentile(times, 50).toFixed(1)} ms  p95 ${p95.toFixed(1)} ms  p99 ${percentile(times, 99).toFixed(1)} ms  ` +
          `max ${times.at(-1)?.toFixed(1)} ms  ${((times.length * 1000) / total).toFixed(0)} req/s  (target p95 < ${target} ms: ${p95 < target ? 'met' : 'NOT met'})`,
      );
    }
  } finally {
    await database.close();
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

await main();

/**
 * Disk churn of the search statistics (issue 29 §5): `DATABASE_URL=postgres://… npx tsx bench/search-stats-churn.ts`
 * (STATS_BENCH_PAGES, default 3,000; STATS_BENCH_WRITERS, default 10; STATS_BENCH_EDITS, default 0.2: that share of
 * the pages is edited once after the seed). PostgreSQL only: dead rows are what it measures, and PGlite's one
 * connection never leaves deltas.
 *
 * Two fresh databases on the same server, in the same run: (a) the schema as it is (migration 0038: statistics
 * counted on the write, folded in one statement per workspace and batch), (b) the baseline: the same schema with
 * 0038 rolled back (0016's design: every write upserts its terms in place, or leaves deltas a later write folds).
 * The same pages (generated team-wiki text, ~2 KB, the page-writes scenario's generator) are created through the
 * service (in process, `STATS_BENCH_WRITERS` at a time, as a team or an import does), then a share is edited. Then,
 * with no VACUUM and no autovacuum (this machine has it off): the search tables' size (`pg_total_relation_size`,
 * heap + indexes + TOAST), their live and dead rows (`pg_stat_user_tables`), the pages table's size (the data itself)
 * and the whole database's size. Ratios a/b. Then a `VACUUM FULL` of both, to tell dead space from live.
 */
import pg from 'pg';
import { type Kysely, sql } from 'kysely';
import { down as down0038 } from '../src/db/migrations/0038_search_stats_folded.js';
import { foldSearchStats } from '../src/areas/search/search.stats.repo.js';
import { randomSource, realisticDocument, seedSpace } from './scenarios/page-tree.js';
import { startTarget, type Target } from './lib/target.js';

const PAGES = Number(process.env.STATS_BENCH_PAGES ?? 3000);
const WRITERS = Number(process.env.STATS_BENCH_WRITERS ?? 10);
const EDITS = Number(process.env.STATS_BENCH_EDITS ?? 0.2);

if (!process.env.DATABASE_URL) {
  console.error('search-stats-churn measures dead rows on a PostgreSQL server: set DATABASE_URL');
  process.exit(1);
}

const TABLES = [
  'search_space_stats',
  'search_terms',
  'search_words',
  'search_space_stats_delta',
  'search_terms_delta',
  'search_words_delta',
  'search_stats_changes',
];

interface Figures {
  tables: Record<string, { bytes: number; live: number; dead: number }>;
  searchBytes: number;
  pagesBytes: number;
  dbBytes: number;
  seconds: number;
}

async function measure(t: Target): Promise<Omit<Figures, 'seconds'>> {
  const db = t.database.db;
  // Statistics of the last transactions reach pg_stat views when the backends report them (at most every 0.5 s idle).
  await new Promise((r) => setTimeout(r, 1500));
  const { rows } = await sql<{ name: string; bytes: string; live: string; dead: string }>`
    select c.relname as name, pg_total_relation_size(c.oid) as bytes, coalesce(s.n_live_tup, 0) as live, coalesce(s.n_dead_tup, 0) as dead
    from pg_class c left join pg_stat_user_tables s on s.relid = c.oid
    where c.relkind = 'r' and c.relnamespace = 'public'::regnamespace and c.relname = any(${TABLES}::text[])`.execute(db);
  const tables: Figures['tables'] = {};
  for (const r of rows) tables[r.name] = { bytes: Number(r.bytes), live: Number(r.live), dead: Number(r.dead) };
  const one = async (q: ReturnType<typeof sql<{ n: string }>>) => Number((await q.execute(db)).rows[0].n);
  return {
    tables,
    searchBytes: Object.values(tables).reduce((a, x) => a + x.bytes, 0),
    pagesBytes: await one(sql<{ n: string }>`select pg_total_relation_size('pages') as n`),
    dbBytes: await one(sql<{ n: string }>`select pg_database_size(current_database()) as n`),
  };
}

async function seed(t: Target, tag: string): Promise<number> {
  const s = await seedSpace(t, tag);
  const random = randomSource(2029);
  const bodies = Array.from({ length: PAGES }, (_, i) => ({ title: `Notes ${i + 1}`, doc: realisticDocument(random, 6).doc }));
  const ids: string[] = [];
  const t0 = performance.now();
  // The fold job, as a worker runs it when writers enqueue it (every 64 changes): here, once a second.
  let folding = Promise.resolve();
  const folder =
    tag === 'folded'
      ? setInterval(() => {
          folding = folding.then(() => foldSearchStats(t.database.db).then(() => {}));
        }, 1000)
      : undefined;
  let next = 0;
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (next < bodies.length) {
        const b = bodies[next++];
        const page = await t.call('POST', '/api/v1/pages', s.key, { workspaceId: s.workspaceId, spaceId: s.spaceId, title: b.title, content: b.doc });
        ids.push(page.data.id);
      }
    }),
  );
  // Edits: a share of the pages get a new paragraph (their terms change a little, as typing does).
  const edited = ids.slice(0, Math.floor(ids.length * EDITS));
  const editRandom = randomSource(7);
  let e = 0;
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (e < edited.length) {
        const id = edited[e++];
        await t.call('PUT', `/api/v1/pages/${id}`, s.key, { workspaceId: s.workspaceId, content: realisticDocument(editRandom, 7).doc });
      }
    }),
  );
  clearInterval(folder);
  await folding;
  // The last fold (the recurring run); the baseline has none (its deltas wait for the next writer that wins the lock).
  if (tag === 'folded') await foldSearchStats(t.database.db);
  return (performance.now() - t0) / 1000;
}

async function vacuumFull(t: Target): Promise<number> {
  const client = new pg.Client({ connectionString: t.config.DATABASE_URL });
  await client.connect();
  await client.query('vacuum full');
  await client.end();
  return Number((await sql<{ n: string }>`select pg_database_size(current_database()) as n`.execute(t.database.db)).rows[0].n);
}

const mb = (b: number) => `${(b / 1048576).toFixed(1)} MB`;

async function run(label: string, tag: string, setup: (t: Target) => Promise<void>): Promise<Figures & { fullBytes: number; fullSearchBytes: number }> {
  const t = await startTarget('postgres');
  try {
    await setup(t);
    const seconds = await seed(t, tag);
    const f = await measure(t);
    const fullBytes = await vacuumFull(t);
    const after = await measure(t);
    console.log(`\n(${label}) ${PAGES} pages, ${WRITERS} writers, ${Math.round(EDITS * 100)} % edited, seeded in ${seconds.toFixed(1)} s`);
    console.log('table                          size        live rows   dead rows   size after VACUUM FULL');
    for (const name of TABLES) {
      const x = f.tables[name];
      if (!x) continue;
      console.log(
        `${name.padEnd(30)} ${mb(x.bytes).padStart(9)}  ${String(x.live).padStart(10)}  ${String(x.dead).padStart(10)}   ${mb(after.tables[name]?.bytes ?? 0).padStart(9)}`,
      );
    }
    console.log(
      `search tables in all: ${mb(f.searchBytes)} (after VACUUM FULL ${mb(after.searchBytes)}); pages table ${mb(f.pagesBytes)}; database ${mb(f.dbBytes)} (after VACUUM FULL ${mb(fullBytes)})`,
    );
    return { ...f, seconds, fullBytes, fullSearchBytes: after.searchBytes };
  } finally {
    await t.close();
  }
}

const a = await run('a: statistics folded (0038)', 'folded', async () => {});
const b = await run('b: baseline, 0038 rolled back (0016: upserts per write)', 'baseline', async (t) => {
  await down0038(t.database.db as unknown as Kysely<unknown>);
});
const ratio = (x: number, y: number) => (y ? (x / y).toFixed(2) : '–');
const dead = (f: Figures) => Object.values(f.tables).reduce((s, x) => s + x.dead, 0);
console.log('\nratios a/b');
console.log(`search tables' size ${ratio(a.searchBytes, b.searchBytes)}; their dead rows ${dead(a)} vs ${dead(b)}; database ${ratio(a.dbBytes, b.dbBytes)}`);
console.log(`after VACUUM FULL: search tables ${ratio(a.fullSearchBytes, b.fullSearchBytes)}, database ${ratio(a.fullBytes, b.fullBytes)}`);
console.log(`seed time ${ratio(a.seconds, b.seconds)}`);
process.exit(0);

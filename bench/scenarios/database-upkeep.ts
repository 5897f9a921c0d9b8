import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { vacuumAndAnalyze } from '../../src/db/upkeep.js';
import { type Measurement, median } from '../lib/measure.js';
import { percentile, timedGet } from '../lib/sequential.js';
import type { Target } from '../lib/target.js';
import { seedSpace } from './page-tree.js';
import type { Scenario } from './types.js';

const ROOTS = Number(process.env.UPKEEP_BENCH_ROOTS ?? 100);
const CHILDREN = Number(process.env.UPKEEP_BENCH_CHILDREN ?? 30);
/** Requests per route and phase, one at a time (before the upkeep run a list can take seconds: a load generator's would time out). */
const REQUESTS = Number(process.env.UPKEEP_BENCH_REQUESTS ?? 20);
/** Runs of the upkeep with nothing changed, timed one after another (the median is reported). */
const IDLE_RUNS = 30;

/**
 * Sends the routes' requests one at a time over kept-alive connections, interleaved (a, c, a, c, …), after one
 * unmeasured request each; a Measurement per route: req/s is one client's (1000 / mean ms), CPU is this process's
 * per request over the whole loop (both routes).
 */
async function sequential(routes: { label: string; url: string; headers: Record<string, string> }[]): Promise<Measurement[]> {
  for (const r of routes) await timedGet(r.url, r.headers);
  const times = routes.map(() => [] as number[]);
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < REQUESTS; i++) for (const [k, r] of routes.entries()) times[k].push(await timedGet(r.url, r.headers));
  const cpu = process.cpuUsage(cpu0);
  return routes.map((r, k) => {
    const sorted = times[k].sort((a, b) => a - b);
    const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
    return {
      label: r.label,
      reqPerSec: 1000 / mean,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      requests: sorted.length,
      errors: 0,
      non2xx: 0,
      cpuPerRequest: (cpu.user + cpu.system) / (REQUESTS * routes.length),
    };
  });
}

/** `ROOTS` root pages of `CHILDREN` children each, created through the service's API (8 at a time), as a team would. */
async function seedThroughApi(target: Target, s: Awaited<ReturnType<typeof seedSpace>>) {
  const create = (title: string, parentId?: string) =>
    target.call('POST', '/api/v1/pages', s.key, {
      workspaceId: s.workspaceId,
      spaceId: s.spaceId,
      title,
      markdown: `Notes on ${title}.`,
      ...(parentId ? { parentId } : {}),
    });
  const inParallel = async <T>(items: T[], fn: (item: T) => Promise<unknown>) => {
    for (let i = 0; i < items.length; i += 8) await Promise.all(items.slice(i, i + 8).map(fn));
  };
  const roots: string[] = [];
  await inParallel(
    Array.from({ length: ROOTS }, (_, i) => i),
    async (i) => roots.push((await create(`Topic ${i + 1}`)).data.id),
  );
  await inParallel(
    roots.flatMap((id, r) => Array.from({ length: CHILDREN }, (_, j) => ({ id, title: `Note ${r + 1}.${j + 1}` }))),
    ({ id, title }) => create(title, id),
  );
}

/**
 * Issue 29: a fresh database seeded through the API (no bulk path, nothing analyzes it: PGlite has no autovacuum, and
 * the PostgreSQL server here runs with `autovacuum = off`), then the list of the roots with `childCount` through HTTP
 * (a) before and (b) after one `database.upkeep` run, each interleaved with (c) an authenticated read of one page by
 * id (a primary-key plan, indifferent to statistics: the machine's drift between the two). One request at a time
 * (UPKEEP_BENCH_REQUESTS each): before the run a list takes seconds, and a load generator's requests time out. Also the upkeep run's own cost:
 * the run that analyzes, and the median of runs with nothing changed, beside a `select 1` round trip.
 */
export const databaseUpkeep: Scenario = {
  name: 'database-upkeep',
  description: `list the ${ROOTS} roots (childCount) of a ${ROOTS * (CHILDREN + 1)}-page space seeded through the API, before and after one upkeep run`,
  async run(target) {
    const s = await seedSpace(target, 'upkeep');
    const seedStart = performance.now();
    await seedThroughApi(target, s);
    console.log(`  seeded ${ROOTS * (CHILDREN + 1)} pages through the API in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
    const db = target.database.db;
    const list = `/api/v1/pages?workspaceId=${s.workspaceId}&spaceId=${s.spaceId}&parentId=null&limit=${ROOTS}`;
    const full = await target.call('GET', list, s.key);
    if (full.meta.total !== ROOTS || full.data[0].childCount !== CHILDREN)
      throw new Error(`seeded ${full.meta.total} roots, ${full.data[0].childCount} children`);
    const auth = { authorization: `Bearer ${s.key}` };
    const routes = (when: string) => [
      { label: `(${when === 'before' ? 'a' : 'b'}) GET /api/v1/pages roots + childCount, ${when} upkeep`, url: `${target.appUrl}${list}`, headers: auth },
      { label: `(c) GET /api/v1/pages/:id, ${when} upkeep`, url: `${target.appUrl}/api/v1/pages/${full.data[0].id}`, headers: auth },
    ];
    const analyzedBefore = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_user_tables where schemaname = current_schema() and (last_analyze is not null or last_autoanalyze is not null)`.execute(
      db,
    );
    console.log(`  tables analyzed before the upkeep run: ${analyzedBefore.rows[0].n}`);

    const before = await sequential(routes('before'));

    const t0 = performance.now();
    const done = await vacuumAndAnalyze(db);
    const workMs = performance.now() - t0;
    console.log(`  upkeep run: ${workMs.toFixed(0)} ms; vacuumed ${done.vacuumed.join(', ') || 'none'}; analyzed ${done.analyzed.join(', ') || 'none'}`);
    const idle: number[] = [];
    const ping: number[] = [];
    for (let i = 0; i < IDLE_RUNS; i++) {
      const p0 = performance.now();
      await sql`select 1`.execute(db);
      ping.push(performance.now() - p0);
      const i0 = performance.now();
      const again = await vacuumAndAnalyze(db);
      idle.push(performance.now() - i0);
      if (again.vacuumed.length || again.analyzed.length) console.log(`  (an idle run still found work: ${JSON.stringify(again)})`);
    }
    console.log(`  upkeep run with nothing changed: median ${median(idle).toFixed(2)} ms over ${IDLE_RUNS} runs; select 1: ${median(ping).toFixed(2)} ms`);

    const after = await sequential(routes('after'));
    return {
      measurements: [...before, ...after],
      ratios: [
        { label: 'b/a (root list after vs before the upkeep run)', value: after[0].reqPerSec / before[0].reqPerSec },
        { label: 'a/c before (root list vs page read)', value: before[0].reqPerSec / before[1].reqPerSec },
        { label: 'b/c after (root list vs page read)', value: after[0].reqPerSec / after[1].reqPerSec },
        { label: 'c after/c before (machine drift)', value: after[1].reqPerSec / before[1].reqPerSec },
        { label: 'idle upkeep run / select 1 (time)', value: median(idle) / median(ping) },
      ],
    };
  },
};

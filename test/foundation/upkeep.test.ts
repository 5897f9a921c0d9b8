import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { ServiceEnv } from '../../src/context.js';
import { vacuumAndAnalyze } from '../../src/db/upkeep.js';
import type { ClaimedJob } from '../../src/jobs/queue.js';
import { DATABASE_UPKEEP_JOB, collectJobs } from '../../src/jobs/registry.js';
import { useTestDatabase } from '../helpers/app.js';

const t = useTestDatabase();

const statsOf = async (table: string) => {
  await sql`select pg_stat_force_next_flush()`.execute(t.database.db);
  const { rows } = await sql<{ dead: number; analyzed: Date | null; vacuumed: Date | null }>`
    select n_dead_tup::int as dead, last_analyze as analyzed, last_vacuum as vacuumed from pg_stat_user_tables where relname = ${table}`.execute(t.database.db);
  return rows[0];
};

// On a server autovacuum may get to the table first, so the exact lists are checked on the embedded database, where
// nothing else ever vacuums or analyzes.
describe.skipIf(!!process.env.DATABASE_URL)('database upkeep on PGlite (no autovacuum)', () => {
  it('analyzes a table after many changes, vacuums it after many dead rows, and leaves small changes alone', async () => {
    await sql`create table upkeep_probe (id int primary key, v text)`.execute(t.database.db);
    await sql`insert into upkeep_probe select g, 'new' from generate_series(1, 1000) g`.execute(t.database.db);
    expect((await statsOf('upkeep_probe')).analyzed).toBeNull();

    const first = await vacuumAndAnalyze(t.database.db);
    expect(first.analyzed).toContain('upkeep_probe');
    expect((await statsOf('upkeep_probe')).analyzed).not.toBeNull();
    expect(await vacuumAndAnalyze(t.database.db)).toEqual({ vacuumed: [], analyzed: [] });

    await sql`update upkeep_probe set v = 'few' where id <= 10`.execute(t.database.db);
    expect(await vacuumAndAnalyze(t.database.db)).toEqual({ vacuumed: [], analyzed: [] });

    await sql`update upkeep_probe set v = 'many' where id <= 600`.execute(t.database.db);
    expect((await statsOf('upkeep_probe')).dead).toBeGreaterThanOrEqual(600);
    const second = await vacuumAndAnalyze(t.database.db);
    expect(second.vacuumed).toEqual(['upkeep_probe']);
    const after = await statsOf('upkeep_probe');
    expect(after.dead).toBe(0);
    expect(after.vacuumed).not.toBeNull();
  });
});

describe('the upkeep job', () => {
  const run = (databaseUrl: string | undefined) => {
    const handler = collectJobs().handlers.get(DATABASE_UPKEEP_JOB);
    if (!handler) throw new Error('no upkeep handler');
    const env = { config: { DATABASE_URL: databaseUrl } } as unknown as ServiceEnv;
    const log = { info: () => {}, error: () => {} };
    return handler({ id: 'j', kind: DATABASE_UPKEEP_JOB } as ClaimedJob, { db: t.database.db, env, log, signal: new AbortController().signal });
  };

  it('runs every ten minutes, and only on the embedded database', async () => {
    expect(collectJobs().recurring).toContainEqual({ kind: DATABASE_UPKEEP_JOB, everyMs: 600_000 });
    expect(await run('postgres://server/db')).toEqual({ skipped: 'the PostgreSQL server runs autovacuum' });
    await sql`create table upkeep_job_probe (id int primary key)`.execute(t.database.db);
    await sql`insert into upkeep_job_probe select g from generate_series(1, 500) g`.execute(t.database.db);
    const done = (await run(undefined)) as { analyzed: string[] };
    // On a server autovacuum may have analyzed it first; on PGlite nothing else does.
    if (!process.env.DATABASE_URL) expect(done.analyzed).toContain('upkeep_job_probe');
    expect((await statsOf('upkeep_job_probe')).analyzed ?? process.env.DATABASE_URL).toBeTruthy();
  });
});

import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { ServiceEnv } from '../../src/context.js';
import type { Db } from '../../src/db/index.js';
import { vacuumAndAnalyze } from '../../src/db/upkeep.js';
import type { ClaimedJob } from '../../src/jobs/queue.js';
import { DATABASE_UPKEEP_JOB, collectJobs } from '../../src/jobs/registry.js';
import type { TestApp } from '../helpers/app.js';
import { type ImportSuite, importFile, importSuite, makeZip } from '../imports/helpers.js';
import { createSpace } from '../spaces/helpers.js';

// Runs on PGlite (no autovacuum at all) and on a PostgreSQL server (`DATABASE_URL`); the tables these tests watch
// have `autovacuum_enabled = false`, so a server's autovacuum cannot get there first.
const onServer = !!process.env.DATABASE_URL;
const suite = importSuite();
let t: TestApp;
let db: Db;
let ws: ImportSuite['ws'];

beforeAll(() => {
  ({ t, ws } = suite);
  db = t.database.db;
});

interface Stats {
  live: number;
  dead: number;
  changed: number;
  inserted: number;
  analyzed: Date | null;
  vacuumed: Date | null;
  reltuples: number;
}

const statsOf = async (table: string): Promise<Stats> => {
  await sql`select pg_stat_force_next_flush()`.execute(db);
  const { rows } = await sql<Stats>`
    select n_live_tup::int as live, n_dead_tup::int as dead, n_mod_since_analyze::int as changed, n_ins_since_vacuum::int as inserted,
      last_analyze as analyzed, last_vacuum as vacuumed, c.reltuples::int as reltuples
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid where s.schemaname = current_schema() and s.relname = ${table}`.execute(db);
  return rows[0];
};

/**
 * The table's counters once `ready` holds: a server's other connections flush theirs to the statistics view a moment
 * after they go idle (PGlite has one connection, flushed by `statsOf`).
 */
async function settled(table: string, ready: (s: Stats) => boolean, ms = 15_000): Promise<Stats> {
  const until = Date.now() + ms;
  for (;;) {
    const s = await statsOf(table);
    if (ready(s) || Date.now() > until) return s;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The registered job's handler, run as the worker would (with `DATABASE_URL` in the settings when on a server). */
async function runJob() {
  const config = { ...t.config, DATABASE_URL: process.env.DATABASE_URL };
  const handler = collectJobs(undefined, config).handlers.get(DATABASE_UPKEEP_JOB);
  if (!handler) throw new Error('no upkeep handler');
  const env = { config } as unknown as ServiceEnv;
  const log = { info: () => {}, error: () => {} };
  return (await handler({ id: 'j', kind: DATABASE_UPKEEP_JOB } as ClaimedJob, { db, env, log, signal: new AbortController().signal })) as {
    vacuumed: string[];
    analyzed: string[];
  };
}

describe('database upkeep', () => {
  it('runs every DATABASE_UPKEEP_EVERY_MS (a minute by default), on PGlite and on a PostgreSQL server alike', () => {
    expect(collectJobs().recurring).toContainEqual({ kind: DATABASE_UPKEEP_JOB, everyMs: 60_000 });
    const config = loadConfig({ DATABASE_URL: 'postgres://server/db', DATABASE_UPKEEP_EVERY_MS: '5000' });
    expect(collectJobs(undefined, config).recurring).toContainEqual({ kind: DATABASE_UPKEEP_JOB, everyMs: 5_000 });
  });

  it('analyzes the pages table after many pages are created in a space, and a second run with nothing changed does nothing', async () => {
    await sql`alter table pages set (autovacuum_enabled = false)`.execute(db);
    const space = await createSpace(t, ws.admin, ws.workspace.id, { name: 'Many' });
    const before = await statsOf('pages');
    const N = 120;
    for (let i = 0; i < N; i += 10) {
      const created = await Promise.all(
        Array.from({ length: 10 }, (_, j) =>
          t.request({
            method: 'POST',
            url: '/api/v1/pages',
            token: ws.editor.token,
            body: { workspaceId: ws.workspace.id, spaceId: space.id, title: `Page ${i + j}`, markdown: 'Text.' },
          }),
        ),
      );
      for (const r of created) expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
    const grown = await settled('pages', (s) => s.changed >= before.changed + N);
    expect(grown.changed).toBeGreaterThanOrEqual(N);

    const first = await runJob();
    // On the server before the fix the job did nothing at all ("the PostgreSQL server runs autovacuum").
    expect([...first.analyzed, ...first.vacuumed]).toContain('pages');
    const analyzed = await statsOf('pages');
    expect(analyzed.analyzed).not.toBeNull();
    expect(analyzed.analyzed?.getTime()).toBeGreaterThan(before.analyzed?.getTime() ?? 0);
    expect(analyzed.changed).toBe(0);
    expect(analyzed.reltuples).toBeGreaterThanOrEqual(N);

    const second = await runJob();
    expect(second.analyzed).not.toContain('pages');
    expect(second.vacuumed).not.toContain('pages');
    expect((await statsOf('pages')).analyzed).toEqual(analyzed.analyzed);
    // PGlite's counters are exact at once; on a server other tables' late flushes may still be arriving.
    if (!onServer) expect(second).toEqual({ vacuumed: [], analyzed: [] });
  });

  it('analyzes a table after many changes, vacuums it after many dead rows or inserts, and leaves small changes alone', async () => {
    await sql`create table upkeep_probe (id int primary key, v text) with (autovacuum_enabled = false)`.execute(db);
    await sql`insert into upkeep_probe select g, 'new' from generate_series(1, 1000) g`.execute(db);
    expect((await settled('upkeep_probe', (s) => s.changed >= 1000)).analyzed).toBeNull();

    expect((await vacuumAndAnalyze(db)).analyzed).toContain('upkeep_probe');
    const analyzed = await statsOf('upkeep_probe');
    expect(analyzed.analyzed).not.toBeNull();
    expect(analyzed.vacuumed).toBeNull();
    const quiet = await vacuumAndAnalyze(db);
    expect([...quiet.analyzed, ...quiet.vacuumed]).not.toContain('upkeep_probe');

    await sql`update upkeep_probe set v = 'few' where id <= 10`.execute(db);
    await settled('upkeep_probe', (s) => s.changed >= 10);
    const few = await vacuumAndAnalyze(db);
    expect([...few.analyzed, ...few.vacuumed]).not.toContain('upkeep_probe');
    expect((await statsOf('upkeep_probe')).analyzed).toEqual(analyzed.analyzed);

    // Dead rows past 50 + 20 % of the live ones: vacuumed (and analyzed with it).
    await sql`update upkeep_probe set v = 'many' where id <= 600`.execute(db);
    expect((await settled('upkeep_probe', (s) => s.dead >= 600)).dead).toBeGreaterThanOrEqual(600);
    expect((await vacuumAndAnalyze(db)).vacuumed).toContain('upkeep_probe');
    const vacuumed = await statsOf('upkeep_probe');
    expect(vacuumed.dead).toBe(0);
    expect(vacuumed.vacuumed).not.toBeNull();

    // Inserts past 1,000 + 20 %: vacuumed too (the visibility map index-only scans read), as autovacuum would.
    await sql`insert into upkeep_probe select g, 'more' from generate_series(1001, 6000) g`.execute(db);
    await settled('upkeep_probe', (s) => s.inserted >= 5000);
    expect((await vacuumAndAnalyze(db)).vacuumed).toContain('upkeep_probe');
    const after = await statsOf('upkeep_probe');
    expect(after.inserted).toBe(0);
    expect(after.vacuumed?.getTime()).toBeGreaterThan(vacuumed.vacuumed?.getTime() ?? 0);
  });

  it('touches only the tables of kb’s own schema', async () => {
    await sql`create schema upkeep_other`.execute(db);
    await sql`create table upkeep_other.big (id int) with (autovacuum_enabled = false)`.execute(db);
    await sql`insert into upkeep_other.big select g from generate_series(1, 2000) g`.execute(db);
    await settled('big', () => true, 0);
    const done = await vacuumAndAnalyze(db);
    expect([...done.analyzed, ...done.vacuumed]).not.toContain('big');
    const { rows } = await sql<{ analyzed: Date | null }>`
      select last_analyze as analyzed from pg_stat_user_tables where schemaname = 'upkeep_other' and relname = 'big'`.execute(db);
    expect(rows[0].analyzed).toBeNull();
  });

  it('analyzes the tables a big import wrote right after it commits, without waiting for the job', async () => {
    const space = await createSpace(t, ws.admin, ws.workspace.id, { name: 'Imported' });
    const before = await statsOf('pages');
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) files[`Folder ${i % 10}/Note ${i}.md`] = `Note ${i}.`;
    const done = await importFile(t, ws.editor, { workspaceId: ws.workspace.id, spaceId: space.id }, { bytes: await makeZip(files), filename: 'big.zip' });
    expect(done.result).toMatchObject({ pages: 310 }); // 300 notes, 10 folders
    // The import's record says succeeded as its transaction commits; the analysis follows a moment later.
    const after = await settled('pages', (s) => (s.analyzed?.getTime() ?? 0) > (before.analyzed?.getTime() ?? 0), 10_000);
    expect(after.analyzed?.getTime()).toBeGreaterThan(before.analyzed?.getTime() ?? 0);
    expect(after.reltuples).toBeGreaterThanOrEqual(before.live + 310);
  });
});

describe.runIf(onServer)('database upkeep on a server: one run at a time', () => {
  it('does nothing while another session holds the upkeep lock', async () => {
    await db.connection().execute(async (conn) => {
      await sql`select pg_advisory_lock(hashtext('kb:database.upkeep'))`.execute(conn);
      try {
        expect(await vacuumAndAnalyze(db)).toEqual({ vacuumed: [], analyzed: [], busy: true });
      } finally {
        await sql`select pg_advisory_unlock(hashtext('kb:database.upkeep'))`.execute(conn);
      }
    });
    expect((await vacuumAndAnalyze(db)).busy).toBeUndefined();
  });
});

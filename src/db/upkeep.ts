import { sql } from 'kysely';
import { type Db, embeddedEngineOf } from './index.js';

export interface UpkeepResult {
  vacuumed: string[];
  analyzed: string[];
  /** Another session held the upkeep lock: this run did nothing (that one does the work). */
  busy?: true;
}

/** The session-level advisory lock one upkeep run holds (`hashtext('kb:database.upkeep')`): one run at a time across instances. */
const LOCK = sql`hashtext('kb:database.upkeep')`;

/** A table autovacuum analyzed or vacuumed this recently is left to it. */
export const AUTOVACUUM_RECENT_MS = 10 * 60_000;

interface TableStats {
  table: string;
  /** Past a vacuum threshold: dead rows, or rows inserted since the last vacuum (which sets the visibility map). */
  vacuum: boolean;
  /** Past the analysis threshold: rows inserted, updated or deleted since the last analysis. */
  analyze: boolean;
  /** Autovacuum runs on this table (the server's `autovacuum` on, the table's `autovacuum_enabled` not off). */
  auto: boolean;
  /** Autovacuum analyzed or vacuumed it within AUTOVACUUM_RECENT_MS. */
  autoRecent: boolean;
}

/**
 * What autovacuum does, for a database where nothing does it: PGlite runs PostgreSQL in single-user mode (no
 * background workers at all), and a server may run with `autovacuum = off` (or a table with `autovacuum_enabled =
 * false`). Without it the tables are never analyzed (the planner guesses from no statistics: it picked a whole-space
 * scan per root for a list of 100 roots with their child counts, and a 10,000-row scan and sort over an index for a
 * 20-row page of a list) nor vacuumed (the dead rows of every update pile up).
 *
 * Decided per table of kb's schema (`current_schema()`: kb's own tables, nothing else) from the database's own
 * counters (`pg_stat_user_tables`), with autovacuum's thresholds as the server has them set (defaults: 50 + 20 % of
 * the live rows dead, 1,000 + 20 % inserted since the last vacuum, 50 + 10 % changed since the last analysis):
 * `VACUUM (ANALYZE)` past a vacuum threshold, `ANALYZE` past the analysis one. A table autovacuum runs on and handled
 * within the last ten minutes is left to it. When nothing changed a run costs one read of the statistics view.
 *
 * One run at a time (a session advisory lock; a run that finds it held does nothing and says `busy`). VACUUM and
 * ANALYZE run on a connection of their own, outside any transaction.
 */
export async function vacuumAndAnalyze(db: Db, now: Date = new Date()): Promise<UpkeepResult> {
  const embedded = !!embeddedEngineOf(db);
  return db.connection().execute(async (conn) => {
    const { rows: locked } = await sql<{ ok: boolean }>`select pg_try_advisory_lock(${LOCK}) as ok`.execute(conn);
    if (!locked[0]?.ok) return { vacuumed: [], analyzed: [], busy: true };
    try {
      const result: UpkeepResult = { vacuumed: [], analyzed: [] };
      for (const t of await tableStats(conn, now, embedded)) {
        if (t.auto && t.autoRecent) continue;
        const name = sql.id(t.table);
        if (t.vacuum) {
          await sql`vacuum (analyze) ${name}`.execute(conn);
          result.vacuumed.push(t.table);
        } else if (t.analyze) {
          await sql`analyze ${name}`.execute(conn);
          result.analyzed.push(t.table);
        }
      }
      return result;
    } finally {
      await sql`select pg_advisory_unlock(${LOCK})`.execute(conn);
    }
  });
}

/**
 * The tables of kb's schema with what each needs, from their counters (flushed first: they reach the view lazily)
 * and autovacuum's thresholds as the server has them set.
 */
async function tableStats(db: Db, now: Date, embedded: boolean): Promise<TableStats[]> {
  // This session's own pending counters (PostgreSQL 15+); other sessions flush theirs within a second or so of going idle.
  await sql`select pg_stat_force_next_flush() where current_setting('server_version_num')::int >= 150000`.execute(db);
  const setting = (name: string) => sql`current_setting(${name})::float8`;
  const { rows } = await sql<TableStats>`
    select s.relname as table,
      (s.n_dead_tup > ${setting('autovacuum_vacuum_threshold')} + ${setting('autovacuum_vacuum_scale_factor')} * s.n_live_tup
        or s.n_ins_since_vacuum > ${setting('autovacuum_vacuum_insert_threshold')} + ${setting('autovacuum_vacuum_insert_scale_factor')} * s.n_live_tup) as vacuum,
      s.n_mod_since_analyze > ${setting('autovacuum_analyze_threshold')} + ${setting('autovacuum_analyze_scale_factor')} * s.n_live_tup as analyze,
      (current_setting('autovacuum') = 'on' and current_setting('track_counts') = 'on'
        and not coalesce('autovacuum_enabled=false' = any(c.reloptions), false)) as auto,
      coalesce(greatest(s.last_autovacuum, s.last_autoanalyze) > ${now}::timestamptz - make_interval(secs => ${AUTOVACUUM_RECENT_MS / 1000}), false) as auto_recent
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid
    where s.schemaname = current_schema()
    order by s.relname`.execute(db);
  // PGlite reports autovacuum on, but runs no launcher in single-user mode.
  return embedded ? rows.map((r) => ({ ...r, auto: false })) : rows;
}

/**
 * Right after a bulk write (an import) has committed: ANALYZE each named table of kb's schema the write changed by
 * more than 50 + 10 % of the rows the planner thinks it holds (`pg_class.reltuples`), so the next query plans with
 * the new rows counted instead of waiting for the next upkeep run. Tables the write barely touched are left alone.
 */
export async function analyzeAfterBulkWrite(db: Db, written: Record<string, number>): Promise<string[]> {
  const names = Object.keys(written).filter((t) => written[t] > 0);
  if (!names.length) return [];
  const { rows } = await sql<{ table: string; rows: number }>`
    select c.relname as table, greatest(c.reltuples, 0)::float8 as rows
    from pg_class c where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r' and c.relname = any(${names}::text[])`.execute(db);
  const analyzed: string[] = [];
  for (const r of rows.sort((a, b) => a.table.localeCompare(b.table))) {
    if (written[r.table] <= 50 + 0.1 * r.rows) continue;
    await sql`analyze ${sql.id(r.table)}`.execute(db);
    analyzed.push(r.table);
  }
  return analyzed;
}

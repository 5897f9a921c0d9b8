import { sql } from 'kysely';
import type { Db } from './index.js';

export interface UpkeepResult {
  vacuumed: string[];
  analyzed: string[];
}

/**
 * What autovacuum does, for the embedded database, which has none: PGlite runs PostgreSQL in single-user mode, with
 * no background workers, so without this its tables would never be analyzed (the planner then guesses, and picked a
 * 10,000-row scan and sort over an index for a 20-row page of a list) nor vacuumed (dead rows of every update would
 * pile up). The thresholds are autovacuum's defaults: VACUUM (ANALYZE) a table whose dead rows exceed 50 + 20 % of
 * its live rows, ANALYZE one whose rows changed since the last analysis exceed 50 + 10 %.
 */
export async function vacuumAndAnalyze(db: Db): Promise<UpkeepResult> {
  // Table counters reach the statistics views lazily; flush them first.
  await sql`select pg_stat_force_next_flush()`.execute(db);
  const { rows } = await sql<{ schema: string; table: string; live: number; dead: number; changed: number }>`
    select schemaname as schema, relname as table, n_live_tup::int as live, n_dead_tup::int as dead, n_mod_since_analyze::int as changed
    from pg_stat_user_tables order by relname`.execute(db);
  const result: UpkeepResult = { vacuumed: [], analyzed: [] };
  for (const t of rows) {
    const name = sql.id(t.schema, t.table);
    if (t.dead > 50 + 0.2 * t.live) {
      await sql`vacuum (analyze) ${name}`.execute(db);
      result.vacuumed.push(t.table);
    } else if (t.changed > 50 + 0.1 * t.live) {
      await sql`analyze ${name}`.execute(db);
      result.analyzed.push(t.table);
    }
  }
  return result;
}

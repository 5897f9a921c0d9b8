import { sql } from 'kysely';
import type { Db } from '../../db/index.js';

export interface FoldResult {
  /** Delta rows folded into the statistic tables. */
  folded: number;
  /** Whether the delta tables were vacuumed after (not inside a transaction, nor when nothing was folded). */
  vacuumed: boolean;
}

/**
 * Folds the search statistics' pending deltas (migration 0038's `search_stats_fold_all`, one statement), then vacuums
 * the delta tables: their rows were all just deleted, and a plain VACUUM makes that space reusable (and trims the
 * tables' empty tail), so they stay the size of one batch of writes without autovacuum. The statistic tables
 * themselves are updated in place, on pages kept with room (fillfactor), where older versions are pruned without VACUUM.
 */
export async function foldSearchStats(db: Db): Promise<FoldResult> {
  const { rows } = await sql<{ folded: string }>`select search_stats_fold_all() as folded`.execute(db);
  const folded = Number(rows[0].folded);
  if (!folded || db.isTransaction) return { folded, vacuumed: false };
  await sql`vacuum search_space_stats_delta, search_terms_delta, search_words_delta`.execute(db);
  return { folded, vacuumed: true };
}

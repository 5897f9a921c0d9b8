import type { AreaJobs } from '../../jobs/registry.js';
import { FOLD_JOB } from '../../db/migrations/0038_search_stats_folded.js';
import { foldSearchStats } from './search.stats.repo.js';

/** Folds the search statistics' deltas (see migration 0038). */
export const SEARCH_STATS_FOLD_JOB = FOLD_JOB;

/**
 * Writers enqueue the fold every `FOLD_EVERY` changes (from the trigger, one live job at most); a recurring run each
 * minute folds the tail of a quiet workspace. Reads are exact either way (they add the pending deltas).
 */
export const searchJobs: AreaJobs = {
  handlers: {
    [SEARCH_STATS_FOLD_JOB]: async (_job, jc) => foldSearchStats(jc.db),
  },
  recurring: [{ kind: SEARCH_STATS_FOLD_JOB, everyMs: 60_000 }],
};

import { type Config, loadConfig } from '../config.js';
import { vacuumAndAnalyze } from '../db/upkeep.js';
import { purgeFinishedJobs } from './queue.js';
import type { RecurringJob } from './scheduler.js';
import type { JobFailureHook, JobHandler } from './worker.js';
import { trashJobs } from '../areas/pages/trash/trash.jobs.js';
import { researchJobs } from '../areas/research/research.jobs.js';
import { knowledgeJobs } from '../areas/knowledge/knowledge.jobs.js';
import { attachmentJobs } from '../areas/attachments/attachments.jobs.js';
import { exportJobs } from '../areas/exports/exports.jobs.js';
import { importJobs } from '../areas/imports/imports.jobs.js';
import { notificationJobs } from '../areas/notifications/notifications.jobs.js';
import { webhookJobs } from '../areas/webhooks/webhooks.jobs.js';
import { eventJobs } from '../areas/events/events.jobs.js';
import { backupJobs } from '../backups/backups.jobs.js';
import { searchJobs } from '../areas/search/search.jobs.js';

/** What an area contributes to the background: handlers by job kind, and recurring jobs. */
export interface AreaJobs {
  handlers: Record<string, JobHandler>;
  /** By job kind: what the area does when the queue fails such a job without its handler (a lease expired on the last attempt). */
  onFailed?: Record<string, JobFailureHook>;
  /** Recurring jobs, or a function of the settings when their period is one. */
  recurring?: RecurringJob[] | ((config: Config) => RecurringJob[]);
}

/** The queue's own upkeep: finished jobs are kept a week (failed ones four), then deleted. */
const queueUpkeep: AreaJobs = {
  handlers: { 'jobs.purge': async (_job, jc) => ({ deleted: await purgeFinishedJobs(jc.db, 7) }) },
  recurring: [{ kind: 'jobs.purge', everyMs: 3600_000 }],
};

export const DATABASE_UPKEEP_JOB = 'database.upkeep';

/**
 * Database upkeep on both databases: what autovacuum would do, for PGlite (which has none) and for a server that runs
 * without it (`src/db/upkeep.ts` decides per table from the database's own counters; a run costs one read of them
 * when nothing changed). Every DATABASE_UPKEEP_EVERY_MS (default a minute), and at start.
 */
const databaseUpkeep: AreaJobs = {
  handlers: {
    [DATABASE_UPKEEP_JOB]: async (_job, jc) => {
      const done = await vacuumAndAnalyze(jc.db);
      if (done.vacuumed.length || done.analyzed.length) jc.log.info(done, 'database upkeep');
      return done;
    },
  },
  recurring: (config) => [{ kind: DATABASE_UPKEEP_JOB, everyMs: config.DATABASE_UPKEEP_EVERY_MS }],
};

const areas: AreaJobs[] = [
  queueUpkeep,
  databaseUpkeep,
  trashJobs,
  researchJobs,
  knowledgeJobs,
  attachmentJobs,
  exportJobs,
  importJobs,
  notificationJobs,
  eventJobs,
  webhookJobs,
  backupJobs,
  searchJobs,
];

/**
 * Every handler by kind, and the recurring jobs under `config` (the runtime's settings; the defaults when none is
 * given, never the process environment).
 */
export function collectJobs(list: AreaJobs[] = areas, config: Config = loadConfig({})) {
  const handlers = new Map<string, JobHandler>();
  const onFailed = new Map<string, JobFailureHook>();
  const recurring: RecurringJob[] = [];
  for (const area of list) {
    for (const [kind, handler] of Object.entries(area.handlers)) {
      if (handlers.has(kind)) throw new Error(`Two handlers for job kind ${kind}`);
      handlers.set(kind, handler);
    }
    for (const [kind, hook] of Object.entries(area.onFailed ?? {})) onFailed.set(kind, hook);
    const own = typeof area.recurring === 'function' ? area.recurring(config) : area.recurring;
    recurring.push(...(own ?? []));
  }
  return { handlers, onFailed, recurring };
}

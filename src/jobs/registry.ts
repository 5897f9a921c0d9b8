import { type Config, loadConfig } from '../config.js';
import { vacuumAndAnalyze } from '../db/upkeep.js';
import { purgeFinishedJobs } from './queue.js';
import type { RecurringJob } from './scheduler.js';
import type { JobHandler } from './worker.js';
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
  /** Recurring jobs, or a function of the settings when their period is one. */
  recurring?: RecurringJob[] | ((config: Config) => RecurringJob[]);
}

/** The queue's own upkeep: finished jobs are kept a week (failed ones four), then deleted. */
const queueUpkeep: AreaJobs = {
  handlers: { 'jobs.purge': async (_job, jc) => ({ deleted: await purgeFinishedJobs(jc.db, 7) }) },
  recurring: [{ kind: 'jobs.purge', everyMs: 3600_000 }],
};

export const DATABASE_UPKEEP_JOB = 'database.upkeep';

/** The embedded database has no autovacuum: vacuum and analyze what it would, every ten minutes (a server does its own). */
const databaseUpkeep: AreaJobs = {
  handlers: {
    [DATABASE_UPKEEP_JOB]: async (_job, jc) => {
      if (jc.env.config.DATABASE_URL) return { skipped: 'the PostgreSQL server runs autovacuum' };
      const done = await vacuumAndAnalyze(jc.db);
      if (done.vacuumed.length || done.analyzed.length) jc.log.info(done, 'database upkeep');
      return done;
    },
  },
  recurring: [{ kind: DATABASE_UPKEEP_JOB, everyMs: 600_000 }],
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
  const recurring: RecurringJob[] = [];
  for (const area of list) {
    for (const [kind, handler] of Object.entries(area.handlers)) {
      if (handlers.has(kind)) throw new Error(`Two handlers for job kind ${kind}`);
      handlers.set(kind, handler);
    }
    const own = typeof area.recurring === 'function' ? area.recurring(config) : area.recurring;
    recurring.push(...(own ?? []));
  }
  return { handlers, recurring };
}

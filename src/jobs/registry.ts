import { purgeFinishedJobs } from './queue.js';
import type { RecurringJob } from './scheduler.js';
import type { JobHandler } from './worker.js';
import { trashJobs } from '../areas/pages/trash/trash.jobs.js';
import { researchJobs } from '../areas/research/research.jobs.js';
import { knowledgeJobs } from '../areas/knowledge/knowledge.jobs.js';
import { attachmentJobs } from '../areas/attachments/attachments.jobs.js';

/** What an area contributes to the background: handlers by job kind, and recurring jobs. */
export interface AreaJobs {
  handlers: Record<string, JobHandler>;
  recurring?: RecurringJob[];
}

/** The queue's own upkeep: finished jobs are kept a week (failed ones four), then deleted. */
const queueUpkeep: AreaJobs = {
  handlers: { 'jobs.purge': async (_job, jc) => ({ deleted: await purgeFinishedJobs(jc.db, 7) }) },
  recurring: [{ kind: 'jobs.purge', everyMs: 3600_000 }],
};

const areas: AreaJobs[] = [queueUpkeep, trashJobs, researchJobs, knowledgeJobs, attachmentJobs];

export function collectJobs(list: AreaJobs[] = areas) {
  const handlers = new Map<string, JobHandler>();
  const recurring: RecurringJob[] = [];
  for (const area of list) {
    for (const [kind, handler] of Object.entries(area.handlers)) {
      if (handlers.has(kind)) throw new Error(`Two handlers for job kind ${kind}`);
      handlers.set(kind, handler);
    }
    recurring.push(...(area.recurring ?? []));
  }
  return { handlers, recurring };
}

import type { Ctx } from '../../context.js';
import { enqueue } from '../../jobs/queue.js';
import type { AreaJobs } from '../../jobs/registry.js';
import { dispatchEvents } from './events.dispatch.js';

export const EVENTS_DISPATCH_JOB = 'events.dispatch';
/** The recurring run: what no nudge reached (a crash between commit and nudge, a nudge that found a run finishing). */
export const EVENTS_DISPATCH_EVERY_MS = 2000;
const NUDGE_KEY = 'events.dispatch:nudge';

/**
 * Asks for a dispatch soon, after a change that recorded events has COMMITTED (outside its transaction: the queue's
 * dedupe catches a unique violation, which would abort a transaction). At most one nudge is live at a time; a failure
 * is logged and left to the recurring run, never failing the change that already committed.
 */
export async function nudgeEventDispatch(ctx: Pick<Ctx, 'db' | 'log'>): Promise<void> {
  try {
    await enqueue(ctx.db, { kind: EVENTS_DISPATCH_JOB, dedupeKey: NUDGE_KEY, maxAttempts: 3 });
  } catch (err) {
    ctx.log.warn({ err }, 'could not nudge the event dispatcher; the recurring run will pick the events up');
  }
}

export const eventJobs: AreaJobs = {
  handlers: {
    [EVENTS_DISPATCH_JOB]: async (_job, jc) => dispatchEvents(jc.db, { log: jc.log }),
  },
  recurring: [{ kind: EVENTS_DISPATCH_JOB, everyMs: EVENTS_DISPATCH_EVERY_MS }],
};

import type { Db } from '../db/index.js';
import { enqueueRecurring } from './queue.js';

export interface RecurringJob {
  kind: string;
  everyMs: number;
  payload?: Record<string, unknown>;
}

/**
 * Enqueues recurring jobs. The dedupe key holds one live job per kind across all instances, and a tick that finds a
 * run already enqueued in the current period of the database's clock (by any instance) does nothing, so several
 * instances on one database run each recurring job once per period, not once per period per instance.
 */
export class Scheduler {
  private timers: NodeJS.Timeout[] = [];
  constructor(
    private readonly db: Db,
    private readonly jobs: RecurringJob[],
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  start() {
    for (const job of this.jobs) {
      const tick = () => enqueueRecurring(this.db, { kind: job.kind, everyMs: job.everyMs, payload: job.payload, maxAttempts: 3 }).catch(this.onError);
      void tick();
      const timer = setInterval(tick, job.everyMs);
      timer.unref();
      this.timers.push(timer);
    }
  }

  stop() {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
  }
}

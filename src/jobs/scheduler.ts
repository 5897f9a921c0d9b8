import type { Db } from '../db/index.js';
import { enqueue } from './queue.js';

export interface RecurringJob {
  kind: string;
  everyMs: number;
  payload?: Record<string, unknown>;
}

/**
 * Enqueues recurring jobs. The dedupe key holds one live job per kind across all instances, so several
 * instances on one database run each recurring job once per period.
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
      const tick = () => enqueue(this.db, { kind: job.kind, payload: job.payload, dedupeKey: `recurring:${job.kind}`, maxAttempts: 3 }).catch(this.onError);
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

import { sql } from 'kysely';
import type { Db } from '../db/index.js';

export interface QueueCounts {
  kind: string;
  /** Queued jobs whose time has come: waiting for a worker. */
  ready: number;
  running: number;
  /** Seconds since the longest-waiting ready job became runnable (0 when none waits). */
  oldestReadyAgeSeconds: number;
}

export interface FailedCounts {
  kind: string;
  failed: number;
}

/** The job queue as a scrape sees it: cheap counts read at scrape time, so every instance reports the same shared queue. */
export const metricsRepo = {
  /** Ready and running jobs by kind; both conditions match a partial index (jobs_runnable, jobs_leased). */
  async queueByKind(db: Db): Promise<QueueCounts[]> {
    const { rows } = await sql<QueueCounts>`
      select kind,
        count(*) filter (where status = 'queued')::int as ready,
        count(*) filter (where status = 'running')::int as running,
        coalesce(extract(epoch from now() - min(run_at) filter (where status = 'queued')), 0)::float8 as "oldestReadyAgeSeconds"
      from jobs
      where (status = 'queued' and run_at <= now()) or status = 'running'
      group by kind`.execute(db);
    return rows;
  },

  /** Jobs that failed for good (no attempts left, or a permanent error) in the last `windowSeconds`, by kind. */
  async failedByKind(db: Db, windowSeconds: number): Promise<FailedCounts[]> {
    const { rows } = await sql<FailedCounts>`
      select kind, count(*)::int as failed
      from jobs
      where status = 'failed' and finished_at > now() - ${`${windowSeconds} seconds`}::interval
      group by kind`.execute(db);
    return rows;
  },
};

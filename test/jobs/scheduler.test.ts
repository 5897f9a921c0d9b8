import { describe, expect, it } from 'vitest';
import type { ServiceEnv } from '../../src/context.js';
import { Scheduler } from '../../src/jobs/scheduler.js';
import { type JobHandler, Worker } from '../../src/jobs/worker.js';
import { useTestDatabase } from '../helpers/app.js';

/** The recurring scheduler, as several instances run it over one database: once per period, never twice at once. */

const t = useTestDatabase();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function jobsOf(kind: string) {
  return t.database.db
    .selectFrom('jobs')
    .select(['id', 'status', 'dedupeKey', 'attempts'])
    .where('kind', '=', kind)
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
}

const liveCount = async (kind: string) => (await jobsOf(kind)).filter((j) => j.status === 'queued' || j.status === 'running').length;

function schedulers(n: number, kind: string, everyMs: number, errors: unknown[]) {
  return Array.from({ length: n }, () => new Scheduler(t.database.db, [{ kind, everyMs, payload: { from: 'scheduler' } }], (err) => errors.push(err)));
}

const worker = (kind: string, handler: JobHandler) =>
  new Worker({ db: t.database.db, env: {} as ServiceEnv, handlers: new Map([[kind, handler]]), concurrency: 2, pollMs: 20, leaseMs: 2000, baseBackoffMs: 10 });

describe('recurring scheduler', () => {
  it('schedules a recurring job once across two instances while it waits to run', async () => {
    const errors: unknown[] = [];
    const instances = schedulers(2, 'recurring-wait', 30, errors);
    for (const s of instances) s.start();
    await sleep(300); // about ten periods of each instance
    for (const s of instances) s.stop();
    const jobs = await jobsOf('recurring-wait');
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ status: 'queued', dedupeKey: 'recurring:recurring-wait', attempts: 0 });
    expect(errors).toEqual([]);
  });

  it('runs it, then schedules the next one, never two at once, across two schedulers and two workers', async () => {
    const errors: unknown[] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    const runs: string[] = [];
    const handler: JobHandler = async (job) => {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      expect(job.payload).toEqual({ from: 'scheduler' });
      runs.push(job.id);
      await sleep(40); // longer than a period: the next tick comes while this one runs
      inFlight--;
    };
    const instances = schedulers(2, 'recurring-run', 25, errors);
    const workers = [worker('recurring-run', handler), worker('recurring-run', handler)];
    for (const s of instances) s.start();
    for (const w of workers) w.start();
    const livePeaks: number[] = [];
    const until = Date.now() + 10_000;
    while (runs.length < 4 && Date.now() < until) {
      livePeaks.push(await liveCount('recurring-run'));
      await sleep(10);
    }
    for (const s of instances) s.stop();
    await Promise.all(workers.map((w) => w.stop()));

    expect(runs.length).toBeGreaterThanOrEqual(4); // rescheduled after each run
    expect(new Set(runs).size).toBe(runs.length); // each job ran once
    expect(mostInFlight).toBe(1); // never two runs at once
    expect(Math.max(...livePeaks)).toBe(1); // never two live jobs
    const jobs = await jobsOf('recurring-run');
    for (const id of runs) expect(jobs.find((j) => j.id === id)).toMatchObject({ status: 'done', attempts: 1 });
    expect(jobs.filter((j) => j.status === 'queued' || j.status === 'running').length).toBeLessThanOrEqual(1);
    expect(errors).toEqual([]);
  });

  it('runs a quick job once per period across two schedulers ticking out of step, not once per scheduler', async () => {
    const errors: unknown[] = [];
    const runs: string[] = [];
    const [first, second] = schedulers(2, 'recurring-quick', 200, errors);
    const workers = [worker('recurring-quick', async (job) => void runs.push(job.id)), worker('recurring-quick', async (job) => void runs.push(job.id))];
    for (const w of workers) w.start();
    first.start();
    await sleep(100); // half a period out of step: each finished run leaves the other scheduler free to enqueue
    second.start();
    await sleep(2000); // ten periods
    for (const s of [first, second]) s.stop();
    await Promise.all(workers.map((w) => w.stop()));
    // Once per period would be about 11; once per scheduler, about 21.
    expect(runs.length).toBeGreaterThanOrEqual(8);
    expect(runs.length).toBeLessThanOrEqual(13);
    expect(new Set(runs).size).toBe(runs.length);
    expect(errors).toEqual([]);
  });

  it('schedules nothing more once stopped', async () => {
    const errors: unknown[] = [];
    const [scheduler] = schedulers(1, 'recurring-stop', 20, errors);
    scheduler.start();
    await sleep(50);
    scheduler.stop();
    const before = await jobsOf('recurring-stop');
    expect(before).toHaveLength(1);
    await t.database.db.updateTable('jobs').set({ status: 'done', finishedAt: new Date() }).where('kind', '=', 'recurring-stop').execute();
    await sleep(100); // five periods: a running timer would have queued a new one
    expect(await jobsOf('recurring-stop')).toHaveLength(1);
    expect(errors).toEqual([]);
  });
});

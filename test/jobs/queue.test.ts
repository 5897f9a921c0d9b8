import { describe, expect, it } from 'vitest';
import type { ServiceEnv } from '../../src/context.js';
import { claimNext, type EndedJob, enqueue, getJob, purgeFinishedJobs, requestCancel } from '../../src/jobs/queue.js';
import { type JobFailureHook, type JobHandler, PermanentJobError, Worker } from '../../src/jobs/worker.js';
import { useTestDatabase } from '../helpers/app.js';

const t = useTestDatabase();

async function waitFor<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
}

const worker = (kind: string, handler: JobHandler, extra: Partial<ConstructorParameters<typeof Worker>[0]> = {}) =>
  new Worker({
    db: t.database.db,
    env: {} as ServiceEnv,
    handlers: new Map([[kind, handler]]),
    concurrency: 2,
    pollMs: 20,
    leaseMs: 2000,
    baseBackoffMs: 10,
    ...extra,
  });

/** Resolves when the signal aborts: a handler that ends only when cancelled, its lease lost or the worker stopping. */
const aborted = (signal: AbortSignal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));

/** A started worker running one job of `kind` whose handler ends only when aborted; resolves once the handler runs. */
async function busyWorker(kind: string, extra: Partial<ConstructorParameters<typeof Worker>[0]> = {}) {
  let started = false;
  const w = worker(
    kind,
    async (_job, ctx) => {
      started = true;
      await aborted(ctx.signal);
    },
    extra,
  );
  const id = (await enqueue(t.database.db, { kind })) as string;
  w.start();
  await waitFor(
    async () => started,
    (s) => s,
  );
  return { w, id };
}

describe('job queue', () => {
  it('runs every job exactly once with two workers claiming concurrently', async () => {
    const runs = new Map<string, number>();
    const handler: JobHandler = async (job) => {
      runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, 5));
    };
    const ids = [];
    for (let i = 0; i < 20; i++) ids.push(await enqueue(t.database.db, { kind: 'once', payload: { i } }));
    const a = worker('once', handler);
    const b = worker('once', handler);
    a.start();
    b.start();
    await waitFor(
      async () => runs.size,
      (n) => n === 20,
    );
    await Promise.all([a.stop(), b.stop()]);
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    const statuses = await Promise.all(ids.map(async (id) => (await getJob(t.database.db, id as string))?.status));
    expect(new Set(statuses)).toEqual(new Set(['done']));
  });

  it('lets another worker take over a job whose lease ran out', async () => {
    const id = (await enqueue(t.database.db, { kind: 'lease' })) as string;
    const first = await claimNext(t.database.db, 'dead-worker', ['lease'], 100);
    expect(first?.id).toBe(id);
    expect(await claimNext(t.database.db, 'other', ['lease'], 100)).toBeNull(); // still leased
    await new Promise((r) => setTimeout(r, 150));
    const second = await claimNext(t.database.db, 'other', ['lease'], 1000);
    expect(second).toMatchObject({ id, attempts: 2 });
    expect((await getJob(t.database.db, id))?.lockedBy).toBe('other');
  });

  it('retries a retryable failure with backoff and fails a permanent one at once', async () => {
    let calls = 0;
    const flaky = worker('flaky', async () => {
      calls++;
      if (calls < 3) throw new Error(`transient ${calls}`);
      return { ok: true };
    });
    const id = (await enqueue(t.database.db, { kind: 'flaky', maxAttempts: 5 })) as string;
    flaky.start();
    const done = await waitFor(
      () => getJob(t.database.db, id),
      (j) => j?.status === 'done',
    );
    await flaky.stop();
    expect(done).toMatchObject({ status: 'done', attempts: 3, lastError: 'transient 2', result: { ok: true } });

    const broken = worker('broken', async () => {
      throw new PermanentJobError('bad input');
    });
    const id2 = (await enqueue(t.database.db, { kind: 'broken', maxAttempts: 5 })) as string;
    broken.start();
    const failed = await waitFor(
      () => getJob(t.database.db, id2),
      (j) => j?.status === 'failed',
    );
    await broken.stop();
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, lastError: 'bad input' });
  });

  it('gives up after maxAttempts', async () => {
    const w = worker('always', async () => {
      throw new Error('nope');
    });
    const id = (await enqueue(t.database.db, { kind: 'always', maxAttempts: 2 })) as string;
    w.start();
    const failed = await waitFor(
      () => getJob(t.database.db, id),
      (j) => j?.status === 'failed',
    );
    await w.stop();
    expect(failed).toMatchObject({ status: 'failed', attempts: 2 });
  });

  it('makes a cancellation visible to the running handler and cancels a queued job at once', async () => {
    let sawAbort = false;
    let started = false;
    const w = worker(
      'long',
      async (_job, ctx) => {
        started = true;
        await aborted(ctx.signal);
        sawAbort = true;
      },
      { leaseMs: 150 },
    );
    const id = (await enqueue(t.database.db, { kind: 'long' })) as string;
    w.start();
    await waitFor(
      async () => started,
      (s) => s,
    );
    expect(await requestCancel(t.database.db, id)).toBe('running');
    const job = await waitFor(
      () => getJob(t.database.db, id),
      (j) => j?.status === 'cancelled',
    );
    await w.stop();
    expect(sawAbort).toBe(true);
    expect(job?.status).toBe('cancelled');

    const queued = (await enqueue(t.database.db, { kind: 'never-claimed' })) as string;
    expect(await requestCancel(t.database.db, queued)).toBe('cancelled');
    expect(await claimNext(t.database.db, 'w', ['never-claimed'], 1000)).toBeNull();
  });

  it('keeps one live job per dedupe key', async () => {
    const first = await enqueue(t.database.db, { kind: 'purge', dedupeKey: 'recurring:purge' });
    const second = await enqueue(t.database.db, { kind: 'purge', dedupeKey: 'recurring:purge' });
    expect(first).toBeTypeOf('string');
    expect(second).toBeNull();
  });

  it('does not run a job before its time', async () => {
    await enqueue(t.database.db, { kind: 'later', runAt: new Date(Date.now() + 60_000) });
    expect(await claimNext(t.database.db, 'w', ['later'], 1000)).toBeNull();
  });
});

describe('a job whose worker died on its last attempt', () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const mustNotRun: JobHandler = async () => {
    throw new Error('a job past its attempts ran again');
  };

  /** A job of `kind` claimed `maxAttempts` times by workers that died (their leases of 50 ms ran out). */
  async function exhausted(kind: string, maxAttempts: number) {
    const id = (await enqueue(t.database.db, { kind, maxAttempts })) as string;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      expect(await claimNext(t.database.db, `crashed-${attempt}`, [kind], 50)).toMatchObject({ id, attempts: attempt });
      await sleep(80);
    }
    return id;
  }

  it('is never claimed again: it ends failed with its error, and its kind hears of it in the same transaction', async () => {
    const id = await exhausted('crashy', 2);
    // Issue 29: claimNext took it again (attempts 3 of 2, then 4…), and the import it drove said `running` for ever.
    expect(await claimNext(t.database.db, 'other', ['crashy'], 1000)).toBeNull();
    const heard: { job: EndedJob; statusInside: string | undefined }[] = [];
    const hook: JobFailureHook = async (job, ctx) => {
      heard.push({ job, statusInside: (await getJob(ctx.db, job.id))?.status });
    };
    const w = worker('crashy', mustNotRun, { leaseMs: 100, onFailed: new Map([['crashy', hook]]) });
    w.start();
    const failed = await waitFor(
      () => getJob(t.database.db, id),
      (j) => j?.status === 'failed',
    );
    await w.stop();
    expect(failed).toMatchObject({ status: 'failed', attempts: 2, leaseUntil: null });
    expect(failed?.lastError).toMatch(/^lease expired after the last attempt \(2 of 2\): the worker running it stopped before it finished$/);
    expect(failed?.finishedAt).toBeInstanceOf(Date);
    expect(heard).toHaveLength(1);
    expect(heard[0].job).toMatchObject({ id, kind: 'crashy', status: 'failed', attempts: 2, maxAttempts: 2 });
    expect(heard[0].statusInside).toBe('failed');
  });

  it('keeps the error of the attempt before, and fails the job even when its hook throws', async () => {
    const id = (await enqueue(t.database.db, { kind: 'crashy2', maxAttempts: 2 })) as string;
    // Its retry waits long enough (backoff from 300 ms) for this worker to stop before taking it again.
    const w1 = worker(
      'crashy2',
      async () => {
        throw new Error('disk full');
      },
      { baseBackoffMs: 300 },
    );
    w1.start();
    await waitFor(
      () => getJob(t.database.db, id),
      (j) => j?.status === 'queued' && j.attempts === 1,
    );
    await w1.stop();
    await waitFor(
      () => getJob(t.database.db, id),
      (j) => !!j && j.runAt.getTime() <= Date.now(),
    );
    expect(await claimNext(t.database.db, 'crashed', ['crashy2'], 50)).toMatchObject({ id, attempts: 2 });
    await sleep(80);
    const w2 = worker('crashy2', mustNotRun, {
      leaseMs: 100,
      onFailed: new Map([
        [
          'crashy2',
          async () => {
            throw new Error('hook broken');
          },
        ],
      ]),
    });
    w2.start();
    const failed = await waitFor(
      () => getJob(t.database.db, id),
      (j) => j?.status === 'failed',
    );
    await w2.stop();
    expect(failed?.lastError).toBe('lease expired after the last attempt (2 of 2): the worker running it stopped before it finished; the attempt before failed with: disk full');
  });

  it('cancels a running job asked to cancel whose worker died, whatever its attempts', async () => {
    const id = (await enqueue(t.database.db, { kind: 'crashy3', maxAttempts: 5 })) as string;
    expect(await claimNext(t.database.db, 'crashed', ['crashy3'], 50)).toMatchObject({ id, attempts: 1 });
    expect(await requestCancel(t.database.db, id)).toBe('running');
    await sleep(80);
    const w = worker('crashy3', mustNotRun, { leaseMs: 100 });
    w.start();
    const done = await waitFor(
      () => getJob(t.database.db, id),
      (j) => j?.status === 'cancelled',
    );
    await w.stop();
    expect(done).toMatchObject({ status: 'cancelled', attempts: 1 });
  });
});

describe('worker shutdown', () => {
  it('puts a job that outlives the grace period back in the queue', async () => {
    const { w, id } = await busyWorker('slow');
    await w.stop(50);
    expect(await getJob(t.database.db, id)).toMatchObject({ status: 'queued', attempts: 0, lockedBy: null });
    expect(await claimNext(t.database.db, 'next', ['slow'], 1000)).toMatchObject({ id, attempts: 1 });
  });

  it('keeps to the grace period when every slot is busy', async () => {
    const { w, id } = await busyWorker('slow-full', { concurrency: 1 });
    const stopping = Date.now();
    await w.stop(50);
    expect(Date.now() - stopping).toBeLessThan(5_000);
    expect(await getJob(t.database.db, id)).toMatchObject({ status: 'queued', attempts: 0, lockedBy: null });
  });
});

describe('retention', () => {
  it('deletes finished jobs past their retention and keeps the rest', async () => {
    const old = (await enqueue(t.database.db, { kind: 'ret' })) as string;
    const recent = (await enqueue(t.database.db, { kind: 'ret' })) as string;
    const failed = (await enqueue(t.database.db, { kind: 'ret' })) as string;
    const queued = (await enqueue(t.database.db, { kind: 'ret-queued' })) as string;
    const ago = (days: number) => new Date(Date.now() - days * 86_400_000);
    await t.database.db
      .updateTable('jobs')
      .set({ status: 'done', finishedAt: ago(8) })
      .where('id', '=', old)
      .execute();
    await t.database.db
      .updateTable('jobs')
      .set({ status: 'done', finishedAt: ago(1) })
      .where('id', '=', recent)
      .execute();
    await t.database.db
      .updateTable('jobs')
      .set({ status: 'failed', finishedAt: ago(8) })
      .where('id', '=', failed)
      .execute();
    expect(await purgeFinishedJobs(t.database.db, 7)).toBe(1);
    expect(await getJob(t.database.db, old)).toBeUndefined();
    for (const id of [recent, failed, queued]) expect(await getJob(t.database.db, id)).toBeDefined();
  });

  it('keeps the event dispatcher’s finished runs (one every few seconds) an hour only', async () => {
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
    const dispatched = (await enqueue(t.database.db, { kind: 'events.dispatch' })) as string;
    const fresh = (await enqueue(t.database.db, { kind: 'events.dispatch' })) as string;
    const other = (await enqueue(t.database.db, { kind: 'ret' })) as string;
    await t.database.db
      .updateTable('jobs')
      .set({ status: 'done', finishedAt: hoursAgo(2) })
      .where('id', 'in', [dispatched, other])
      .execute();
    await t.database.db
      .updateTable('jobs')
      .set({ status: 'done', finishedAt: hoursAgo(0.5) })
      .where('id', '=', fresh)
      .execute();
    expect(await purgeFinishedJobs(t.database.db, 7)).toBe(1);
    expect(await getJob(t.database.db, dispatched)).toBeUndefined();
    for (const id of [fresh, other]) expect(await getJob(t.database.db, id)).toBeDefined();
  });
});

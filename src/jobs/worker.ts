import { hostname } from 'node:os';
import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { ServiceEnv } from '../context.js';
import type { Db } from '../db/index.js';
import { newId } from '../ids.js';
import { type ClaimedJob, claimNext, completeJob, type EndedJob, endExpiredJob, failJob, markCancelled, releaseJob, renewLease } from './queue.js';

/** What a handler gets besides the job: a signal that aborts when the job is cancelled or its lease is lost. */
export interface JobContext {
  db: Db;
  signal: AbortSignal;
  log: Logger;
  /** The service's settings and collaborators (blob store, token issuer), as requests get them. */
  env: ServiceEnv;
}

export type JobHandler = (job: ClaimedJob, ctx: JobContext) => Promise<unknown>;

/**
 * Called when the queue fails a job its handler could not answer for: its lease ran out on its last attempt (the
 * worker crashed or stopped mid-run). `ctx.db` is the transaction that fails the job, so what the job drives (an
 * import's record) says failed in the same commit. `job.lastError` says why.
 */
export type JobFailureHook = (job: EndedJob, ctx: JobContext) => Promise<void>;

/** A failure the handler marks as not worth retrying (bad input, a missing record). */
export class PermanentJobError extends Error {}

interface Logger {
  info(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface WorkerOptions {
  db: Db;
  env: ServiceEnv;
  handlers: Map<string, JobHandler>;
  /** By job kind: what to do when the queue fails such a job without its handler (see `JobFailureHook`). */
  onFailed?: Map<string, JobFailureHook>;
  /** Jobs run at once by this worker process. */
  concurrency: number;
  leaseMs?: number;
  pollMs?: number;
  baseBackoffMs?: number;
  log?: Logger;
  workerId?: string;
}

const silent: Logger = { info() {}, error() {} };

/**
 * Claims jobs from the database and runs their handlers, `concurrency` at a time. The lease is renewed while a
 * handler runs; a cancellation request or a lost lease aborts the handler's signal.
 */
export class Worker {
  readonly id: string;
  private running = false;
  private readonly active = new Set<Promise<void>>();
  private readonly controllers = new Set<AbortController>();
  private shuttingDown = false;
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly log: Logger;
  private lastSweep = 0;

  constructor(private readonly options: WorkerOptions) {
    this.id = options.workerId ?? `${hostname()}:${process.pid}:${newId().slice(-8)}`;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.pollMs = options.pollMs ?? 500;
    this.log = options.log ?? silent;
  }

  start() {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Tells the worker to look for work now (after an enqueue in this process). */
  poke() {
    this.wake?.();
  }

  /**
   * Stops claiming and waits up to `graceMs` for running handlers; then aborts them and puts their jobs back in
   * the queue (not counted as a failure), so a restart never strands a long job until its lease expires.
   */
  async stop(graceMs = 10_000) {
    this.running = false;
    this.poke();
    // The loop may be waiting for a free slot (every slot busy), so the grace period covers it too: waiting for it
    // first would wait for a handler to end on its own, which one that ends only when aborted never does.
    const settled = (async () => {
      await this.loop;
      await Promise.allSettled([...this.active]);
    })();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([settled.then(() => false), new Promise<boolean>((r) => (timer = setTimeout(() => r(true), graceMs)))]);
    clearTimeout(timer);
    if (timedOut) {
      this.shuttingDown = true;
      for (const c of this.controllers) c.abort(new Error('worker shutting down'));
      await settled;
    }
  }

  private async run() {
    const kinds = [...this.options.handlers.keys()];
    while (this.running) {
      // A turn for requests between jobs: claims and job starts never run back to back on this thread.
      await yieldToRequests();
      if (this.active.size >= this.options.concurrency) {
        await Promise.race(this.active);
        continue;
      }
      await this.sweepExpired();
      let job: ClaimedJob | null = null;
      try {
        job = await claimNext(this.options.db, this.id, kinds, this.leaseMs);
      } catch (err) {
        this.log.error({ err }, 'job claim failed');
      }
      if (!job) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.pollMs);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = null;
        continue;
      }
      const task = this.execute(job).finally(() => this.active.delete(task));
      this.active.add(task);
    }
  }

  /**
   * Ends the jobs whose lease ran out on their last attempt (and cancelled ones whose worker died), each with its
   * kind's failure hook in the same transaction; at most once per lease period (5 s at most). A hook that throws is
   * logged and the job failed without it: a job must never stay `running` for ever.
   */
  private async sweepExpired() {
    if (Date.now() - this.lastSweep < Math.min(this.leaseMs, 5000)) return;
    this.lastSweep = Date.now();
    const { db, env } = this.options;
    const kinds = [...this.options.handlers.keys()];
    const jobContext = (trx: Db): JobContext => ({ db: trx, signal: new AbortController().signal, log: this.log, env });
    for (let i = 0; i < 100 && this.running; i++) {
      let ended: EndedJob | null = null;
      try {
        ended = await db.transaction().execute(async (trx) => {
          const job = await endExpiredJob(trx, kinds);
          const hook = job?.status === 'failed' ? this.options.onFailed?.get(job.kind) : undefined;
          if (job && hook) await hook(job, jobContext(trx));
          return job;
        });
      } catch (err) {
        this.log.error({ err }, 'ending an expired job with its failure hook failed; ending it without the hook');
        try {
          ended = await endExpiredJob(db, kinds);
        } catch (again) {
          this.log.error({ err: again }, 'ending expired jobs failed');
        }
      }
      if (!ended) return;
      const fields = { jobId: ended.id, kind: ended.kind, attempts: ended.attempts, error: ended.lastError };
      if (ended.status === 'failed') this.log.error(fields, 'job failed: its lease expired on its last attempt');
      else this.log.info(fields, 'job cancelled: its lease expired');
    }
  }

  private async execute(job: ClaimedJob) {
    const { db } = this.options;
    const handler = this.options.handlers.get(job.kind) as JobHandler;
    const controller = new AbortController();
    this.controllers.add(controller);
    let cancelled = false;
    const renew = setInterval(
      async () => {
        try {
          const state = await renewLease(db, job.id, this.id, this.leaseMs);
          if (!state.held || state.cancelRequested) {
            cancelled = state.cancelRequested;
            controller.abort(new Error(state.cancelRequested ? 'cancelled' : 'lease lost'));
          }
        } catch (err) {
          this.log.error({ err, jobId: job.id }, 'lease renewal failed');
        }
      },
      Math.max(50, Math.floor(this.leaseMs / 3)),
    );
    try {
      const result = await handler(job, { db, signal: controller.signal, log: this.log, env: this.options.env });
      if (controller.signal.aborted) {
        if (cancelled) await markCancelled(db, job.id, this.id);
        else if (this.shuttingDown) await releaseJob(db, job.id, this.id);
      } else await completeJob(db, job.id, this.id, result ?? null);
    } catch (err) {
      if (cancelled) await markCancelled(db, job.id, this.id).catch(() => {});
      else if (this.shuttingDown) await releaseJob(db, job.id, this.id).catch(() => {});
      else {
        const message = err instanceof Error ? err.message : String(err);
        const outcome = await failJob(db, job, this.id, message, !(err instanceof PermanentJobError), this.options.baseBackoffMs).catch(() => 'unknown');
        this.log.error({ err, jobId: job.id, kind: job.kind, outcome }, 'job failed');
      }
    } finally {
      clearInterval(renew);
      this.controllers.delete(controller);
    }
  }
}

import { sql } from 'kysely';
import type { Db } from '../db/index.js';
import type { JobStatus } from '../db/tables/jobs.js';
import { isUniqueViolation } from '../db/index.js';
import { newId } from '../ids.js';

export interface EnqueueOptions {
  kind: string;
  payload?: Record<string, unknown>;
  workspaceId?: string | null;
  /** Not before this time (default now). */
  runAt?: Date;
  maxAttempts?: number;
  /** At most one queued-or-running job per key; a second enqueue with a live key is a no-op. */
  dedupeKey?: string;
}

export interface ClaimedJob {
  id: string;
  kind: string;
  workspaceId: string | null;
  payload: Record<string, unknown>;
  attempts: number;
  maxAttempts: number;
}

/** Writes a job row; pass the transaction of the write that causes it so both commit or neither does. */
export async function enqueue(db: Db, options: EnqueueOptions): Promise<string | null> {
  const id = newId();
  try {
    await db
      .insertInto('jobs')
      .values({
        id,
        kind: options.kind,
        workspaceId: options.workspaceId ?? null,
        payload: JSON.stringify(options.payload ?? {}),
        runAt: options.runAt ?? new Date(),
        maxAttempts: options.maxAttempts ?? 5,
        dedupeKey: options.dedupeKey ?? null,
        leaseUntil: null,
        lockedBy: null,
        lastError: null,
        result: null,
        finishedAt: null,
      })
      .execute();
    return id;
  } catch (err) {
    if (options.dedupeKey && isUniqueViolation(err)) return null;
    throw err;
  }
}

/**
 * Enqueues a recurring job's run for the current period, unless one is live or one was already enqueued in this
 * period (by any instance). Periods are slots of the database's clock (`now()` cut into `everyMs` slices since the
 * epoch), so instances ticking on their own clocks and out of step still start one run a period between them: the
 * live-key index alone would let each instance start a run once the previous one finished (N instances, N runs a
 * period). One statement, so two instances ticking together cannot both pass the check (the second hits the index);
 * the check reads the period's rows through `jobs_workspace` (workspace_id null, kind, created_at), never the whole table.
 */
export async function enqueueRecurring(db: Db, options: { kind: string; everyMs: number; payload?: Record<string, unknown>; maxAttempts?: number }): Promise<string | null> {
  const id = newId();
  const dedupeKey = `recurring:${options.kind}`;
  const everyMs = Math.max(1, Math.floor(options.everyMs));
  try {
    const result = await sql`
      insert into jobs (id, kind, payload, max_attempts, dedupe_key)
      select ${id}, ${options.kind}, ${JSON.stringify(options.payload ?? {})}::jsonb, ${options.maxAttempts ?? 3}, ${dedupeKey}
      where not exists (
        select 1 from jobs where workspace_id is null and kind = ${options.kind} and dedupe_key = ${dedupeKey}
          and created_at >= to_timestamp(floor(extract(epoch from now()) * 1000 / ${everyMs}::numeric) * ${everyMs}::numeric / 1000)
      )`.execute(db);
    return Number(result.numAffectedRows ?? 0) > 0 ? id : null;
  } catch (err) {
    if (isUniqueViolation(err)) return null;
    throw err;
  }
}

/**
 * Claims the next runnable job of the given kinds: a queued job whose time has come, or a running job whose
 * lease ran out (its worker died) with attempts left. FOR UPDATE SKIP LOCKED lets any number of workers claim
 * concurrently, each job once. A job whose lease ran out on its last attempt is never claimed again: `endExpiredJob`
 * fails it (a job that kills its worker would otherwise run, and kill, for ever).
 */
export async function claimNext(db: Db, workerId: string, kinds: string[], leaseMs: number): Promise<ClaimedJob | null> {
  if (kinds.length === 0) return null;
  const result = await sql<ClaimedJob>`
    update jobs set status = 'running', attempts = attempts + 1, locked_by = ${workerId},
      lease_until = now() + ${`${leaseMs} milliseconds`}::interval, updated_at = now()
    where id = (
      select id from jobs
      where kind in (${sql.join(kinds)}) and not cancel_requested
        and ((status = 'queued' and run_at <= now()) or (status = 'running' and lease_until < now() and attempts < max_attempts))
      order by run_at, id
      limit 1
      for update skip locked
    )
    returning id, kind, workspace_id as "workspaceId", payload, attempts, max_attempts as "maxAttempts"`.execute(db);
  return result.rows[0] ?? null;
}

export interface EndedJob extends ClaimedJob {
  status: 'failed' | 'cancelled';
  lastError: string | null;
}

/**
 * Ends one running job of the given kinds whose lease ran out and that may not run again: on its last attempt it
 * fails, with `lastError` saying so (and the previous attempt's error, if any); asked to cancel, it is cancelled.
 * Null when there is none. Call it in a transaction to write what the job drives (its import's record) in the same
 * commit: the row stays locked until then, so two workers never end the same job.
 */
export async function endExpiredJob(db: Db, kinds: string[]): Promise<EndedJob | null> {
  if (kinds.length === 0) return null;
  const result = await sql<EndedJob>`
    update jobs set
      status = case when cancel_requested then 'cancelled' else 'failed' end,
      last_error = case when cancel_requested then last_error
        else left('lease expired after the last attempt (' || attempts || ' of ' || max_attempts || '): the worker running it stopped before it finished'
          || coalesce('; the attempt before failed with: ' || last_error, ''), 4000) end,
      lease_until = null, finished_at = now(), updated_at = now()
    where id = (
      select id from jobs
      where status = 'running' and lease_until < now() and kind in (${sql.join(kinds)}) and (attempts >= max_attempts or cancel_requested)
      order by lease_until, id
      limit 1
      for update skip locked
    )
    returning id, kind, workspace_id as "workspaceId", payload, attempts, max_attempts as "maxAttempts", status, last_error as "lastError"`.execute(db);
  return result.rows[0] ?? null;
}

/** Extends the lease of a job this worker holds; false when the job is no longer ours (taken over or cancelled). */
export async function renewLease(db: Db, jobId: string, workerId: string, leaseMs: number): Promise<{ held: boolean; cancelRequested: boolean }> {
  const row = await sql<{ cancelRequested: boolean }>`
    update jobs set lease_until = now() + ${`${leaseMs} milliseconds`}::interval, updated_at = now()
    where id = ${jobId} and locked_by = ${workerId} and status = 'running'
    returning cancel_requested as "cancelRequested"`.execute(db);
  const first = row.rows[0];
  return { held: !!first, cancelRequested: first?.cancelRequested ?? false };
}

async function finish(db: Db, jobId: string, workerId: string, status: JobStatus, fields: { lastError?: string; result?: unknown } = {}) {
  await db
    .updateTable('jobs')
    .set({
      status,
      leaseUntil: null,
      finishedAt: new Date(),
      updatedAt: new Date(),
      ...(fields.lastError !== undefined ? { lastError: fields.lastError.slice(0, 4000) } : {}),
      ...(fields.result !== undefined ? { result: JSON.stringify(fields.result) } : {}),
    })
    .where('id', '=', jobId)
    .where('lockedBy', '=', workerId)
    .where('status', '=', 'running')
    .execute();
}

export const completeJob = (db: Db, jobId: string, workerId: string, result?: unknown) => finish(db, jobId, workerId, 'done', { result });
export const markCancelled = (db: Db, jobId: string, workerId: string) => finish(db, jobId, workerId, 'cancelled');

/** Hands a job this worker holds back to the queue, to run again at once (a worker shutting down). */
export async function releaseJob(db: Db, jobId: string, workerId: string) {
  await sql`update jobs set status = 'queued', lease_until = null, locked_by = null, run_at = now(), attempts = greatest(attempts - 1, 0), updated_at = now()
    where id = ${jobId} and locked_by = ${workerId} and status = 'running'`.execute(db);
}

/** Exponential backoff with jitter: 1 s, 2 s, 4 s … capped at 5 minutes. */
export function backoffMs(attempts: number, baseMs = 1000): number {
  const exp = Math.min(baseMs * 2 ** Math.max(0, attempts - 1), 300_000);
  return Math.round(exp * (0.75 + Math.random() * 0.5));
}

/** A failed attempt: retried later when retryable and attempts remain, else failed for good. */
export async function failJob(db: Db, job: ClaimedJob, workerId: string, error: string, retryable: boolean, baseBackoffMs = 1000) {
  if (retryable && job.attempts < job.maxAttempts) {
    await db
      .updateTable('jobs')
      .set({
        status: 'queued',
        leaseUntil: null,
        lockedBy: null,
        lastError: error.slice(0, 4000),
        runAt: new Date(Date.now() + backoffMs(job.attempts, baseBackoffMs)),
        updatedAt: new Date(),
      })
      .where('id', '=', job.id)
      .where('lockedBy', '=', workerId)
      .where('status', '=', 'running')
      .execute();
    return 'retry' as const;
  }
  await finish(db, job.id, workerId, 'failed', { lastError: error });
  return 'failed' as const;
}

/** Asks a job to stop: a queued job is cancelled at once; a running one sees it at its next lease renewal. */
export async function requestCancel(db: Db, jobId: string): Promise<JobStatus | null> {
  const row = await sql<{ status: JobStatus }>`
    update jobs set cancel_requested = true, updated_at = now(),
      status = case when status = 'queued' then 'cancelled' else status end,
      finished_at = case when status = 'queued' then now() else finished_at end
    where id = ${jobId} and status in ('queued', 'running')
    returning status`.execute(db);
  return row.rows[0]?.status ?? null;
}

export function getJob(db: Db, jobId: string) {
  return db.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirst();
}

/** Deletes finished jobs past their retention: done and cancelled after `keepDays`, failed after four times that. */
/** Kinds that run every few seconds and say nothing worth keeping once done: their finished rows go after an hour. */
const CHATTY_KINDS = ['events.dispatch'];

export async function purgeFinishedJobs(db: Db, keepDays = 7): Promise<number> {
  const result = await sql`delete from jobs
    where (status in ('done', 'cancelled') and finished_at < now() - ${`${keepDays} days`}::interval)
       or (status = 'done' and kind in (${sql.join(CHATTY_KINDS)}) and finished_at < now() - interval '1 hour')
       or (status = 'failed' and finished_at < now() - ${`${keepDays * 4} days`}::interval)`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

import { deleteBlobs } from '../../blobs/index.js';
import { AppError } from '../../errors.js';
import type { AreaJobs } from '../../jobs/registry.js';
import { type JobContext, PermanentJobError } from '../../jobs/worker.js';
import type { Ctx } from '../../context.js';
import type { Db } from '../../db/index.js';
import type { ClaimedJob, EndedJob } from '../../jobs/queue.js';
import { requesterCtx } from '../../jobs/requester.js';
import { finishedEvent } from '../events/events.finished.js';
import { nudgeEventDispatch } from '../events/events.jobs.js';
import { recordEvent } from '../events/events.record.js';
import { buildExport } from './exports.build.js';
import { requireExportSource } from './exports.policy.js';
import type { ExportRow } from './exports.present.js';
import { exportsRepo } from './exports.repo.js';

export const EXPORT_JOB_KIND = 'exports.build';
export const EXPORT_EXPIRE_JOB = 'exports.expire';
/** An export (its record and its zip) is deleted this long after it was requested. */
export const EXPORT_RETENTION_MS = 7 * 24 * 3600_000;

/**
 * Builds one export. Access is checked again as the requester first (they may have lost it since asking); a refusal
 * or any AppError fails the export for good, another error is retried by the queue until its attempts run out.
 */
async function runExport(job: ClaimedJob, jc: JobContext) {
  const exportId = String(job.payload.exportId ?? '');
  const row = await exportsRepo.find(jc.db, exportId);
  if (!row || row.status === 'succeeded' || row.status === 'failed') return { skipped: row ? row.status : 'deleted' };
  const ctx = requesterCtx(jc, row.requestedBy, 'exports');
  try {
    const source = await requireExportSource(ctx, { workspaceId: row.workspaceId, spaceId: row.spaceId, pageId: row.pageId ?? undefined });
    await exportsRepo.markRunning(jc.db, row.workspaceId, row.id, ctx.now());
    const zip = await buildExport(ctx, { ...row, spaceId: source.spaceId }, jc.signal);
    await jc.db.transaction().execute(async (trx) => {
      await exportsRepo.succeed(trx, row.workspaceId, row.id, zip, ctx.now());
      await recordEvent(
        trx,
        ctx,
        finishedEvent('export', { ...row, spaceId: source.spaceId }, row.pageId, 'succeeded', { size: zip.size, format: row.format }),
      );
    });
    await nudgeEventDispatch(ctx);
    return { exportId, ...zip };
  } catch (err) {
    const permanent = err instanceof AppError;
    const final = permanent || job.attempts >= job.maxAttempts;
    const message = err instanceof Error ? err.message : String(err);
    const failedForGood = await jc.db.transaction().execute((trx) => recordFailure(trx, ctx, row, permanent ? message : `export failed: ${message}`, message, final));
    if (failedForGood) await nudgeEventDispatch(ctx);
    if (permanent) throw new PermanentJobError(message);
    throw err;
  }
}

/** Records a failed attempt on the export (for good when `final`, with its `export.finished` event); false when it had already finished. */
async function recordFailure(db: Db, ctx: Ctx, row: ExportRow, error: string, eventError: string, final: boolean): Promise<boolean> {
  const [res] = await exportsRepo.setFailure(db, row.workspaceId, row.id, error, final, ctx.now());
  if (!final || !Number(res?.numUpdatedRows)) return false;
  await recordEvent(db, ctx, finishedEvent('export', row, row.pageId, 'failed', { error: eventError }));
  return true;
}

/**
 * The queue failed an export's job without its handler: its lease ran out on the last attempt (the process building
 * it crashed or stopped each time). The export says failed, in the transaction that fails the job.
 */
async function exportJobFailed(job: EndedJob, jc: JobContext) {
  const row = await exportsRepo.find(jc.db, String(job.payload.exportId ?? ''));
  if (!row || row.status === 'succeeded' || row.status === 'failed') return;
  const ctx = requesterCtx(jc, row.requestedBy, 'exports');
  const reason = job.lastError ?? 'its job ended without finishing';
  await recordFailure(jc.db, ctx, row, `export failed: ${reason}`, reason, true);
}

/** Deletes expired exports, their record first and then their zip (a blob left by a crash between is swept as unused). */
export async function expireExports(jc: Pick<JobContext, 'db' | 'env'>, now = new Date()): Promise<number> {
  let deleted = 0;
  for (;;) {
    const rows = await exportsRepo.expired(jc.db, now, 100);
    for (const row of rows) {
      await exportsRepo.delete(jc.db, row.workspaceId, row.id);
      await deleteBlobs(jc.env.blobs, [row.blobKey]);
      deleted++;
    }
    if (rows.length < 100) return deleted;
  }
}

export const exportJobs: AreaJobs = {
  handlers: {
    [EXPORT_JOB_KIND]: runExport,
    [EXPORT_EXPIRE_JOB]: async (_job, jc) => ({ deleted: await expireExports(jc) }),
  },
  onFailed: { [EXPORT_JOB_KIND]: exportJobFailed },
  recurring: [{ kind: EXPORT_EXPIRE_JOB, everyMs: 3600_000 }],
};

import { rm } from 'node:fs/promises';
import { deleteBlobs } from '../../blobs/index.js';
import { analyzeAfterBulkWrite } from '../../db/upkeep.js';
import { AppError } from '../../errors.js';
import type { Ctx } from '../../context.js';
import type { Db } from '../../db/index.js';
import type { ClaimedJob, EndedJob } from '../../jobs/queue.js';
import type { AreaJobs } from '../../jobs/registry.js';
import { requesterCtx } from '../../jobs/requester.js';
import { type JobContext, PermanentJobError } from '../../jobs/worker.js';
import { finishedEvent } from '../events/events.finished.js';
import { nudgeEventDispatch } from '../events/events.jobs.js';
import { recordEvent } from '../events/events.record.js';
import { limitsOf, maxFileBytes } from './imports.limits.js';
import { type ImportErrorJson, type ImportRow, importsRepo } from './imports.repo.js';
import { runImport } from './imports.run.js';
import { blobToTempFile, closeUpload, openUpload, removeStaleUploads } from './imports.upload.js';

export const IMPORT_JOB_KIND = 'imports.run';
export const IMPORT_EXPIRE_JOB = 'imports.expire';
/** An import's record (its result and warnings) is deleted this long after it was asked for; its pages stay. */
export const IMPORT_RETENTION_MS = 7 * 24 * 3600_000;

/**
 * Runs one import as its requester. A refusal (an AppError: a bad file, lost rights) fails it for good with the
 * error in the API's shape; another error is retried by the queue until its attempts run out. Once it has
 * finished either way the upload's blob is deleted.
 */
async function runImportJob(job: ClaimedJob, jc: JobContext) {
  const importId = String(job.payload.importId ?? '');
  const row = await importsRepo.find(jc.db, importId);
  if (!row || row.status === 'succeeded' || row.status === 'failed') return { skipped: row ? row.status : 'deleted' };
  const ctx = requesterCtx(jc, row.requestedBy, 'imports');
  const config = jc.env.config;
  let temp: string | undefined;
  try {
    temp = await blobToTempFile(await jc.env.blobs.get(row.blobKey), config.DATA_DIR);
    const files = await openUpload(temp, row.filename, limitsOf(config), maxFileBytes(config));
    try {
      const { result, warnings } = await runImport(ctx, row, files, jc.signal);
      await deleteBlobs(jc.env.blobs, [row.blobKey], ctx.log);
      await analyzeImported(jc, result);
      return { importId, ...result, warnings: warnings.length };
    } finally {
      closeUpload(files);
    }
  } catch (err) {
    const permanent = err instanceof AppError;
    const final = permanent || job.attempts >= job.maxAttempts;
    const message = err instanceof Error ? err.message : String(err);
    const error = permanent
      ? { code: err.code, message: err.message, details: err.details }
      : { code: 'INTERNAL_ERROR', message: `import failed: ${message}`, details: {} };
    const failedForGood = await jc.db.transaction().execute((trx) => recordFailure(trx, ctx, row, error, final));
    if (failedForGood) await nudgeEventDispatch(ctx);
    if (final) await deleteBlobs(jc.env.blobs, [row.blobKey], ctx.log);
    if (permanent) throw new PermanentJobError(message);
    throw err;
  } finally {
    if (temp) await rm(temp, { force: true });
  }
}

/** Records a failed attempt on the import (for good when `final`, with its `import.finished` event); false when it had already finished. */
async function recordFailure(db: Db, ctx: Ctx, row: ImportRow, error: ImportErrorJson, final: boolean): Promise<boolean> {
  const [res] = await importsRepo.setFailure(db, row.workspaceId, row.id, error, [], final, ctx.now());
  if (!final || !Number(res?.numUpdatedRows)) return false;
  await recordEvent(db, ctx, finishedEvent('import', row, row.parentPageId, 'failed', { error: error.message }));
  return true;
}

/**
 * The queue failed an import's job without its handler: its lease ran out on the last attempt (the process running it
 * crashed or stopped each time). The import says failed, in the transaction that fails the job, instead of `running`
 * for ever; its upload's blob is left to the blob sweep (an import no longer queued or running holds none).
 */
async function importJobFailed(job: EndedJob, jc: JobContext) {
  const row = await importsRepo.find(jc.db, String(job.payload.importId ?? ''));
  if (!row || row.status === 'succeeded' || row.status === 'failed') return;
  const ctx = requesterCtx(jc, row.requestedBy, 'imports');
  const message = `import failed: ${job.lastError ?? 'its job ended without finishing'}`;
  await recordFailure(jc.db, ctx, row, { code: 'INTERNAL_ERROR', message, details: {} }, true);
}

/**
 * A big import changes the tables' shape at once: analyze what it wrote right after it committed, so the next list
 * plans with its pages counted (the upkeep job would, up to a minute later). Never fails the import.
 */
async function analyzeImported(jc: JobContext, result: { pages: number; attachments: number }) {
  try {
    const analyzed = await analyzeAfterBulkWrite(jc.db, { pages: result.pages, page_history: result.pages, attachments: result.attachments });
    if (analyzed.length) jc.log.info({ analyzed }, 'analyzed after an import');
  } catch (err) {
    jc.log.error({ err }, 'analyze after an import failed');
  }
}

/** Deletes import records past their retention (and an upload blob a crash may have left), and stale temporary uploads. */
export async function expireImports(jc: Pick<JobContext, 'db' | 'env'>, now = new Date()): Promise<number> {
  await removeStaleUploads(jc.env.config.DATA_DIR, 24 * 3600_000, now.getTime());
  let deleted = 0;
  for (;;) {
    const rows = await importsRepo.expired(jc.db, now, 100);
    for (const row of rows) {
      await importsRepo.delete(jc.db, row.workspaceId, row.id);
      await deleteBlobs(jc.env.blobs, [row.blobKey]);
      deleted++;
    }
    if (rows.length < 100) return deleted;
  }
}

export const importJobs: AreaJobs = {
  handlers: {
    [IMPORT_JOB_KIND]: runImportJob,
    [IMPORT_EXPIRE_JOB]: async (_job, jc) => ({ deleted: await expireImports(jc) }),
  },
  onFailed: { [IMPORT_JOB_KIND]: importJobFailed },
  recurring: [{ kind: IMPORT_EXPIRE_JOB, everyMs: 3600_000 }],
};

import type { BlobStore } from '../../blobs/index.js';
import type { Db } from '../../db/index.js';
import type { AreaJobs } from '../../jobs/registry.js';
import { exportsRepo } from '../exports/exports.repo.js';
import { importsRepo } from '../imports/imports.repo.js';
import { attachmentsRepo } from './attachments.repo.js';

export const BLOB_SWEEP_JOB = 'attachments.sweep-blobs';
/** Blobs younger than this are left alone: an upload writes its blob first and its row right after. */
export const BLOB_SWEEP_GRACE_MS = 3600_000;
const BATCH = 500;

/**
 * Deletes the blobs no attachment uses (nor an export's zip, nor an unfinished import's upload) and that were written more than the grace period before `now`: left by a
 * crash between storing an upload's bytes and inserting its row, or between deleting a row and its blob. Partial
 * writes are removed by the store on the way. Returns how many blobs were deleted.
 */
export async function sweepOrphanedBlobs(db: Db, blobs: BlobStore, now = new Date(), graceMs = BLOB_SWEEP_GRACE_MS): Promise<number> {
  let deleted = 0;
  let batch: string[] = [];
  const flush = async () => {
    const used = await attachmentsRepo.usedBlobKeys(db, batch);
    for (const key of await exportsRepo.usedBlobKeys(db, batch)) used.add(key);
    for (const key of await importsRepo.usedBlobKeys(db, batch)) used.add(key);
    for (const key of batch) {
      if (used.has(key)) continue;
      await blobs.delete(key);
      deleted++;
    }
    batch = [];
  };
  for await (const key of blobs.listBefore(new Date(now.getTime() - graceMs))) {
    batch.push(key);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return deleted;
}

/** The sweep, every six hours, once across all instances. */
export const attachmentJobs: AreaJobs = {
  handlers: {
    [BLOB_SWEEP_JOB]: async (_job, jc) => {
      const deleted = await sweepOrphanedBlobs(jc.db, jc.env.blobs);
      if (deleted > 0) jc.log.info({ deleted }, 'deleted attachment blobs that no attachment uses');
      return { deleted };
    },
  },
  recurring: [{ kind: BLOB_SWEEP_JOB, everyMs: 6 * 3600_000 }],
};

import type { Readable } from 'node:stream';
import type { z } from 'zod';
import { type RangeRequest, requestedRange } from '../../blobs/byte-range.js';
import type { BlobRange } from '../../blobs/index.js';
import { type Ctx, requireActor } from '../../context.js';
import { AppError, gone } from '../../errors.js';
import { newId } from '../../ids.js';
import { enqueue } from '../../jobs/queue.js';
import { recordAudit } from '../audit/audit.record.js';
import { EXPORT_JOB_KIND, EXPORT_RETENTION_MS } from './exports.jobs.js';
import { safeStem } from './exports.names.js';
import { requireExportSource, requireOwnExport, requireStillReader } from './exports.policy.js';
import { presentExport } from './exports.present.js';
import { exportsRepo } from './exports.repo.js';
import type { ExportCreateBody } from './exports.schema.js';

/** A failed attempt (a database hiccup) is tried this many times in all. */
const MAX_ATTEMPTS = 3;

/**
 * Starts an export of a space or a page (with its descendants unless `includeChildren` is false): the record and
 * its queue job are written in one transaction; the zip is built by the job.
 */
export async function createExport(ctx: Ctx, input: z.infer<typeof ExportCreateBody>) {
  const actor = requireActor(ctx);
  const source = await requireExportSource(ctx, input);
  const id = newId();
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    await exportsRepo.insert(trx, {
      id,
      workspaceId: input.workspaceId,
      requestedBy: actor.userId,
      spaceId: source.spaceId,
      pageId: source.pageId,
      format: input.format,
      includeChildren: input.includeChildren,
      includeAttachments: input.includeAttachments,
      blobKey: `export_${id}`,
      filename: `${safeStem(source.name, 'export').slice(0, 100)}.zip`,
      createdAt: now,
      expiresAt: new Date(now.getTime() + EXPORT_RETENTION_MS),
      error: null,
      sha256: null,
      startedAt: null,
      finishedAt: null,
    });
    await enqueue(trx, { kind: EXPORT_JOB_KIND, workspaceId: input.workspaceId, payload: { exportId: id }, maxAttempts: MAX_ATTEMPTS });
    await recordAudit(trx, ctx, {
      workspaceId: input.workspaceId,
      action: 'export.created',
      targetType: 'export',
      targetId: id,
      details: { spaceId: source.spaceId, pageId: source.pageId, format: input.format, includeChildren: input.includeChildren },
    });
  });
  return getExport(ctx, id);
}

/** The export's status and progress; only its requester sees it (404 for anyone else). */
export async function getExport(ctx: Ctx, id: string) {
  return presentExport(await requireOwnExport(ctx, id, await exportsRepo.find(ctx.db, id)));
}

/**
 * The finished zip as a stream, for its requester while they still read what it holds. 409 (PRECONDITION_FAILED,
 * `details.status`) before it has succeeded; 410 once expired. A Range request (resuming a large zip) gets its range.
 */
export async function openExportDownload(
  ctx: Ctx,
  id: string,
  request: RangeRequest = {},
): Promise<{ export: ReturnType<typeof presentExport>; stream: Readable; range?: BlobRange }> {
  const row = await requireOwnExport(ctx, id, await exportsRepo.find(ctx.db, id));
  await requireStillReader(ctx, row);
  if (row.expiresAt <= ctx.now()) throw gone('Export', id);
  if (row.status !== 'succeeded')
    throw new AppError(
      'PRECONDITION_FAILED',
      `The export is ${row.status}; its zip can be downloaded once it has succeeded`,
      { resource: 'Export', id, status: row.status, reason: 'not_ready' },
      409,
    );
  const range = requestedRange(row.size ?? 0, request, `"${row.sha256}"`);
  return { export: presentExport(row), range, stream: await ctx.env.blobs.get(row.blobKey, range) };
}

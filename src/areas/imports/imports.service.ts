import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { z } from 'zod';
import { deleteBlobs } from '../../blobs/index.js';
import { type Ctx, requireActor } from '../../context.js';
import { newId } from '../../ids.js';
import { enqueue } from '../../jobs/queue.js';
import { cleanFilename, decodeBase64Strict } from '../attachments/attachments.files.js';
import { IMPORT_JOB_KIND, IMPORT_RETENTION_MS } from './imports.jobs.js';
import { limitsOf, maxFileBytes, refused } from './imports.limits.js';
import { requireImportTarget, requireOwnImport } from './imports.policy.js';
import { presentImport } from './imports.present.js';
import { importsRepo } from './imports.repo.js';
import type { ImportCreateBody, ImportCreateFields } from './imports.schema.js';
import { closeUpload, openUpload, readTempFile, spool, tempFile } from './imports.upload.js';

/** A failed attempt (a database hiccup) is tried this many times in all; a bad upload fails at once. */
const MAX_ATTEMPTS = 3;

type Fields = z.infer<typeof ImportCreateFields>;

/**
 * Takes an upload for import: access first (editor in the space, a live parent page), then the bytes are spooled to
 * a temporary file (refused past IMPORT_MAX_BYTES) and checked — a zip's every path and declared size against the
 * limits, or a single `.md`/`.html` as UTF-8 — so a bad upload is refused here with its reason and nothing kept.
 * A good one is stored as a blob and its import queued in one transaction; the job does the rest.
 */
export async function createImport(ctx: Ctx, fields: Fields, file: { filename: string; stream: Readable }) {
  const actor = requireActor(ctx);
  await requireImportTarget(ctx, ctx.db, fields);
  const filename = cleanFilename(file.filename);
  const config = ctx.env.config;
  const temp = await tempFile(config.DATA_DIR);
  const size = await spool(file.stream, temp, config.IMPORT_MAX_BYTES);
  const id = newId();
  const blobKey = `import_${id}`;
  try {
    closeUpload(await openUpload(temp, filename, limitsOf(config), maxFileBytes(config)));
    await ctx.env.blobs.put(blobKey, readTempFile(temp), { maxBytes: config.IMPORT_MAX_BYTES });
    const now = ctx.now();
    try {
      await ctx.db.transaction().execute(async (trx) => {
        await importsRepo.insert(trx, {
          id,
          workspaceId: fields.workspaceId,
          requestedBy: actor.userId,
          spaceId: fields.spaceId,
          parentPageId: fields.parentPageId ?? null,
          source: fields.source,
          detectedSource: null,
          filename,
          size,
          blobKey,
          result: null,
          error: null,
          createdAt: now,
          startedAt: null,
          finishedAt: null,
          expiresAt: new Date(now.getTime() + IMPORT_RETENTION_MS),
        });
        await enqueue(trx, { kind: IMPORT_JOB_KIND, workspaceId: fields.workspaceId, payload: { importId: id }, maxAttempts: MAX_ATTEMPTS });
      });
    } catch (err) {
      await deleteBlobs(ctx.env.blobs, [blobKey], ctx.log);
      throw err;
    }
  } finally {
    await rm(temp, { force: true });
  }
  return getImport(ctx, id);
}

/** The JSON form (scripts, MCP): the file as strict Base64. */
export async function createImportFromBase64(ctx: Ctx, input: z.infer<typeof ImportCreateBody>) {
  const { data, filename, ...fields } = input;
  await requireImportTarget(ctx, ctx.db, fields);
  let bytes: Buffer;
  try {
    bytes = decodeBase64Strict(data, ctx.env.config.IMPORT_MAX_BYTES);
  } catch (err) {
    if ((err as { details?: { reason?: string } }).details?.reason === 'too_large')
      throw refused('too_large', `The upload is larger than the limit of ${ctx.env.config.IMPORT_MAX_BYTES} bytes (IMPORT_MAX_BYTES)`, {
        limit: ctx.env.config.IMPORT_MAX_BYTES,
      });
    throw err;
  }
  return createImport(ctx, fields, { filename, stream: Readable.from([bytes]) });
}

/** The import's status, progress, result, warnings and error; only its requester sees it (404 for anyone else). */
export async function getImport(ctx: Ctx, id: string) {
  return presentImport(await requireOwnImport(ctx, id, await importsRepo.find(ctx.db, id)));
}

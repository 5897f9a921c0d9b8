import type { z } from 'zod';
import type { Ctx } from '../../context.js';
import type { Db } from '../../db/index.js';
import { AppError, missingRequired, notFound } from '../../errors.js';
import { decodeContent, encodeContent, isTextType, sha256Hex } from '../../sync-rules/content.js';
import { type ConflictRow, syncFilesRepo } from './local-sync.files.repo.js';
import { fileRecord, storedContentType } from './local-sync.files.service.js';
import { bare, splitLines, threeWay } from './local-sync.merge.js';
import { assertNotPaused, requireOwnConnector, requireSource, requireSyncRole } from './local-sync.policy.js';
import { presentConflict } from './local-sync.present.js';
import type { ConflictBody, ResolveBody, SourceBody } from './local-sync.schema.js';
import { type Content, liveHash, SourceWriter } from './local-sync.writer.js';

/** Open conflicts of a source, oldest first. */
export async function listConflicts(ctx: Ctx, body: z.infer<typeof SourceBody>) {
  const access = await requireSyncRole(ctx, body, 'viewer');
  const source = await requireSource(ctx.db, access.workspaceId, body.sourceId);
  const rows = await syncFilesRepo.openConflicts(ctx.db, access.workspaceId, source.id);
  return { conflicts: rows.map(presentConflict) };
}

async function requireConflict(db: Db, workspaceId: string, conflictId: string) {
  const row = await syncFilesRepo.findConflict(db, workspaceId, conflictId);
  if (!row) throw notFound('Conflict', conflictId);
  return row;
}

/** The base's type: that of a side whose content is text (local first), else the local side's. */
const baseTypeOf = (c: ConflictRow) =>
  isTextType(c.localContentType) ? c.localContentType : isTextType(c.serviceContentType) ? c.serviceContentType : c.localContentType;

/** base, local and service with the line-level three-way view and, when nothing clashes, the proposed merge. */
export async function previewConflict(ctx: Ctx, body: z.infer<typeof ConflictBody>) {
  const access = await requireSyncRole(ctx, body, 'viewer');
  const c = await requireConflict(ctx.db, access.workspaceId, body.conflictId);
  const load = async (hash: string | null, contentType: string) => {
    if (!hash) return null;
    const bytes = await syncFilesRepo.blob(ctx.db, access.workspaceId, hash);
    return { contentHash: hash, contentType, bytes };
  };
  const [base, local, service] = await Promise.all([
    load(c.baseHash, baseTypeOf(c)),
    load(c.localHash, c.localContentType),
    load(c.serviceHash, c.serviceContentType),
  ]);
  const binary = !isTextType(c.localContentType) || !isTextType(c.serviceContentType);
  const side = (s: Awaited<ReturnType<typeof load>>) =>
    s && {
      contentHash: s.contentHash,
      contentType: s.contentType,
      content: s.bytes ? encodeContent(s.bytes, s.contentType) : null,
      lines: s.bytes && isTextType(s.contentType) ? bare(splitLines(s.bytes.toString('utf8'))) : [],
    };
  const view = { conflictId: c.id, relativePath: c.relativePath, status: c.status, binary, base: side(base), local: side(local), service: side(service) };
  // A line view needs text on both sides (a deleted side or a binary one has none).
  if (binary || !local?.bytes || !service?.bytes) return { ...view, hunks: [], clashes: 0, mergeable: false, merged: null };
  const merge = threeWay(base?.bytes?.toString('utf8') ?? '', local.bytes.toString('utf8'), service.bytes.toString('utf8'));
  return { ...view, hunks: merge.hunks, clashes: merge.clashes, mergeable: merge.merged !== null, merged: merge.merged };
}

/** The content a manual merge brings, checked before the transaction (null for keep_local / keep_service). */
function manualContent(ctx: Ctx, body: z.infer<typeof ResolveBody>): Content | null {
  if (body.resolution !== 'manual_merge') return null;
  if (body.resolvedContent === undefined) throw missingRequired('resolvedContent', 'resolvedContent is required for manual_merge');
  const contentType = storedContentType(body.contentType);
  const decoded = decodeContent(body.resolvedContent, contentType, ctx.env.config.MAX_ATTACHMENT_BYTES);
  if (!decoded.ok) throw new AppError('VALIDATION_ERROR', decoded.message, { field: 'resolvedContent', reason: decoded.reason });
  return { hash: sha256Hex(decoded.bytes), contentType, bytes: decoded.bytes };
}

/** Settles an open conflict: writes the chosen version (when it differs from the current one) and emits conflict.resolved. */
export async function resolveConflict(ctx: Ctx, body: z.infer<typeof ResolveBody>) {
  const access = await requireSyncRole(ctx, body, 'editor');
  const manual = manualContent(ctx, body);
  const now = ctx.now();
  return ctx.db.transaction().execute(async (trx) => {
    const found = await requireConflict(trx, access.workspaceId, body.conflictId);
    const source = await requireSource(trx, access.workspaceId, found.sourceId, true);
    // Read again under the source's lock: another resolution may have just settled it.
    const c = await requireConflict(trx, access.workspaceId, body.conflictId);
    if (c.status !== 'open') throw new AppError('VALIDATION_ERROR', 'This conflict is already resolved', { field: 'conflictId', reason: 'already_resolved' });
    assertNotPaused(source);
    const connectorId = body.connectorId ? await requireOwnConnector(trx, access, body.connectorId) : null;
    const writer = new SourceWriter(trx, access.workspaceId, source.id, { userId: access.userId, connectorId }, now);
    await writer.load([c.relativePath]);
    const chosen: Content =
      manual ??
      (body.resolution === 'keep_local'
        ? { hash: c.localHash, contentType: c.localContentType, bytes: null }
        : { hash: c.serviceHash, contentType: c.serviceContentType, bytes: null });
    const s = writer.get(c.relativePath);
    if (chosen.hash !== liveHash(s) || (chosen.hash !== null && chosen.contentType !== s.contentType)) {
      if (chosen.hash && !chosen.bytes) chosen.bytes = await syncFilesRepo.blob(trx, access.workspaceId, chosen.hash);
      writer.writeVersion(c.relativePath, chosen, 'resolve', c.id);
    }
    writer.resolved(c.relativePath, body.resolution, chosen.hash);
    await writer.flush();
    return {
      conflictId: c.id,
      relativePath: c.relativePath,
      resolution: body.resolution,
      status: 'resolved' as const,
      contentHash: chosen.hash,
      deleted: chosen.hash === null,
      file: await fileRecord(trx, access.workspaceId, source.id, c.relativePath),
    };
  });
}

import type { z } from 'zod';
import type { Ctx } from '../../context.js';
import type { Db } from '../../db/index.js';
import type { SyncContentType } from '../../db/tables/local-sync.js';
import { AppError, missingRequired, notFound } from '../../errors.js';
import { decodeContent, encodeContent, sha256Hex } from './content.js';
import { blobOf, fileRecord } from './files.js';
import { assertNotPaused, findSource, requireConnector, requireSyncRole } from './local-sync.policy.js';
import { presentConflict } from './local-sync.present.js';
import type { ConflictBody, ResolveBody, SourceBody } from './local-sync.schema.js';
import { bare, splitLines, threeWay } from './merge.js';
import { type Content, liveHash, SourceWriter } from './writer.js';

const CONFLICT_COLUMNS = [
  'id',
  'sourceId',
  'relativePath',
  'status',
  'localHash',
  'serviceHash',
  'baseHash',
  'localContentType',
  'serviceContentType',
  'origin',
  'connectorId',
  'createdAt',
] as const;

/** Open conflicts of a source, oldest first. */
export async function listConflicts(ctx: Ctx, body: z.infer<typeof SourceBody>) {
  const access = await requireSyncRole(ctx, body, 'viewer');
  const source = await findSource(ctx.db, access.workspaceId, body.sourceId);
  const rows = await ctx.db
    .selectFrom('syncConflicts')
    .select(CONFLICT_COLUMNS)
    .where('sourceId', '=', source.id)
    .where('workspaceId', '=', access.workspaceId)
    .where('status', '=', 'open')
    .orderBy('createdAt')
    .orderBy('id')
    .limit(10_000)
    .execute();
  return { conflicts: rows.map(presentConflict) };
}

async function findConflict(db: Db, workspaceId: string, conflictId: string) {
  const row = await db
    .selectFrom('syncConflicts')
    .select(CONFLICT_COLUMNS)
    .where('id', '=', conflictId)
    .where('workspaceId', '=', workspaceId)
    .executeTakeFirst();
  if (!row) throw notFound('Conflict', conflictId);
  return row;
}

/** base, local and service with the line-level three-way view and, when nothing clashes, the proposed merge. */
export async function previewConflict(ctx: Ctx, body: z.infer<typeof ConflictBody>) {
  const access = await requireSyncRole(ctx, body, 'viewer');
  const c = await findConflict(ctx.db, access.workspaceId, body.conflictId);
  const load = async (hash: string | null, contentType: SyncContentType) => {
    if (!hash) return null;
    const bytes = await blobOf(ctx.db, access.workspaceId, hash);
    return { contentHash: hash, contentType, bytes };
  };
  // The base's type: that of the side it is likelier to share (text unless both sides are binary).
  const baseType: SyncContentType = c.localContentType === 'binary' && c.serviceContentType === 'binary' ? 'binary' : 'text';
  const [base, local, service] = await Promise.all([
    load(c.baseHash, baseType),
    load(c.localHash, c.localContentType),
    load(c.serviceHash, c.serviceContentType),
  ]);
  const binary = c.localContentType === 'binary' || c.serviceContentType === 'binary';
  const side = (s: Awaited<ReturnType<typeof load>>) =>
    s && {
      contentHash: s.contentHash,
      contentType: s.contentType,
      content: s.bytes ? encodeContent(s.bytes, s.contentType) : null,
      lines: s.bytes && s.contentType === 'text' ? bare(splitLines(s.bytes.toString('utf8'))) : [],
    };
  const view = { conflictId: c.id, relativePath: c.relativePath, status: c.status, binary, base: side(base), local: side(local), service: side(service) };
  // A line view needs text on both sides (a deleted side or a binary one has none).
  if (binary || !local?.bytes || !service?.bytes) return { ...view, hunks: [], clashes: 0, mergeable: false, merged: null };
  const merge = threeWay(base?.bytes?.toString('utf8') ?? '', local.bytes.toString('utf8'), service.bytes.toString('utf8'));
  return { ...view, hunks: merge.hunks, clashes: merge.clashes, mergeable: merge.merged !== null, merged: merge.merged };
}

/** Settles an open conflict: writes the chosen version (when it differs from the current one) and emits conflict.resolved. */
export async function resolveConflict(ctx: Ctx, body: z.infer<typeof ResolveBody>) {
  const access = await requireSyncRole(ctx, body, 'editor');
  let manual: Content | null = null;
  if (body.resolution === 'manual_merge') {
    if (body.resolvedContent === undefined) throw missingRequired('resolvedContent', 'resolvedContent is required for manual_merge');
    const decoded = decodeContent(body.resolvedContent, body.contentType, ctx.env.config.MAX_ATTACHMENT_BYTES);
    if (!decoded.ok) throw new AppError('VALIDATION_ERROR', decoded.message, { field: 'resolvedContent', reason: decoded.reason });
    manual = { hash: sha256Hex(decoded.bytes), contentType: body.contentType, bytes: decoded.bytes };
  }
  const now = ctx.now();
  return ctx.db.transaction().execute(async (trx) => {
    const found = await findConflict(trx, access.workspaceId, body.conflictId);
    const source = await findSource(trx, access.workspaceId, found.sourceId, true);
    // Read again under the source's lock: another resolution may have just settled it.
    const c = await findConflict(trx, access.workspaceId, body.conflictId);
    if (c.status !== 'open') throw new AppError('VALIDATION_ERROR', 'This conflict is already resolved', { field: 'conflictId', reason: 'already_resolved' });
    assertNotPaused(source);
    const connectorId = body.connectorId ? await requireConnector(trx, access.workspaceId, body.connectorId) : null;
    const writer = new SourceWriter(trx, access.workspaceId, source.id, { userId: access.userId, connectorId }, now);
    await writer.load([c.relativePath]);
    const chosen: Content =
      manual ??
      (body.resolution === 'keep_local'
        ? { hash: c.localHash, contentType: c.localContentType, bytes: null }
        : { hash: c.serviceHash, contentType: c.serviceContentType, bytes: null });
    const s = writer.get(c.relativePath);
    if (chosen.hash !== liveHash(s) || (chosen.hash !== null && chosen.contentType !== s.contentType)) {
      if (chosen.hash && !chosen.bytes) chosen.bytes = await blobOf(trx, access.workspaceId, chosen.hash);
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

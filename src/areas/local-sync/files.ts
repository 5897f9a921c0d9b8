import type { z } from 'zod';
import type { Ctx } from '../../context.js';
import type { Db } from '../../db/index.js';
import type { SyncContentType } from '../../db/tables/local-sync.js';
import { AppError, gone, notFound, validation } from '../../errors.js';
import { decodeContent, encodeContent, parseHash, sha256Hex } from './content.js';
import { assertModeAllows, assertNotPaused, findSource, requireSyncRole } from './local-sync.policy.js';
import { presentFile } from './local-sync.present.js';
import type { FileBody, FilesBody, FileUpdateBody, HistoryBody } from './local-sync.schema.js';
import { normalisePath, pathFilter } from './paths.js';
import { liveHash, SourceWriter } from './writer.js';

/** The normalised path, or 422 naming the reason. */
export function safePath(raw: string): string {
  const checked = normalisePath(raw);
  if (!checked.ok) throw validation('relativePath', checked.reason, checked.message);
  return checked.path;
}

const FILE_COLUMNS = [
  'f.sourceId',
  'f.relativePath',
  'f.contentHash',
  'f.contentType',
  'f.size',
  'f.deleted',
  'f.version',
  'f.updatedAt',
  'f.updatedBy',
  'f.updatedByConnector',
] as const;

/** A file row of a source with the id of the path's open conflict. */
function fileQuery(db: Db, workspaceId: string, sourceId: string) {
  return db
    .selectFrom('syncFiles as f')
    .leftJoin('syncConflicts as k', (j) => j.onRef('k.sourceId', '=', 'f.sourceId').onRef('k.relativePath', '=', 'f.relativePath').on('k.status', '=', 'open'))
    .select([...FILE_COLUMNS, 'k.id as conflictId'])
    .where('f.sourceId', '=', sourceId)
    .where('f.workspaceId', '=', workspaceId);
}

export async function fileRecord(db: Db, workspaceId: string, sourceId: string, path: string) {
  const row = await fileQuery(db, workspaceId, sourceId).where('f.relativePath', '=', path).executeTakeFirst();
  return row ? presentFile(row, row.conflictId) : null;
}

const encodeCursor = (path: string) => Buffer.from(path, 'utf8').toString('base64url');
function decodeCursor(cursor: string): string {
  const path = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!path || encodeCursor(path) !== cursor) throw validation('cursor', 'invalid', 'cursor is not a cursor this service gave out');
  return path;
}

/** Files of a source in byte order of their path, paged by a cursor. */
export async function listFiles(ctx: Ctx, body: z.infer<typeof FilesBody>) {
  const access = await requireSyncRole(ctx, body, 'viewer');
  const after = body.cursor ? decodeCursor(body.cursor) : null;
  const source = await findSource(ctx.db, access.workspaceId, body.sourceId);
  let q = fileQuery(ctx.db, access.workspaceId, source.id)
    .orderBy('f.relativePath')
    .limit(body.limit + 1);
  if (after !== null) q = q.where('f.relativePath', '>', after);
  if (!body.includeDeleted) q = q.where('f.deleted', '=', false);
  const rows = await q.execute();
  const hasMore = rows.length > body.limit;
  const page = hasMore ? rows.slice(0, body.limit) : rows;
  return {
    files: page.map((r) => presentFile(r, r.conflictId)),
    nextCursor: hasMore ? encodeCursor(page[page.length - 1].relativePath) : null,
    hasMore,
  };
}

/** Stored bytes of a hash in the workspace. */
export async function blobOf(db: Db, workspaceId: string, hash: string): Promise<Buffer | null> {
  const row = await db.selectFrom('syncBlobs').select('content').where('workspaceId', '=', workspaceId).where('hash', '=', hash).executeTakeFirst();
  return row ? Buffer.from(row.content) : null;
}

/** The current content of a file, or (with contentHash) the bytes of one of its versions or conflict sides. */
export async function getFile(ctx: Ctx, body: z.infer<typeof FileBody>) {
  const access = await requireSyncRole(ctx, body, 'viewer');
  const path = safePath(body.relativePath);
  const source = await findSource(ctx.db, access.workspaceId, body.sourceId);
  const record = await fileRecord(ctx.db, access.workspaceId, source.id, path);
  if (body.contentHash != null) {
    const hash = parseHash(body.contentHash);
    if (!hash) throw validation('contentHash', 'invalid', 'contentHash must be a SHA-256 hex string (64 hex digits)');
    const known = await knownVersion(ctx.db, access.workspaceId, source.id, path, hash);
    const bytes = known ? await blobOf(ctx.db, access.workspaceId, hash) : null;
    if (!known || !bytes) throw new AppError('NOT_FOUND', 'No version of this file has that contentHash', { resource: 'File version', field: 'contentHash' });
    const base = record ?? presentFile({ ...emptyFile(source.id, path), updatedAt: known.at }, null);
    return { ...base, contentHash: hash, contentType: known.contentType, size: bytes.length, deleted: false, content: encodeContent(bytes, known.contentType) };
  }
  if (!record) throw notFound('File', path);
  if (record.deleted) throw gone('File', path);
  const bytes = (await blobOf(ctx.db, access.workspaceId, record.contentHash as string)) ?? Buffer.alloc(0);
  return { ...record, content: encodeContent(bytes, record.contentType) };
}

const emptyFile = (sourceId: string, relativePath: string) => ({
  sourceId,
  relativePath,
  contentHash: null,
  contentType: 'text' as SyncContentType,
  size: 0,
  deleted: true,
  version: 0,
  updatedBy: null,
  updatedByConnector: null,
});

/** A hash the path has had (a version) or been offered (a conflict side), with its content type. */
async function knownVersion(db: Db, workspaceId: string, sourceId: string, path: string, hash: string) {
  const v = await db
    .selectFrom('syncVersions')
    .select(['contentType', 'createdAt as at'])
    .where('sourceId', '=', sourceId)
    .where('workspaceId', '=', workspaceId)
    .where('relativePath', '=', path)
    .where('contentHash', '=', hash)
    .limit(1)
    .executeTakeFirst();
  if (v) return v;
  const c = await db
    .selectFrom('syncConflicts')
    .select(['localHash', 'localContentType', 'serviceContentType', 'createdAt as at'])
    .where('sourceId', '=', sourceId)
    .where('workspaceId', '=', workspaceId)
    .where('relativePath', '=', path)
    .where((eb) => eb.or([eb('localHash', '=', hash), eb('serviceHash', '=', hash), eb('baseHash', '=', hash)]))
    .limit(1)
    .executeTakeFirst();
  if (!c) return null;
  return { contentType: c.localHash === hash ? c.localContentType : c.serviceContentType, at: c.at };
}

/** A service-side edit: applied (`ok`) when its base is the current version, else a conflict. */
export async function updateFile(ctx: Ctx, body: z.infer<typeof FileUpdateBody>) {
  const access = await requireSyncRole(ctx, body, 'editor');
  const path = safePath(body.relativePath);
  let baseHash: string | null = null;
  if (body.baseHash != null) {
    baseHash = parseHash(body.baseHash);
    if (!baseHash) throw validation('baseHash', 'invalid', 'baseHash must be a SHA-256 hex string (64 hex digits)');
  }
  const decoded = decodeContent(body.content, body.contentType, ctx.env.config.MAX_ATTACHMENT_BYTES);
  if (!decoded.ok) throw validation('content', decoded.reason, decoded.message);
  const content = { hash: sha256Hex(decoded.bytes), contentType: body.contentType, bytes: decoded.bytes };
  const now = ctx.now();
  return ctx.db.transaction().execute(async (trx) => {
    const source = await findSource(trx, access.workspaceId, body.sourceId, true);
    assertNotPaused(source);
    assertModeAllows(source, 'service_edit');
    if (!pathFilter(source.includePatterns, source.excludePatterns)(path))
      throw validation('relativePath', 'excluded_by_pattern', 'relativePath is outside the source’s include/exclude patterns');
    const writer = new SourceWriter(trx, access.workspaceId, source.id, { userId: access.userId, connectorId: null }, now);
    await writer.load([path]);
    const s = writer.get(path);
    const current = liveHash(s);
    let conflictId: string | null = null;
    if (s.conflict || (content.hash !== current && baseHash !== current))
      conflictId = writer.conflict(path, 'update', { hash: current, contentType: s.contentType, bytes: null }, content, baseHash);
    else if (content.hash !== current) writer.writeVersion(path, content, 'update');
    await writer.flush();
    return { status: conflictId ? ('conflict' as const) : ('ok' as const), conflictId, file: await fileRecord(trx, access.workspaceId, source.id, path) };
  });
}

/** Every version of a file, newest first. */
export async function history(ctx: Ctx, body: z.infer<typeof HistoryBody>) {
  const access = await requireSyncRole(ctx, body, 'viewer');
  const path = safePath(body.relativePath);
  let before: number | null = null;
  if (body.cursor) {
    if (!/^\d{1,18}$/.test(body.cursor)) throw validation('cursor', 'invalid', 'cursor is not a cursor this service gave out');
    before = Number(body.cursor);
  }
  const source = await findSource(ctx.db, access.workspaceId, body.sourceId);
  let q = ctx.db
    .selectFrom('syncVersions')
    .select(['id', 'contentHash', 'contentType', 'size', 'deleted', 'origin', 'userId', 'connectorId', 'conflictId', 'createdAt'])
    .where('sourceId', '=', source.id)
    .where('workspaceId', '=', access.workspaceId)
    .where('relativePath', '=', path)
    .orderBy('id', 'desc')
    .limit(body.limit + 1);
  if (before !== null) q = q.where('id', '<', before);
  const rows = await q.execute();
  if (!rows.length && before === null) throw notFound('File', path);
  const hasMore = rows.length > body.limit;
  const page = hasMore ? rows.slice(0, body.limit) : rows;
  return {
    versions: page.map((v) => ({
      versionId: String(v.id),
      contentHash: v.contentHash,
      contentType: v.contentType,
      size: v.size,
      deleted: v.deleted,
      origin: v.origin,
      userId: v.userId,
      connectorId: v.connectorId,
      conflictId: v.conflictId,
      createdAt: v.createdAt.toISOString(),
    })),
    nextCursor: hasMore ? String(page[page.length - 1].id) : null,
    hasMore,
  };
}

import type { z } from 'zod';
import type { Ctx } from '../../context.js';
import type { Db } from '../../db/index.js';
import { AppError, gone, notFound, validation } from '../../errors.js';
import { decodeContent, encodeContent, parseContentType, parseHash, sha256Hex } from '../../sync-rules/content.js';
import { pathFilter } from '../../sync-rules/globs.js';
import { checkPath } from '../../sync-rules/paths.js';
import { syncFilesRepo } from './local-sync.files.repo.js';
import { assertModeAllows, assertNotPaused, requireSource, requireSyncRole } from './local-sync.policy.js';
import { presentFile, presentVersion } from './local-sync.present.js';
import type { FileBody, FilesBody, FileUpdateBody, HistoryBody } from './local-sync.schema.js';
import { liveHash, SourceWriter } from './local-sync.writer.js';

/** The checked path (NFC), or 422 naming the reason. */
export function safePath(raw: string): string {
  const checked = checkPath(raw);
  if (!checked.ok) throw validation('relativePath', checked.reason, checked.message);
  return checked.path;
}

/** A content type the schema accepted, in its stored form (`text`, `binary` or a MIME type's essence). */
export const storedContentType = (value: string): string => parseContentType(value) ?? 'text';

/** A SHA-256 hex field, lower-cased (null when absent), or 422. */
export function hashField(field: string, value: string | null | undefined): string | null {
  if (value == null) return null;
  const hash = parseHash(value);
  if (!hash) throw validation(field, 'invalid', `${field} must be a SHA-256 hex string (64 hex digits)`);
  return hash;
}

export async function fileRecord(db: Db, workspaceId: string, sourceId: string, path: string) {
  const row = await syncFilesRepo.findFile(db, workspaceId, sourceId, path);
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
  const source = await requireSource(ctx.db, access.workspaceId, body.sourceId);
  const rows = await syncFilesRepo.listFiles(ctx.db, access.workspaceId, source.id, { after, limit: body.limit + 1, includeDeleted: body.includeDeleted });
  const hasMore = rows.length > body.limit;
  const page = hasMore ? rows.slice(0, body.limit) : rows;
  return {
    files: page.map((r) => presentFile(r, r.conflictId)),
    nextCursor: hasMore ? encodeCursor(page[page.length - 1].relativePath) : null,
    hasMore,
  };
}

/** A hash the path has had (a version) or been offered (a conflict side), with its content type. */
async function knownVersion(db: Db, workspaceId: string, sourceId: string, path: string, hash: string) {
  const v = await syncFilesRepo.versionWithHash(db, workspaceId, sourceId, path, hash);
  if (v) return v;
  const c = await syncFilesRepo.conflictWithHash(db, workspaceId, sourceId, path, hash);
  if (!c) return null;
  return { contentType: c.localHash === hash ? c.localContentType : c.serviceContentType, at: c.at };
}

const emptyFile = (sourceId: string, relativePath: string, updatedAt: Date) => ({
  sourceId,
  relativePath,
  contentHash: null,
  contentType: 'text',
  size: 0,
  deleted: true,
  version: 0,
  updatedAt,
  updatedBy: null,
  updatedByConnector: null,
});

/** The current content of a file, or (with contentHash) the bytes of one of its versions or conflict sides. */
export async function getFile(ctx: Ctx, body: z.infer<typeof FileBody>) {
  const access = await requireSyncRole(ctx, body, 'viewer');
  const path = safePath(body.relativePath);
  const hash = hashField('contentHash', body.contentHash);
  const source = await requireSource(ctx.db, access.workspaceId, body.sourceId);
  const record = await fileRecord(ctx.db, access.workspaceId, source.id, path);
  if (hash) {
    const known = await knownVersion(ctx.db, access.workspaceId, source.id, path, hash);
    const bytes = known ? await syncFilesRepo.blob(ctx.db, access.workspaceId, hash) : null;
    if (!known || !bytes) throw new AppError('NOT_FOUND', 'No version of this file has that contentHash', { resource: 'File version', field: 'contentHash' });
    const base = record ?? presentFile(emptyFile(source.id, path, known.at), null);
    return { ...base, contentHash: hash, contentType: known.contentType, size: bytes.length, deleted: false, content: encodeContent(bytes, known.contentType) };
  }
  if (!record) throw notFound('File', path);
  if (record.deleted) throw gone('File', path);
  const bytes = (await syncFilesRepo.blob(ctx.db, access.workspaceId, record.contentHash as string)) ?? Buffer.alloc(0);
  return { ...record, content: encodeContent(bytes, record.contentType) };
}

/** A service-side edit: applied (`ok`) when its base is the current version, else a conflict. */
export async function updateFile(ctx: Ctx, body: z.infer<typeof FileUpdateBody>) {
  const access = await requireSyncRole(ctx, body, 'editor');
  const path = safePath(body.relativePath);
  const baseHash = hashField('baseHash', body.baseHash);
  const contentType = storedContentType(body.contentType);
  const decoded = decodeContent(body.content, contentType, ctx.env.config.MAX_ATTACHMENT_BYTES);
  if (!decoded.ok) throw validation('content', decoded.reason, decoded.message);
  const content = { hash: sha256Hex(decoded.bytes), contentType, bytes: decoded.bytes };
  const now = ctx.now();
  return ctx.db.transaction().execute(async (trx) => {
    const source = await requireSource(trx, access.workspaceId, body.sourceId, true);
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
  const source = await requireSource(ctx.db, access.workspaceId, body.sourceId);
  const rows = await syncFilesRepo.history(ctx.db, access.workspaceId, source.id, path, { before, limit: body.limit + 1 });
  if (!rows.length && before === null) throw notFound('File', path);
  const hasMore = rows.length > body.limit;
  const page = hasMore ? rows.slice(0, body.limit) : rows;
  return { versions: page.map(presentVersion), nextCursor: hasMore ? String(page[page.length - 1].id) : null, hasMore };
}

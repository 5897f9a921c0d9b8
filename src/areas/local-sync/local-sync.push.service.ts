import type { z } from 'zod';
import type { Ctx } from '../../context.js';
import type { Db } from '../../db/index.js';
import { decodeContent, parseHash, sha256Hex } from '../../sync-rules/content.js';
import { type PathMatcher, pathFilter } from '../../sync-rules/globs.js';
import { checkPath } from '../../sync-rules/paths.js';
import { storedContentType } from './local-sync.files.service.js';
import { assertModeAllows, assertNotPaused, requireOwnConnector, requireSource, requireSyncRole, type SyncAccess } from './local-sync.policy.js';
import { localSyncRepo, type OperationRecord, type OperationStatus } from './local-sync.repo.js';
import type { PushBody, PushItem } from './local-sync.schema.js';
import { type Content, liveHash, SourceWriter } from './local-sync.writer.js';
import { insertJson, OPERATION_COLUMNS } from './local-sync.writer.repo.js';

export interface PushItemResult {
  operationId: string;
  relativePath: string;
  status: OperationStatus | 'duplicate' | 'rejected';
  contentHash: string | null;
  conflictId: string | null;
  serviceHash: string | null;
  originalStatus?: OperationStatus;
  error: { status: 422; code: 'VALIDATION_ERROR'; message: string; field: string; reason: string } | null;
}

/** An item that passed its own checks: checked path, verified bytes. */
interface Ready {
  index: number;
  item: PushItem;
  path: string;
  content: Content;
  baseHash: string | null;
}

const rejected = (item: PushItem, relativePath: string, field: string, reason: string, message: string): PushItemResult => ({
  operationId: item.operationId,
  relativePath,
  status: 'rejected',
  contentHash: item.contentHash ? (parseHash(item.contentHash) ?? null) : null,
  conflictId: null,
  serviceHash: null,
  error: { status: 422, code: 'VALIDATION_ERROR', message, field, reason },
});

/** Checks one item on its own (path, globs, hashes, bytes): a ready item, or its rejection. */
function prepare(item: PushItem, index: number, inSource: PathMatcher, maxBytes: number): Ready | PushItemResult {
  const checked = checkPath(item.relativePath);
  if (!checked.ok) return rejected(item, item.relativePath, 'relativePath', checked.reason, checked.message);
  const path = checked.path;
  if (!inSource(path)) return rejected(item, path, 'relativePath', 'excluded_by_pattern', 'relativePath is outside the source’s include/exclude patterns');
  let baseHash: string | null = null;
  if (item.baseHash != null) {
    baseHash = parseHash(item.baseHash);
    if (!baseHash) return rejected(item, path, 'baseHash', 'invalid', 'baseHash must be a SHA-256 hex string (64 hex digits)');
  }
  const contentType = storedContentType(item.contentType);
  if (item.isDelete) return { index, item, path, baseHash, content: { hash: null, contentType, bytes: null } };
  if (item.content === undefined) return rejected(item, path, 'content', 'required', 'content is required unless isDelete is true');
  if (item.contentHash === undefined) return rejected(item, path, 'contentHash', 'required', 'contentHash is required unless isDelete is true');
  const given = parseHash(item.contentHash);
  if (!given) return rejected(item, path, 'contentHash', 'invalid', 'contentHash must be a SHA-256 hex string (64 hex digits)');
  const decoded = decodeContent(item.content, contentType, maxBytes);
  if (!decoded.ok) return rejected(item, path, 'content', decoded.reason, decoded.message);
  const actual = sha256Hex(decoded.bytes);
  if (actual !== given) return rejected(item, path, 'contentHash', 'mismatch', `contentHash does not match the content: its bytes hash to ${actual}`);
  return { index, item, path, baseHash, content: { hash: actual, contentType, bytes: decoded.bytes } };
}

/**
 * Decides one ready item against the path's current state (as changed by the items before it): applied when its
 * base is the current version, unchanged when the bytes are already there, else a conflict (always when the path
 * has an open conflict).
 */
function decide(writer: SourceWriter, ready: Ready): { status: OperationStatus; conflictId: string | null; serviceHash: string | null } {
  const { path, content, baseHash } = ready;
  const s = writer.get(path);
  const current = liveHash(s);
  const serviceSide: Content = { hash: current, contentType: s.contentType, bytes: null };
  if (s.conflict) return { status: 'conflict', conflictId: writer.conflict(path, 'push', content, serviceSide, baseHash), serviceHash: current };
  if (content.hash === current) return { status: 'unchanged', conflictId: null, serviceHash: current }; // same bytes, or deleting what is gone
  if (baseHash === current) {
    writer.writeVersion(path, content, 'push');
    return { status: 'applied', conflictId: null, serviceHash: current };
  }
  return { status: 'conflict', conflictId: writer.conflict(path, 'push', content, serviceSide, baseHash), serviceHash: current };
}

/** Answers each item in order: rejected as prepared, duplicate of an operation already answered, or decided now. */
function answer(
  writer: SourceWriter,
  prepared: (Ready | PushItemResult)[],
  seen: Map<string, OperationRecord>,
): { out: PushItemResult[]; ops: OperationRecord[] } {
  const ops: OperationRecord[] = [];
  const out = prepared.map((p): PushItemResult => {
    if (!('index' in p)) return p;
    const { operationId } = p.item;
    const first = seen.get(operationId);
    if (first) {
      const serviceHash = liveHash(writer.get(p.path));
      const { contentHash, conflictId, status: originalStatus } = first;
      return { operationId, relativePath: p.path, status: 'duplicate', contentHash, conflictId, serviceHash, originalStatus, error: null };
    }
    const { status, conflictId, serviceHash } = decide(writer, p);
    const record = { operationId, status, contentHash: p.content.hash, conflictId };
    seen.set(operationId, record);
    ops.push(record);
    return { operationId, relativePath: p.path, status, contentHash: p.content.hash, conflictId, serviceHash, error: null };
  });
  return { out, ops };
}

async function recordOperations(db: Db, access: SyncAccess, sourceId: string, ops: OperationRecord[], now: Date) {
  await insertJson(
    db,
    'sync_operations',
    OPERATION_COLUMNS,
    ops.map((o) => ({
      source_id: sourceId,
      operation_id: o.operationId,
      workspace_id: access.workspaceId,
      status: o.status,
      content_hash: o.contentHash,
      conflict_id: o.conflictId,
      created_at: now,
    })),
  );
}

/**
 * push-batch: every item is checked on its own, then applied in order inside one transaction that holds the
 * source's lock (so no other write interleaves and the batch's events are consecutive). Operation ids already
 * seen answer `duplicate`. A `connectorId` must be the caller's own connector.
 */
export async function pushBatch(ctx: Ctx, body: z.infer<typeof PushBody>): Promise<{ results: PushItemResult[] }> {
  const access = await requireSyncRole(ctx, body, 'editor');
  const now = ctx.now();
  const maxBytes = ctx.env.config.MAX_ATTACHMENT_BYTES;
  const results = await ctx.db.transaction().execute(async (trx) => {
    const source = await requireSource(trx, access.workspaceId, body.sourceId, true);
    assertNotPaused(source);
    assertModeAllows(source, 'push');
    const connectorId = body.connectorId ? await requireOwnConnector(trx, access, body.connectorId) : null;
    const inSource = pathFilter(source.includePatterns, source.excludePatterns);
    const prepared = body.items.map((item, i) => prepare(item, i, inSource, maxBytes));
    const ready = prepared.filter((p): p is Ready => 'index' in p);
    const writer = new SourceWriter(trx, access.workspaceId, source.id, { userId: access.userId, connectorId }, now);
    const opIds = ready.map((r) => r.item.operationId);
    const [seen] = await Promise.all([localSyncRepo.operationsSeen(trx, access.workspaceId, source.id, opIds), writer.load(ready.map((r) => r.path))]);
    const { out, ops } = answer(writer, prepared, seen);
    await writer.flush();
    await recordOperations(trx, access, source.id, ops, now);
    if (connectorId) await localSyncRepo.touchOwnConnector(trx, access.workspaceId, access.userId, connectorId, now);
    return out;
  });
  return { results };
}

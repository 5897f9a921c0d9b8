import type { z } from 'zod';
import type { Ctx } from '../../context.js';
import type { Db } from '../../db/index.js';
import type { SyncContentType } from '../../db/tables/local-sync.js';
import { decodeContent, parseHash, sha256Hex } from './content.js';
import { assertModeAllows, assertNotPaused, findSource, requireConnector, requireSyncRole, touchConnector } from './local-sync.policy.js';
import type { PushBody, PushItem } from './local-sync.schema.js';
import { normalisePath, pathFilter } from './paths.js';
import { type Content, insertJson, liveHash, SourceWriter } from './writer.js';

const OPERATION_COLUMNS = [
  ['source_id', 'text'],
  ['operation_id', 'text'],
  ['workspace_id', 'text'],
  ['status', 'text'],
  ['content_hash', 'text'],
  ['conflict_id', 'text'],
  ['created_at', 'timestamptz'],
] as const;

type Status = 'applied' | 'unchanged' | 'conflict' | 'duplicate' | 'rejected';

export interface PushItemResult {
  operationId: string;
  relativePath: string;
  status: Status;
  contentHash: string | null;
  conflictId: string | null;
  serviceHash: string | null;
  originalStatus?: 'applied' | 'unchanged' | 'conflict';
  error: { status: 422; code: 'VALIDATION_ERROR'; message: string; field: string; reason: string } | null;
}

/** An item that passed its own checks: normalised path, verified bytes. */
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
function prepare(item: PushItem, index: number, inSource: (p: string) => boolean, maxBytes: number): Ready | PushItemResult {
  const checked = normalisePath(item.relativePath);
  if (!checked.ok) return rejected(item, item.relativePath, 'relativePath', checked.reason, checked.message);
  const path = checked.path;
  if (!inSource(path)) return rejected(item, path, 'relativePath', 'excluded_by_pattern', 'relativePath is outside the source’s include/exclude patterns');
  let baseHash: string | null = null;
  if (item.baseHash != null) {
    baseHash = parseHash(item.baseHash);
    if (!baseHash) return rejected(item, path, 'baseHash', 'invalid', 'baseHash must be a SHA-256 hex string (64 hex digits)');
  }
  const contentType: SyncContentType = item.contentType;
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
 * push-batch: every item is checked on its own, then applied in order inside one transaction that holds the
 * source's lock (so no other write interleaves and the batch's events are consecutive). Operation ids already
 * seen answer `duplicate`.
 */
export async function pushBatch(ctx: Ctx, body: z.infer<typeof PushBody>): Promise<{ results: PushItemResult[] }> {
  const access = await requireSyncRole(ctx, body, 'editor');
  const now = ctx.now();
  const maxBytes = ctx.env.config.MAX_ATTACHMENT_BYTES;
  const results = await ctx.db.transaction().execute(async (trx) => {
    const source = await findSource(trx, access.workspaceId, body.sourceId, true);
    assertNotPaused(source);
    assertModeAllows(source, 'push');
    const connectorId = body.connectorId ? await requireConnector(trx, access.workspaceId, body.connectorId) : null;
    const inSource = pathFilter(source.includePatterns, source.excludePatterns);
    const prepared = body.items.map((item, i) => prepare(item, i, inSource, maxBytes));
    const ready = prepared.filter((p): p is Ready => 'index' in p);

    const writer = new SourceWriter(trx, access.workspaceId, source.id, { userId: access.userId, connectorId }, now);
    const [seen] = await Promise.all([
      loadOperations(
        trx,
        source.id,
        access.workspaceId,
        ready.map((r) => r.item.operationId),
      ),
      writer.load(ready.map((r) => r.path)),
    ]);

    const ops: { operationId: string; status: 'applied' | 'unchanged' | 'conflict'; contentHash: string | null; conflictId: string | null }[] = [];
    const out = prepared.map((p): PushItemResult => {
      if (!('index' in p)) return p;
      const { item, path, content, baseHash } = p;
      const first = seen.get(item.operationId);
      const s = writer.get(path);
      const current = liveHash(s);
      if (first)
        return {
          operationId: item.operationId,
          relativePath: path,
          status: 'duplicate',
          contentHash: first.contentHash,
          conflictId: first.conflictId,
          serviceHash: current,
          originalStatus: first.status,
          error: null,
        };
      let status: 'applied' | 'unchanged' | 'conflict';
      let conflictId: string | null = null;
      if (s.conflict) {
        status = 'conflict';
        conflictId = writer.conflict(path, 'push', content, { hash: current, contentType: s.contentType, bytes: null }, baseHash);
      } else if (content.hash === current)
        status = 'unchanged'; // same bytes, or deleting what is already gone
      else if (baseHash === current) {
        status = 'applied';
        writer.writeVersion(path, content, 'push');
      } else {
        status = 'conflict';
        conflictId = writer.conflict(path, 'push', content, { hash: current, contentType: s.contentType, bytes: null }, baseHash);
      }
      const record = { operationId: item.operationId, status, contentHash: content.hash, conflictId };
      seen.set(item.operationId, record);
      ops.push(record);
      return { operationId: item.operationId, relativePath: path, status, contentHash: content.hash, conflictId, serviceHash: current, error: null };
    });

    await writer.flush();
    if (ops.length)
      await insertJson(
        trx,
        'sync_operations',
        OPERATION_COLUMNS,
        ops.map((o) => ({
          source_id: source.id,
          operation_id: o.operationId,
          workspace_id: access.workspaceId,
          status: o.status,
          content_hash: o.contentHash,
          conflict_id: o.conflictId,
          created_at: now,
        })),
      );
    if (connectorId) await touchConnector(trx, access.workspaceId, connectorId, now);
    return out;
  });
  return { results };
}

async function loadOperations(db: Db, sourceId: string, workspaceId: string, ids: string[]) {
  const seen = new Map<string, { status: 'applied' | 'unchanged' | 'conflict'; contentHash: string | null; conflictId: string | null }>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 1000) {
    const rows = await db
      .selectFrom('syncOperations')
      .select(['operationId', 'status', 'contentHash', 'conflictId'])
      .where('sourceId', '=', sourceId)
      .where('workspaceId', '=', workspaceId)
      .where('operationId', 'in', unique.slice(i, i + 1000))
      .execute();
    for (const r of rows) seen.set(r.operationId, r);
  }
  return seen;
}

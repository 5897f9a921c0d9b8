import type { z } from 'zod';
import type { Ctx } from '../../context.js';
import { validation } from '../../errors.js';
import { encodeContent } from './content.js';
import { findSource, requireSyncRole } from './local-sync.policy.js';
import { decodeSeq, encodeSeq } from './local-sync.present.js';
import type { DeltasBody } from './local-sync.schema.js';

/**
 * Events of a source after a cursor, in the order of their sequence. `head` (the newest event when the read
 * started) bounds the page, so when nothing more is left `nextCursor` can move past events the caller asked to
 * leave out without skipping any that commit later: every write of a source holds its row lock while it
 * numbers its events, so later commits always get higher numbers.
 */
export async function deltas(ctx: Ctx, body: z.infer<typeof DeltasBody>) {
  const access = await requireSyncRole(ctx, body, 'viewer');
  const after = decodeSeq(body.cursor);
  if (after === null) throw validation('cursor', 'invalid', 'cursor is not a cursor this service gave out');
  const source = await findSource(ctx.db, access.workspaceId, body.sourceId);
  const db = ctx.db;
  const headRow = await db
    .selectFrom('syncEvents')
    .select((eb) => eb.fn.max('seq').as('head'))
    .where('sourceId', '=', source.id)
    .where('workspaceId', '=', access.workspaceId)
    .executeTakeFirst();
  const head = Number(headRow?.head ?? 0);
  if (head <= after) return { events: [], nextCursor: encodeSeq(Math.max(after, head)), hasMore: false };

  let q = db
    .selectFrom('syncEvents as e')
    .select([
      'e.seq',
      'e.type',
      'e.sourceId',
      'e.relativePath',
      'e.contentHash',
      'e.contentType',
      'e.size',
      'e.conflictId',
      'e.localHash',
      'e.serviceHash',
      'e.baseHash',
      'e.resolution',
      'e.connectorId',
      'e.userId',
      'e.createdAt',
    ])
    .where('e.sourceId', '=', source.id)
    .where('e.workspaceId', '=', access.workspaceId)
    .where('e.seq', '>', after)
    .where('e.seq', '<=', head)
    .orderBy('e.seq')
    .limit(body.limit + 1);
  if (body.excludeConnectorId) {
    const exclude = body.excludeConnectorId;
    q = q.where((eb) => eb.or([eb('e.connectorId', 'is', null), eb('e.connectorId', '<>', exclude)]));
  }
  const rows = body.includeContent
    ? await q
        .leftJoin('syncBlobs as b', (j) => j.onRef('b.workspaceId', '=', 'e.workspaceId').onRef('b.hash', '=', 'e.contentHash').on('e.type', '=', 'file.upsert'))
        .select('b.content')
        .execute()
    : await q.execute();
  const hasMore = rows.length > body.limit;
  const page = hasMore ? rows.slice(0, body.limit) : rows;
  const events = page.map((r) => {
    const event = {
      cursor: encodeSeq(r.seq),
      type: r.type,
      sourceId: r.sourceId,
      relativePath: r.relativePath,
      contentHash: r.contentHash,
      contentType: r.contentType,
      size: r.size,
      conflictId: r.conflictId,
      localHash: r.localHash,
      serviceHash: r.serviceHash,
      baseHash: r.baseHash,
      resolution: r.resolution,
      connectorId: r.connectorId,
      userId: r.userId,
      createdAt: r.createdAt.toISOString(),
    };
    if (body.includeContent && r.type === 'file.upsert') {
      const bytes = (r as { content?: Uint8Array | null }).content;
      return { ...event, content: bytes ? encodeContent(bytes, r.contentType ?? 'text') : '' };
    }
    return event;
  });
  const nextCursor = hasMore ? events[events.length - 1].cursor : encodeSeq(head);
  return { events, nextCursor, hasMore };
}

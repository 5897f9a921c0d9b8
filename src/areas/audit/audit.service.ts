import type { z } from 'zod';
import type { Ctx } from '../../context.js';
import { invalidParameter } from '../../errors.js';
import { requireAuditReader } from './audit.policy.js';
import { decodeAuditCursor, encodeAuditCursor, presentAuditEntry } from './audit.present.js';
import { auditRepo } from './audit.repo.js';
import type { AuditListQuery } from './audit.schema.js';

/**
 * A workspace's audit log, newest first: its own entries and the sign-ins of its current members made since they
 * joined. Pages by an opaque cursor on (time, id), so entries written meanwhile never
 * shift a page.
 */
export async function listAuditLog(ctx: Ctx, query: z.output<typeof AuditListQuery>) {
  const { workspaceId, limit } = query;
  await requireAuditReader(ctx, workspaceId);
  const after = query.cursor ? decodeAuditCursor(query.cursor) : null;
  if (query.cursor && !after) throw invalidParameter('cursor', 'is not a cursor this service gave out');
  const filters = { actions: query.action, actorId: query.actorId, targetId: query.targetId, since: query.since, until: query.until };
  const rows = await auditRepo.list(ctx.db, workspaceId, filters, after, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const hasMore = rows.length > limit;
  return {
    data: page.map(presentAuditEntry),
    meta: { limit, hasMore, nextCursor: hasMore && last ? encodeAuditCursor({ at: last.keyAt, id: last.id }) : null },
  };
}

import type { FastifyBaseLogger } from 'fastify';
import { type BlobStore, deleteBlobs } from '../../../blobs/index.js';
import { type Ctx, requireActor } from '../../../context.js';
import type { Db } from '../../../db/index.js';
import { gone, notFound, validation } from '../../../errors.js';
import { nudgeEventDispatch } from '../../events/events.jobs.js';
import { recordEvent } from '../../events/events.record.js';
import { readableSpaceIds } from '../../spaces/spaces.access.js';
import { requireSpaceRole } from '../../spaces/spaces.policy.js';
import { memberScope, requireWorkspaceRole } from '../../workspaces/workspaces.policy.js';
import { requireMayCarrySubtree, requirePageAccess } from '../pages.policy.js';
import { type PageRecord, presentPage } from '../pages.present.js';
import { pagesRepo } from '../pages.repo.js';
import { trashRepo } from './trash.repo.js';

const DAY_MS = 24 * 3600 * 1000;

/** One event about a page of the trash (its subtree counted in `pageCount`). */
const pageEvent = (page: { id: string; workspaceId: string; spaceId: string; title: string }, type: 'page.trashed' | 'page.restored', data: object) => ({
  workspaceId: page.workspaceId,
  type,
  subject: { type: 'page' as const, id: page.id },
  spaceId: page.spaceId,
  pageId: page.id,
  data: { title: page.title, ...data },
});

/**
 * Moves the page and all its descendants to the trash (one statement); refused when a page below it is closed to the
 * caller (its grantees would lose it to the purge unseen).
 */
export async function deletePage(ctx: Ctx, pageId: string, workspaceId?: string) {
  const actor = requireActor(ctx);
  const { page } = await requirePageAccess(ctx, pageId, 'editor', { workspaceId });
  await ctx.db.transaction().execute(async (trx) => {
    await pagesRepo.lockSpaceTree(trx, page.spaceId);
    await requireMayCarrySubtree(trx, actor.userId, page, { move: false });
    const n = await trashRepo.trashSubtree(trx, page.workspaceId, pageId, actor.userId, ctx.now());
    if (n === 0) throw gone('Page', pageId);
    await recordEvent(trx, ctx, pageEvent(page, 'page.trashed', { pageCount: n }));
  });
  await nudgeEventDispatch(ctx);
  return { id: pageId, deleted: true as const };
}

/** Brings back a trashed page and the descendants trashed with it; to the space root when its parent is gone. */
export async function recoverPage(ctx: Ctx, pageId: string, workspaceId?: string) {
  const actor = requireActor(ctx);
  const { page } = await requirePageAccess(ctx, pageId, 'editor', { workspaceId, allowTrashed: true });
  await ctx.db.transaction().execute(async (trx) => {
    await pagesRepo.lockSpaceTree(trx, page.spaceId);
    const ref = await pagesRepo.findTrashRef(trx, page.workspaceId, pageId);
    if (!ref) throw notFound('Page', pageId);
    if (!ref.deletedAt || !ref.trashRootId) throw validation('pageId', 'not_in_trash', 'This page is not in the trash');
    const n = await trashRepo.recoverSubtree(trx, page.workspaceId, pageId, ref.trashRootId, actor.userId, ctx.now());
    await recordEvent(trx, ctx, pageEvent(page, 'page.restored', { pageCount: n }));
  });
  await nudgeEventDispatch(ctx);
  const row = await pagesRepo.find(ctx.db, page.workspaceId, pageId, actor.userId);
  if (!row) throw notFound('Page', pageId);
  return presentPage(row);
}

export function presentTrashed(row: PageRecord & { deletedAt: Date | null; deletedBy: string | null; descendantCount: number }, retentionDays: number) {
  const deletedAt = row.deletedAt ?? new Date(0);
  return {
    ...presentPage(row),
    deletedAt: deletedAt.toISOString(),
    deletedBy: row.deletedBy,
    descendantCount: row.descendantCount,
    purgeAt: new Date(deletedAt.getTime() + retentionDays * DAY_MS).toISOString(),
  };
}

/** Trash roots of one space, or of every space of the workspace the caller may read. */
export async function listTrash(ctx: Ctx, query: { workspaceId: string; spaceId?: string; limit: number; page: number }) {
  const actor = requireActor(ctx);
  const { workspaceId, limit, page } = query;
  let scope: string | ReturnType<typeof readableSpaceIds>;
  if (query.spaceId) {
    await requireSpaceRole(ctx, workspaceId, query.spaceId, 'viewer');
    scope = query.spaceId;
  } else {
    await requireWorkspaceRole(ctx, workspaceId, 'viewer');
    scope = readableSpaceIds(ctx.db, workspaceId, memberScope(actor));
  }
  const [rows, total] = await Promise.all([
    trashRepo.list(ctx.db, workspaceId, scope, actor.userId, limit, (page - 1) * limit),
    trashRepo.count(ctx.db, workspaceId, scope, actor.userId),
  ]);
  const days = ctx.env.config.TRASH_RETENTION_DAYS;
  return { data: rows.map((r) => presentTrashed(r, days)), meta: { page, limit, total } };
}

/**
 * Deletes for good the pages trashed more than `days` days before `now` (with their history, comments and
 * attachments; attachment bytes too when `blobs` is given). Returns how many pages went.
 */
export async function purgeExpiredTrash(db: Db, now: Date, days: number, blobs?: BlobStore, log?: FastifyBaseLogger): Promise<number> {
  const { purged, blobKeys } = await trashRepo.purgeBefore(db, new Date(now.getTime() - days * DAY_MS));
  if (blobs && blobKeys.length) await deleteBlobs(blobs, blobKeys, log);
  return purged;
}

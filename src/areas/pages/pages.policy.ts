import { type Ctx, requireActor } from '../../context.js';
import type { Db } from '../../db/index.js';
import { AppError, forbidden, gone, notFound } from '../../errors.js';
import { requireSpaceRole } from '../spaces/spaces.policy.js';
import { type Role, roleAtLeast } from '../workspaces/workspaces.policy.js';
import { pagesRepo } from './pages.repo.js';
import { cappedRole, restrictionCapOf } from './restrictions/restrictions.cap.js';
import { restrictionsRepo } from './restrictions/restrictions.repo.js';

export interface PageRef {
  id: string;
  workspaceId: string;
  spaceId: string;
  title: string;
  deletedAt: Date | null;
}

const VERB: Record<Role, string> = { viewer: 'read', editor: 'edit', admin: 'administer' };

/**
 * May the actor act on this page with at least `min`? Its workspace comes from the page itself.
 * 404 when the page does not exist, its space is invisible to the caller, or `workspaceId` is given and differs;
 * 403 for a non-member of the workspace; 410 DELETED when the page is in the trash (unless `allowTrashed`);
 * 403 when the role in the page's space is below `min`. Trash is reported only to those who may read the page.
 * Page restrictions (issue 15) come after the space: a page closed to the caller is a 404 like an invisible space
 * (workspace admins included), and an open one caps the role at the lowest grant on its path.
 */
export async function requirePageAccess(
  ctx: Ctx,
  pageId: string,
  min: Role,
  opts: { workspaceId?: string; allowTrashed?: boolean } = {},
): Promise<{ role: Role; page: PageRef }> {
  return checkPageAccess(ctx, pageId, await pagesRepo.findRef(ctx.db, pageId), min, opts);
}

/** `requirePageAccess` for a page row already read (so a read needs no second query for the page). */
export async function checkPageAccess<T extends PageRef>(
  ctx: Ctx,
  pageId: string,
  page: T | undefined,
  min: Role,
  opts: { workspaceId?: string; allowTrashed?: boolean } = {},
): Promise<{ role: Role; page: T }> {
  if (!page || (opts.workspaceId && opts.workspaceId !== page.workspaceId)) throw notFound('Page', pageId);
  let spaceRole: Role;
  try {
    ({ role: spaceRole } = await requireSpaceRole(ctx, page.workspaceId, page.spaceId, 'viewer'));
  } catch (err) {
    // An invisible space hides its pages: report the page, never the space behind it.
    if (err instanceof AppError && err.code === 'NOT_FOUND') throw notFound('Page', pageId);
    throw err;
  }
  const cap = await restrictionCapOf(ctx.db, page.id, requireActor(ctx).userId);
  if (cap === 'closed') throw notFound('Page', pageId);
  const role = cappedRole(spaceRole, cap);
  if (page.deletedAt && !opts.allowTrashed) throw gone('Page', pageId);
  if (!roleAtLeast(role, min))
    throw forbidden(
      cap === 'open'
        ? `Your role in this space (${role}) cannot ${VERB[min]} pages; ${min} is needed`
        : `Your access to this restricted page (${role}) cannot ${VERB[min]} it; ${min} is needed`,
      { pageId, role, required: min },
    );
  return { role, page };
}

/** How many ids an error's details list at most. */
const DETAIL_IDS = 20;

/**
 * May the actor carry this page's whole subtree: move it under `to.parentId`, or send it to the trash? Checked in one
 * query over the subtree, inside the transaction that holds the space's tree lock (issue 29):
 * - 403 `carries_pages_you_cannot_open` when a page below it is closed to the actor (a move would hide it from its
 *   grantees under whatever it lands in; a trash would send it to the purge with nobody able to see it go). Its id and
 *   title stay unsaid; `count` says how many.
 * - for a move, 403 `would_lock_out_grantees` when a restricted page inside it has grantees who open it now but hold
 *   no grant on a restriction above the new parent: the move would shut them out silently. `pageIds` and `userIds`
 *   name them (the actor opens those pages, so may know who they are shared with); granting them on the new parent's
 *   restriction first lets the move through.
 */
export async function requireMayCarrySubtree(
  db: Db,
  actorUserId: string,
  page: { id: string; workspaceId: string },
  to: { move: true; parentId: string | null } | { move: false },
): Promise<void> {
  const carried = await restrictionsRepo.carried(db, {
    workspaceId: page.workspaceId,
    pageId: page.id,
    userId: actorUserId,
    newParentId: to.move ? to.parentId : null,
    liveOnly: !to.move,
  });
  if (carried.closed > 0)
    throw forbidden(
      `This page has ${carried.closed === 1 ? 'a page' : `${carried.closed} pages`} below it that you cannot open; ${to.move ? 'moving' : 'trashing'} it would take ${carried.closed === 1 ? 'that page' : 'them'} away from the people ${carried.closed === 1 ? 'it is' : 'they are'} shared with. Someone who can open every page below it may do it.`,
      { reason: 'carries_pages_you_cannot_open', pageId: page.id, count: carried.closed },
    );
  if (to.move && carried.lockedPageIds.length > 0)
    throw forbidden(
      'Moving this page here would shut people out of restricted pages inside it: they are granted there, but not on the restriction above the new parent. Grant them there first, or move the page elsewhere.',
      {
        reason: 'would_lock_out_grantees',
        pageId: page.id,
        parentId: to.parentId,
        pageIds: carried.lockedPageIds.slice(0, DETAIL_IDS),
        userIds: carried.lockedUserIds.slice(0, DETAIL_IDS),
      },
    );
}

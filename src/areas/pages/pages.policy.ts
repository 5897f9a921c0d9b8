import { type Ctx, requireActor } from '../../context.js';
import { AppError, forbidden, gone, notFound } from '../../errors.js';
import { requireSpaceRole } from '../spaces/spaces.policy.js';
import { type Role, roleAtLeast } from '../workspaces/workspaces.policy.js';
import { pagesRepo } from './pages.repo.js';
import { cappedRole, restrictionCapOf } from './restrictions/restrictions.cap.js';

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

import { type Ctx, requireActor } from '../../context.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import { type PageRef, requirePageAccess } from '../pages/pages.policy.js';
import { memberRole, memberScope } from '../workspaces/workspaces.policy.js';
import type { ShareRow } from './shares.repo.js';
import { sharesRepo } from './shares.repo.js';

/**
 * Publishing needs editor rights on the page, a workspace that allows public pages, and a page no restriction covers
 * (a restricted page is meant for named people only). Revoking needs editor rights on the page, or being a workspace
 * admin. Reading a page's share needs editor rights on the page.
 */
export async function requirePublishRights(ctx: Ctx, pageId: string): Promise<PageRef> {
  const { page } = await requirePageAccess(ctx, pageId, 'editor');
  if (!(await sharesRepo.allowsPublicPages(ctx.db, page.workspaceId)))
    throw forbidden('This workspace does not allow public pages (an admin can turn on settings.allowPublicPages)', {
      reason: 'public_pages_disabled',
      workspaceId: page.workspaceId,
    });
  if (await sharesRepo.isRestricted(ctx.db, page.workspaceId, pageId))
    throw forbidden('A restricted page cannot be published', { reason: 'page_restricted', pageId });
  return page;
}

/**
 * A share the caller may revoke: a workspace admin's, or one on a page they may edit (trashed or not). Others see 404,
 * and so does a key scoped to another workspace (its user's membership here does not count through it).
 */
export async function requireRevokeRights(ctx: Ctx, share: ShareRow | undefined, shareId: string): Promise<ShareRow> {
  if (!share || share.revokedAt) throw notFound('Share', shareId);
  const { role } = await memberRole(ctx.db, share.workspaceId, memberScope(requireActor(ctx)));
  if (!role) throw notFound('Share', shareId);
  if (role === 'admin') return share;
  try {
    await requirePageAccess(ctx, share.pageId, 'editor', { workspaceId: share.workspaceId, allowTrashed: true });
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') throw notFound('Share', shareId);
    throw err;
  }
  return share;
}

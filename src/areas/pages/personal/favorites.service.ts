import type { z } from 'zod';
import { type Ctx, requireActor } from '../../../context.js';
import { requireWorkspaceRole } from '../../workspaces/workspaces.policy.js';
import { requirePageAccess } from '../pages.policy.js';
import { presentPage } from '../pages.present.js';
import { personalRepo } from './personal.repo.js';
import type { FavoriteListQuery } from './personal.schema.js';

/** Stars a page the caller can read (404 when they cannot, 410 when it is in the trash); starring twice is a no-op. */
export async function addFavorite(ctx: Ctx, pageId: string, workspaceId?: string) {
  const actor = requireActor(ctx);
  const { page } = await requirePageAccess(ctx, pageId, 'viewer', { workspaceId });
  const at = await personalRepo.addFavorite(ctx.db, { workspaceId: page.workspaceId, userId: actor.userId, pageId, now: ctx.now() });
  return { pageId, favorite: true, favoritedAt: at.toISOString() };
}

/** Unstars a page (a trashed one too); unstarring a page that was not starred is a no-op. */
export async function removeFavorite(ctx: Ctx, pageId: string, workspaceId?: string) {
  const actor = requireActor(ctx);
  const { page } = await requirePageAccess(ctx, pageId, 'viewer', { workspaceId, allowTrashed: true });
  await personalRepo.removeFavorite(ctx.db, page.workspaceId, actor.userId, pageId);
  return { pageId, favorite: false, favoritedAt: null };
}

/** The caller's favourites in a workspace that they can still open, oldest star first. */
export async function listFavorites(ctx: Ctx, query: z.infer<typeof FavoriteListQuery>) {
  const actor = requireActor(ctx);
  await requireWorkspaceRole(ctx, query.workspaceId, 'viewer');
  const rows = await personalRepo.listFavorites(ctx.db, query.workspaceId, actor.userId, query.limit);
  return rows.map((r) => ({ ...presentPage(r), spaceName: r.spaceName, favoritedAt: r.favoritedAt.toISOString() }));
}

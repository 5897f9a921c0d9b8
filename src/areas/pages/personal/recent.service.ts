import type { z } from 'zod';
import { type Ctx, requireActor } from '../../../context.js';
import { requireWorkspaceRole } from '../../workspaces/workspaces.policy.js';
import { presentPage } from '../pages.present.js';
import { pagesRepo } from '../pages.repo.js';
import { personalRepo } from './personal.repo.js';
import type { RecentQuery } from './personal.schema.js';

/** A visit younger than this is not written again. */
export const VISIT_THROTTLE_SECONDS = 60;

/**
 * Visits this process wrote lately (`workspace:user:page` → ms), so a page read again within the minute skips even the
 * upsert. Bounded and short-lived: another instance only writes its own upsert, which the SQL throttles the same way.
 */
const lastWritten = new Map<string, number>();
const REMEMBERED = 10_000;

/**
 * Notes that a person opened a page in the web app (a signed-in session, not an API key or an agent), after the read
 * and off its path: the write is not awaited, and a failure is only logged.
 */
export function noteVisit(ctx: Ctx, page: { id: string; workspaceId: string }) {
  const actor = ctx.actor;
  if (actor?.via !== 'jwt') return;
  const now = ctx.now();
  const key = `${page.workspaceId}:${actor.userId}:${page.id}`;
  const last = lastWritten.get(key);
  if (last !== undefined && now.getTime() - last < VISIT_THROTTLE_SECONDS * 1000) return;
  if (lastWritten.size >= REMEMBERED) lastWritten.clear();
  lastWritten.set(key, now.getTime());
  personalRepo
    .recordVisit(ctx.db, { workspaceId: page.workspaceId, userId: actor.userId, pageId: page.id, now }, VISIT_THROTTLE_SECONDS)
    .catch((err: unknown) => {
      lastWritten.delete(key);
      ctx.log.warn({ err, pageId: page.id }, 'page visit not recorded');
    });
}

/** The home screen's lists: the pages the caller opened last, and the workspace's pages edited last, both access-filtered. */
export async function listRecent(ctx: Ctx, query: z.infer<typeof RecentQuery>) {
  const actor = requireActor(ctx);
  await requireWorkspaceRole(ctx, query.workspaceId, 'viewer');
  const [visited, updated] = await Promise.all([
    personalRepo.listVisited(ctx.db, query.workspaceId, actor.userId, query.limit),
    pagesRepo.listRecent(ctx.db, query.workspaceId, actor.userId, query.limit),
  ]);
  return {
    visited: visited.map((r) => ({ ...presentPage(r), spaceName: r.spaceName, visitedAt: r.visitedAt.toISOString() })),
    updated: updated.map((r) => ({ ...presentPage(r), spaceName: r.spaceName })),
  };
}

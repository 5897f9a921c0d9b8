import type { z } from 'zod';
import { type Ctx, requireActor } from '../../../context.js';
import { requireWorkspaceRole } from '../../workspaces/workspaces.policy.js';
import { openPages } from '../page-access.sql.js';
import type { PageTitle, PageTitlesQuery } from './titles.schema.js';

/**
 * The current title, icon and address of each named page the caller can open (a page link or mention shows the title
 * as it is now, not as it was when the link was made, and opens the page wherever it has moved). Pages that are
 * unknown, in the trash, in another workspace or closed to the caller are left out, alike: the answer says nothing
 * about them.
 */
export async function pageTitles(ctx: Ctx, query: z.infer<typeof PageTitlesQuery>): Promise<z.infer<typeof PageTitle>[]> {
  const actor = requireActor(ctx);
  await requireWorkspaceRole(ctx, query.workspaceId, 'viewer');
  const rows = await openPages(ctx.db, query.workspaceId, actor.userId)
    .where('p.id', 'in', query.ids)
    .select(['p.id', 'p.title', 'p.icon', 'p.slug', 'p.spaceId'])
    .orderBy('p.id')
    .execute();
  return rows.map((r) => ({ id: r.id, title: r.title, icon: r.icon ?? null, slug: r.slug, spaceId: r.spaceId }));
}

import { z } from 'zod';
import { defineTool, READ, UPDATE } from '../../../mcp/tool.js';
import { PageIdParams } from '../pages.schema.js';
import { addFavorite, listFavorites, removeFavorite } from './favorites.service.js';
import { FavoriteBody, FavoriteListQuery, FavoritePage, FavoriteState, ListedPage, RecentPages, RecentQuery, VisitedPage } from './personal.schema.js';
import { listRecent } from './recent.service.js';

const category = 'page';

/** A page in one of a person's lists: what an agent needs to pick one and read it next. */
const BRIEF = { id: true, title: true, icon: true, spaceId: true, spaceName: true, parentId: true, updatedAt: true } as const;
const ListedPageBrief = ListedPage.pick(BRIEF);
const brief = (p: z.input<typeof ListedPageBrief>) => ({
  id: p.id,
  title: p.title,
  icon: p.icon,
  spaceId: p.spaceId,
  spaceName: p.spaceName,
  parentId: p.parentId,
  updatedAt: p.updatedAt,
});

export const personalPageTools = [
  defineTool({
    name: 'page_favorite_add',
    title: 'Star a page',
    category,
    description: 'Add a page to your favourites (the starred pages listed in the web app’s sidebar). Idempotent. Returns `{ pageId, favorite, favoritedAt }`.',
    input: PageIdParams.extend(FavoriteBody.shape),
    output: FavoriteState,
    annotations: { ...UPDATE, idempotentHint: true },
    handler: (ctx, a) => addFavorite(ctx, a.pageId, a.workspaceId),
  }),
  defineTool({
    name: 'page_favorite_remove',
    title: 'Unstar a page',
    category,
    description: 'Remove a page from your favourites. Idempotent. Returns `{ pageId, favorite: false }`.',
    input: PageIdParams.extend(FavoriteBody.shape),
    output: FavoriteState,
    annotations: { ...UPDATE, idempotentHint: true },
    handler: (ctx, a) => removeFavorite(ctx, a.pageId, a.workspaceId),
  }),
  defineTool({
    name: 'page_favorite_list',
    title: 'List favourite pages',
    category,
    description:
      'Your favourite pages in a workspace, in the order you starred them: `{ items: [{ id, title, icon, spaceId, spaceName, parentId, updatedAt, favoritedAt }] }`. Read one with `page_get`.',
    input: FavoriteListQuery,
    output: z.object({ items: z.array(FavoritePage.pick({ ...BRIEF, favoritedAt: true })) }),
    annotations: READ,
    handler: async (ctx, a) => ({ items: (await listFavorites(ctx, a)).map((p) => ({ ...brief(p), favoritedAt: p.favoritedAt })) }),
  }),
  defineTool({
    name: 'page_recent',
    title: 'Recent pages',
    category,
    description:
      'Recent pages of a workspace: `visited` (the pages you opened last in the web app, with `visitedAt`) and `updated` (the pages anyone edited last). Each item `{ id, title, icon, spaceId, spaceName, parentId, updatedAt }`.',
    input: RecentQuery,
    output: RecentPages.extend({ visited: z.array(VisitedPage.pick({ ...BRIEF, visitedAt: true })), updated: z.array(ListedPageBrief) }),
    annotations: READ,
    handler: async (ctx, a) => {
      const { visited, updated } = await listRecent(ctx, a);
      return { visited: visited.map((p) => ({ ...brief(p), visitedAt: p.visitedAt })), updated: updated.map(brief) };
    },
  }),
];

import { ctxOf } from '../../../http/request-context.js';
import { type AreaRoutes, BEARER } from '../../../http/routes.js';
import { PageIdParams } from '../pages.schema.js';
import { addFavorite, listFavorites, removeFavorite } from './favorites.service.js';
import { FavoriteBody, FavoriteListQuery, FavoriteListResult, FavoriteQuery, FavoriteStateResult, RecentQuery, RecentResult } from './personal.schema.js';
import { listRecent } from './recent.service.js';

/** A person's own lists of pages: favourites (a star) and recent pages. */
export const personalPagesRoutes: AreaRoutes = (app, deps) => {
  const tags = ['pages'];
  const security = BEARER;
  app.put(
    '/pages/:pageId/favorite',
    {
      schema: {
        tags,
        security,
        summary: 'Star a page: add it to the caller’s favourites (idempotent)',
        params: PageIdParams,
        body: FavoriteBody.optional(),
        response: { 200: FavoriteStateResult },
      },
    },
    async (req) => ({ data: await addFavorite(ctxOf(req, deps), req.params.pageId, req.body?.workspaceId) }),
  );
  app.delete(
    '/pages/:pageId/favorite',
    {
      schema: {
        tags,
        security,
        summary: 'Unstar a page: remove it from the caller’s favourites (idempotent)',
        params: PageIdParams,
        querystring: FavoriteQuery,
        response: { 200: FavoriteStateResult },
      },
    },
    async (req) => ({ data: await removeFavorite(ctxOf(req, deps), req.params.pageId, req.query.workspaceId) }),
  );
  app.get(
    '/favorites',
    {
      schema: {
        tags,
        security,
        summary: 'The caller’s favourite pages in a workspace, in the order they were starred (pages they can no longer open, or in the trash, are left out)',
        querystring: FavoriteListQuery,
        response: { 200: FavoriteListResult },
      },
    },
    async (req) => ({ data: await listFavorites(ctxOf(req, deps), req.query) }),
  );
  app.get(
    '/pages/recent',
    {
      schema: {
        tags,
        security,
        summary: 'Recent pages: those the caller opened last in the web app, and those edited last in the workspace (each access-filtered, newest first)',
        querystring: RecentQuery,
        response: { 200: RecentResult },
      },
    },
    async (req) => ({ data: await listRecent(ctxOf(req, deps), req.query) }),
  );
};

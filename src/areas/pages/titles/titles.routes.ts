import { ctxOf } from '../../../http/request-context.js';
import { type AreaRoutes, BEARER } from '../../../http/routes.js';
import { PageTitlesQuery, PageTitlesResult } from './titles.schema.js';
import { pageTitles } from './titles.service.js';

/** Page titles by id: what page links and mentions show (the title now, wherever the page has moved). */
export const pageTitlesRoutes: AreaRoutes = (app, deps) => {
  app.get(
    '/pages/titles',
    {
      schema: {
        tags: ['pages'],
        security: BEARER,
        summary: 'The current title, icon, slug and space of each named page the caller can open (others are left out)',
        querystring: PageTitlesQuery,
        response: { 200: PageTitlesResult },
      },
    },
    async (req) => ({ data: await pageTitles(ctxOf(req, deps), req.query) }),
  );
};

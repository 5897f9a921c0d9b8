import { ctxOf } from '../../http/request-context.js';
import { type AreaRoutes, BEARER } from '../../http/routes.js';
import { SearchQuery, SearchResults, Suggestions, SuggestQuery } from './search.schema.js';
import { search, suggest } from './search.service.js';

export const searchRoutes: AreaRoutes = (app, deps) => {
  const tags = ['search'];
  const security = BEARER;
  app.get(
    '/search',
    {
      schema: {
        tags,
        security,
        summary: 'Search pages and tasks the caller can read, best match first',
        querystring: SearchQuery,
        response: { 200: SearchResults },
      },
    },
    async (req) => ({ data: await search(ctxOf(req, deps), req.query) }),
  );
  app.get(
    '/search/suggest',
    {
      schema: {
        tags,
        security,
        summary: 'Completions of what is being typed: words and page titles',
        querystring: SuggestQuery,
        response: { 200: Suggestions },
      },
    },
    async (req) => ({ data: await suggest(ctxOf(req, deps), req.query) }),
  );
};

import { ctxOf } from '../../http/request-context.js';
import { type AreaRoutes, BEARER } from '../../http/routes.js';
import { KnowledgeSearchQuery, KnowledgeSearchResult } from './knowledge.schema.js';
import { knowledgeSearch } from './knowledge.service.js';

export const knowledgeRoutes: AreaRoutes = (app, deps) => {
  app.get(
    '/knowledge/search',
    {
      schema: {
        tags: ['knowledge'],
        security: BEARER,
        summary: 'Passages of readable pages and memories that answer a question (hybrid: full-text rank fused with vector similarity)',
        querystring: KnowledgeSearchQuery,
        response: { 200: KnowledgeSearchResult },
      },
    },
    async (req) => ({ data: await knowledgeSearch(ctxOf(req, deps), req.query) }),
  );
};

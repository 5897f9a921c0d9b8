import { ctxOf } from '../../../http/request-context.js';
import { type AreaRoutes, BEARER } from '../../../http/routes.js';
import { WorkspaceIdParams } from '../../../schema.js';
import { PageIdParams } from '../pages.schema.js';
import { PageAccessResult, RestrictedPageListResult, RestrictionPutBody } from './restrictions.schema.js';
import { getPageAccess, listRestrictedPages, restrictPage, unrestrictPage } from './restrictions.service.js';

export const restrictionsRoutes: AreaRoutes = (app, deps) => {
  const tags = ['pages'];
  const security = BEARER;
  app.get(
    '/pages/:pageId/access',
    {
      schema: {
        tags,
        security,
        summary: 'Who can open the page and why: its restriction, those it inherits, and each person with their effective role',
        description: 'For anyone who can read the page, and for workspace admins even when the page is closed to them.',
        params: PageIdParams,
        response: { 200: PageAccessResult },
      },
    },
    async (req) => ({ data: await getPageAccess(ctxOf(req, deps), req.params.pageId) }),
  );
  app.put(
    '/pages/:pageId/restriction',
    {
      schema: {
        tags,
        security,
        summary: 'Restrict the page and its subtree to these users and groups, or replace its grants (editor of the page, or workspace admin)',
        description: '422 `would_lock_out_self` when the grants would leave you (not a workspace admin) without editor access.',
        params: PageIdParams,
        body: RestrictionPutBody,
        response: { 200: PageAccessResult },
      },
    },
    async (req) => ({ data: await restrictPage(ctxOf(req, deps), req.params.pageId, req.body) }),
  );
  app.delete(
    '/pages/:pageId/restriction',
    {
      schema: {
        tags,
        security,
        summary: 'Remove the page’s own restriction (restrictions above it stay); answers the page’s access',
        params: PageIdParams,
        response: { 200: PageAccessResult },
      },
    },
    async (req) => ({ data: await unrestrictPage(ctxOf(req, deps), req.params.pageId) }),
  );
  app.get(
    '/workspaces/:workspaceId/restrictions',
    {
      schema: {
        tags,
        security,
        summary: 'The workspace’s restricted pages (workspace admin)',
        params: WorkspaceIdParams,
        response: { 200: RestrictedPageListResult },
      },
    },
    async (req) => ({ data: await listRestrictedPages(ctxOf(req, deps), req.params.workspaceId) }),
  );
};

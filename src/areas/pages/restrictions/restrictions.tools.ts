import { DELETE, defineTool, READ, UPDATE } from '../../../mcp/tool.js';
import { PageIdParams } from '../pages.schema.js';
import { PageAccess, RestrictionPutBody } from './restrictions.schema.js';
import { getPageAccess, restrictPage, unrestrictPage } from './restrictions.service.js';

const category = 'page';

const ACCESS_SHAPE =
  '`{ pageId, restricted, restriction: { grants: [{ type, id, name, role }] } | null, inherited: [{ pageId, title }], people: [{ user, role, via, detail }], peopleTruncated }`';

export const restrictionTools = [
  defineTool({
    name: 'page_access_get',
    title: 'Who can open a page',
    category,
    description: `Who can open a page and why: its own restriction, restrictions of pages above it, and every person with their effective role. Returns ${ACCESS_SHAPE}.`,
    input: PageIdParams,
    output: PageAccess,
    annotations: READ,
    handler: (ctx, a) => getPageAccess(ctx, a.pageId),
  }),
  defineTool({
    name: 'page_restrict',
    title: 'Restrict a page',
    category,
    description:
      'Restrict a page and its subtree to the given users and groups (each viewer or editor), or replace its grants. You must keep yourself in as editor unless you are a workspace admin. Returns the page access.',
    input: PageIdParams.extend(RestrictionPutBody.shape),
    output: PageAccess,
    annotations: UPDATE,
    handler: (ctx, { pageId, ...body }) => restrictPage(ctx, pageId, body),
  }),
  defineTool({
    name: 'page_unrestrict',
    title: 'Remove a page restriction',
    category,
    description: 'Remove the page’s own restriction (restrictions of pages above it stay). Returns the page access.',
    input: PageIdParams,
    output: PageAccess,
    annotations: DELETE,
    handler: (ctx, a) => unrestrictPage(ctx, a.pageId),
  }),
];

import { ctxOf } from '../../http/request-context.js';
import { type AreaRoutes, BEARER } from '../../http/routes.js';
import { Deleted } from '../../schema.js';
import { DuplicateBody, DuplicateResult } from './duplicate/duplicate.schema.js';
import { duplicatePage } from './duplicate/duplicate.service.js';
import { getHistoryEntry, listHistory, restorePage } from './history/history.service.js';
import {
  HistoryEntryResult,
  HistoryListQuery,
  HistoryListResult,
  HistoryParams,
  HistoryReadQuery,
  PageCreateBody,
  PageIdParams,
  PageListQuery,
  PageListResult,
  PageReadQuery,
  PageResult,
  PageUpdateBody,
  PageWithContentResult,
  RestoreBody,
  RestoreResult,
  TrashListQuery,
  TrashListResult,
  WorkspaceBody,
  WorkspaceQuery,
} from './pages.schema.js';
import { createPage, listPages, listPageTree, readPage, updatePageIfMatch } from './pages.service.js';
import { deletePage, listTrash, recoverPage } from './trash/trash.service.js';

export const pagesRoutes: AreaRoutes = (app, deps) => {
  const tags = ['pages'];
  const security = BEARER;
  app.get(
    '/pages',
    {
      schema: {
        tags,
        security,
        summary: 'Pages of a space (every page, or the direct children of `parentId`), by position, without content; `view=tree` for what a page tree shows',
        querystring: PageListQuery,
        response: { 200: PageListResult },
      },
    },
    async (req) => (req.query.view === 'tree' ? listPageTree : listPages)(ctxOf(req, deps), req.query),
  );
  app.get(
    '/pages/:pageId',
    {
      schema: {
        tags,
        security,
        summary: 'A page with its content (and Markdown with format=markdown); 410 when it is in the trash',
        description: 'Answers an `ETag` header (the page’s version) to send back as `If-Match` on PUT.',
        params: PageIdParams,
        querystring: PageReadQuery,
        response: { 200: PageWithContentResult },
      },
    },
    async (req, reply) => {
      const { page, etag } = await readPage(ctxOf(req, deps), req.params.pageId, { ...req.query, noteVisit: true });
      return reply.header('ETag', etag).send({ data: page });
    },
  );
  app.post(
    '/pages',
    {
      schema: {
        tags,
        security,
        summary: 'Create a page from `content` or `markdown` (editor); returns it without content',
        body: PageCreateBody,
        response: { 201: PageResult },
      },
    },
    async (req, reply) => reply.status(201).send({ data: await createPage(ctxOf(req, deps), req.body) }),
  );
  app.post(
    '/pages/:pageId/duplicate',
    {
      schema: {
        tags,
        security,
        summary: 'Copy a page (with `includeChildren`, its subtree too) into a new page "Copy of …" beside it (editor in its space)',
        description:
          'Copies title, icon, content (links to attachments keep pointing at the original files) and restrictions. Descendants you cannot open are not copied. At most 500 pages: a bigger subtree answers 422.',
        params: PageIdParams,
        body: DuplicateBody,
        response: { 201: DuplicateResult },
      },
    },
    async (req, reply) => reply.status(201).send({ data: await duplicatePage(ctxOf(req, deps), req.params.pageId, req.body) }),
  );
  app.put(
    '/pages/:pageId',
    {
      schema: {
        tags,
        security,
        summary: 'Update title, content (or markdown), icon; move (parentId) or reorder (position, afterId, beforeId)',
        description:
          'With an `If-Match` header (the `ETag` of a read), 412 PRECONDITION_FAILED when the page changed since; without one, the last write wins. Answers the new `ETag`.',
        params: PageIdParams,
        body: PageUpdateBody,
        response: { 200: PageResult },
      },
    },
    async (req, reply) => {
      const ifMatch = req.headers['if-match'];
      const { page, etag } = await updatePageIfMatch(ctxOf(req, deps), req.params.pageId, req.body, ifMatch);
      return reply.header('ETag', etag).send({ data: page });
    },
  );
  app.delete(
    '/pages/:pageId',
    {
      schema: {
        tags,
        security,
        summary: 'Move the page and all its descendants to the trash (editor)',
        params: PageIdParams,
        querystring: WorkspaceQuery,
        response: { 200: Deleted },
      },
    },
    async (req) => ({ data: await deletePage(ctxOf(req, deps), req.params.pageId, req.query.workspaceId) }),
  );
  app.post(
    '/pages/:pageId/recover',
    {
      schema: {
        tags,
        security,
        summary: 'Bring a page back from the trash with the descendants trashed with it (editor)',
        params: PageIdParams,
        body: WorkspaceBody,
        response: { 200: PageResult },
      },
    },
    async (req) => ({ data: await recoverPage(ctxOf(req, deps), req.params.pageId, req.body.workspaceId) }),
  );
  app.get(
    '/pages/:pageId/history',
    {
      schema: {
        tags,
        security,
        summary: 'History of the page, newest first',
        params: PageIdParams,
        querystring: HistoryListQuery,
        response: { 200: HistoryListResult },
      },
    },
    async (req) => listHistory(ctxOf(req, deps), req.params.pageId, req.query),
  );
  app.get(
    '/pages/:pageId/history/:historyId',
    {
      schema: {
        tags,
        security,
        summary: 'One history entry with its content',
        params: HistoryParams,
        querystring: HistoryReadQuery,
        response: { 200: HistoryEntryResult },
      },
    },
    async (req) => ({ data: await getHistoryEntry(ctxOf(req, deps), req.params.pageId, req.params.historyId, req.query) }),
  );
  app.post(
    '/pages/:pageId/restore',
    {
      schema: {
        tags,
        security,
        summary: 'Make an earlier version current; recorded as a new history entry (editor)',
        params: PageIdParams,
        body: RestoreBody,
        response: { 200: RestoreResult },
      },
    },
    async (req) => ({ data: await restorePage(ctxOf(req, deps), req.params.pageId, req.body) }),
  );
  app.get(
    '/trash',
    {
      schema: {
        tags,
        security,
        summary: 'Pages in the trash (the deleted pages, not the descendants that went with them), newest first',
        querystring: TrashListQuery,
        response: { 200: TrashListResult },
      },
    },
    async (req) => listTrash(ctxOf(req, deps), req.query),
  );
};

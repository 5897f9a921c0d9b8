import { z } from 'zod';
import { DELETE, defineTool, PagedList, paged, READ, UPDATE, WRITE } from '../../mcp/tool.js';
import { DeletedRecord } from '../../schema.js';
import { DuplicateBody, DuplicatedPage } from './duplicate/duplicate.schema.js';
import { duplicatePage } from './duplicate/duplicate.service.js';
import { getHistoryEntry, listHistory, restorePage } from './history/history.service.js';
import {
  type Content,
  Format,
  HistoryEntry,
  HistoryEntryWithContent,
  HistoryListQuery,
  HistoryParams,
  Page,
  PageCreateBody,
  PageIdParams,
  PageListQuery,
  PageReadQuery,
  PageUpdateBody,
  PageWithContent,
  RestoreBody,
  RestoredPage,
  TrashedPage,
  TrashListQuery,
  WorkspaceBody,
  WorkspaceQuery,
} from './pages.schema.js';
import { createPage, getPage, listPages, updatePage } from './pages.service.js';
import { personalPageTools } from './personal/personal.tools.js';
import { restrictionTools } from './restrictions/restrictions.tools.js';
import { deletePage, listTrash, recoverPage } from './trash/trash.service.js';

const category = 'page';

/** Reads give Markdown unless the document tree is asked for. */
export const ReadFormat = Format.default('markdown').describe('`markdown` (default): the content as Markdown; `json`: the ProseMirror document tree');

/** A page in a list: what an agent needs to pick one and read it next. */
const PageBrief = Page.pick({ id: true, title: true, parentId: true, spaceId: true, icon: true, updatedAt: true });
const brief = (p: z.input<typeof PageBrief>) => ({
  id: p.id,
  title: p.title,
  parentId: p.parentId,
  spaceId: p.spaceId,
  icon: p.icon,
  updatedAt: p.updatedAt,
});

/** Markdown or the tree, never both. */
export function oneFormat<T extends { content: unknown; markdown?: string }>(value: T, format: 'markdown' | 'json') {
  const { content, markdown, ...rest } = value;
  return format === 'markdown' ? { ...rest, markdown: markdown ?? '' } : { ...rest, content: content as T['content'] };
}

/** `oneFormat` of a record's schema: the record with its `markdown`, or with its `content` tree. */
export function OneFormat<S extends { content: typeof Content; markdown: z.ZodOptional<z.ZodString> }>({ shape }: z.ZodObject<S>) {
  const { content, markdown: _, ...rest } = shape;
  return z.union([z.object({ ...rest, markdown: z.string() }), z.object({ ...rest, content })]);
}

export const pageTools = [
  defineTool({
    name: 'page_list',
    title: 'List pages',
    category,
    description:
      'List the pages of a space in tree order, without content: every page, or the direct children of `parentId` (`"null"` for the root pages). Paged (`limit`, `page`). Returns `{ items: [{ id, title, parentId, spaceId, icon, updatedAt }], total, page, limit, hasMore }`. Read one with `page_get`.',
    input: PageListQuery.omit({ view: true }),
    output: PagedList(PageBrief),
    annotations: READ,
    handler: async (ctx, a) => {
      const { data, meta } = await listPages(ctx, a);
      return paged(data.map(brief), meta);
    },
    pages: (result) => result.items,
  }),
  defineTool({
    name: 'page_get',
    title: 'Read a page',
    category,
    description:
      'Read a page: title, ids and its content as Markdown (default), or as the document tree with `format: "json"`. A page in the trash gives DELETED (410).',
    input: PageIdParams.extend({ workspaceId: PageReadQuery.shape.workspaceId, format: ReadFormat }),
    output: OneFormat(PageWithContent),
    annotations: READ,
    handler: async (ctx, a) => oneFormat(await getPage(ctx, a.pageId, { workspaceId: a.workspaceId, format: a.format }), a.format),
  }),
  defineTool({
    name: 'page_create',
    title: 'Create a page',
    category,
    description:
      'Create a page in a space from `markdown` (preferred for agents) or a ProseMirror `content` tree. Optional `parentId` nests it under another page of the same space; `afterId`/`beforeId` place it among its siblings. Needs editor rights. Returns the page (id, title, slug, parentId, position) without content.',
    input: PageCreateBody,
    output: Page,
    annotations: WRITE,
    handler: (ctx, a) => createPage(ctx, a),
  }),
  defineTool({
    name: 'page_update',
    title: 'Update a page',
    category,
    description:
      'Change a page’s title, icon and/or content; give the new content as `markdown` (replaces the whole body) or as `content`. Every content or title change is recorded in the history. To move a page use `page_move`. Returns the page without content.',
    input: PageIdParams.extend(PageUpdateBody.pick({ workspaceId: true, title: true, content: true, markdown: true, icon: true }).shape),
    output: Page,
    annotations: UPDATE,
    handler: (ctx, { pageId, ...body }) => updatePage(ctx, pageId, body),
  }),
  defineTool({
    name: 'page_move',
    title: 'Move a page',
    category,
    description:
      'Move a page under another page of the same space (`parentId`; `null` for the space root) and/or reorder it among its siblings (`afterId`, `beforeId` or `position`). Its descendants move with it. Returns the page.',
    input: PageIdParams.extend(PageUpdateBody.pick({ workspaceId: true, parentId: true, position: true, afterId: true, beforeId: true }).shape),
    output: Page,
    annotations: UPDATE,
    handler: (ctx, { pageId, ...body }) => updatePage(ctx, pageId, body),
  }),
  defineTool({
    name: 'page_delete',
    title: 'Move a page to the trash',
    category,
    description:
      'Move a page and all its descendants to the trash (editor). It can be brought back with `page_recover` until the trash is purged. Returns `{ id, deleted: true }`.',
    input: PageIdParams.extend(WorkspaceQuery.shape),
    output: DeletedRecord,
    annotations: { ...DELETE, destructiveHint: false },
    confirm: (a) => `Move page ${a.pageId} and all its subpages to the trash?`,
    handler: (ctx, a) => deletePage(ctx, a.pageId, a.workspaceId),
  }),
  defineTool({
    name: 'page_history',
    title: 'Page history',
    category,
    description:
      'List the versions of a page, newest first: `{ items: [{ id, version, title, summary, createdAt, createdBy }], total, page, limit, hasMore }`. Read one with `page_history_get`; bring one back with `page_restore`.',
    input: PageIdParams.extend(HistoryListQuery.shape),
    output: PagedList(HistoryEntry),
    annotations: READ,
    handler: async (ctx, { pageId, ...q }) => {
      const { data, meta } = await listHistory(ctx, pageId, q);
      return paged(data, meta);
    },
  }),
  defineTool({
    name: 'page_history_get',
    title: 'Read a page version',
    category,
    description: 'Read one history entry of a page with its content as Markdown (default) or as the document tree (`format: "json"`).',
    input: HistoryParams.extend({ workspaceId: WorkspaceQuery.shape.workspaceId, format: ReadFormat }),
    output: OneFormat(HistoryEntryWithContent),
    annotations: READ,
    handler: async (ctx, a) => oneFormat(await getHistoryEntry(ctx, a.pageId, a.historyId, { workspaceId: a.workspaceId, format: a.format }), a.format),
  }),
  defineTool({
    name: 'page_restore',
    title: 'Restore a page version',
    category,
    description:
      'Make an earlier version (`historyId` from `page_history`) the current content and title of a page; recorded as a new version, nothing is lost. Returns the page with `restore: { historyId, version, restoredVersion, previousHistoryId, previousVersion }`; restoring `previousHistoryId` undoes it.',
    input: PageIdParams.extend(RestoreBody.shape),
    output: RestoredPage,
    annotations: WRITE,
    handler: (ctx, { pageId, ...body }) => restorePage(ctx, pageId, body),
  }),
  defineTool({
    name: 'page_trash_list',
    title: 'List the trash',
    category,
    description:
      'List the pages in the trash of a workspace (or one space), newest first, with when each will be purged. Paged. Bring one back with `page_recover`.',
    input: TrashListQuery,
    output: PagedList(PageBrief.extend(TrashedPage.pick({ deletedAt: true, deletedBy: true, descendantCount: true, purgeAt: true }).shape)),
    annotations: READ,
    handler: async (ctx, a) => {
      const { data, meta } = await listTrash(ctx, a);
      return paged(
        data.map((p) => ({ ...brief(p), deletedAt: p.deletedAt, deletedBy: p.deletedBy, descendantCount: p.descendantCount, purgeAt: p.purgeAt })),
        meta,
      );
    },
  }),
  defineTool({
    name: 'page_recover',
    title: 'Recover a page from the trash',
    category,
    description: 'Bring a page back from the trash together with the descendants trashed with it (editor). Returns the page.',
    input: PageIdParams.extend(WorkspaceBody.shape),
    output: Page,
    annotations: UPDATE,
    handler: (ctx, a) => recoverPage(ctx, a.pageId, a.workspaceId),
  }),
  defineTool({
    name: 'page_duplicate',
    title: 'Duplicate a page',
    category,
    description:
      'Copy a page into a new page titled "Copy of …" (or `title`) right after it, or under `parentId`; with `includeChildren: true` its descendants are copied too (at most 500 pages; pages you cannot open are left out). Content, icon and restrictions are copied. Needs editor rights in the space. Returns the new page with `copiedPages`.',
    input: PageIdParams.extend(DuplicateBody.shape),
    output: DuplicatedPage,
    annotations: WRITE,
    handler: (ctx, { pageId, ...body }) => duplicatePage(ctx, pageId, body),
  }),
  ...personalPageTools,
  ...restrictionTools,
];

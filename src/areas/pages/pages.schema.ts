import { z } from 'zod';
import { envelope, Id, Limit, ListMeta, PageNumber } from '../../schema.js';

/** Empty while a new page is not named yet: people (and the app) read an empty title as "Untitled". */
export const Title = z.string().trim().max(500).describe('Page title (up to 500 characters; empty reads as "Untitled")');
export const Icon = z.string().trim().min(1).max(100).describe('An emoji or icon name');
/** A fractional-indexing key (base 62). */
export const Position = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[0-9A-Za-z]+$/, 'must be a fractional-indexing key (letters and digits)')
  .describe('Order among siblings: a fractional-indexing key; siblings sort by it bytewise');
export const Content = z
  .record(z.string(), z.unknown())
  .describe('ProseMirror document JSON: `{ "type": "doc", "content": [ ... ] }`; see docs/pages.md for the accepted nodes and marks');
export const Markdown = z.string().max(50_000_000).describe('Markdown instead of `content` (CommonMark + GFM tables, task lists; see docs/pages.md)');
export const Format = z.enum(['json', 'markdown']).describe('`markdown` adds a `markdown` field beside `content`');

export const Page = z.object({
  id: z.string(),
  workspaceId: z.string(),
  spaceId: z.string(),
  parentId: z.string().nullable(),
  title: z.string(),
  slug: z.string(),
  icon: z.string().nullable(),
  position: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  createdBy: z.string().nullable(),
  updatedBy: z.string().nullable(),
  childCount: z
    .number()
    .optional()
    .describe('Live child pages (not in the trash), so a tree knows which pages expand; in every page answer but the trash list'),
});
export const PageWithContent = Page.extend({
  content: Content,
  markdown: z.string().optional().describe('With `format=markdown` only'),
  role: z
    .enum(['viewer', 'editor', 'admin'])
    .optional()
    .describe('The caller’s role in the page’s space (editor or admin may edit); in the single page read only'),
});

const placement = {
  position: Position.optional(),
  afterId: Id.optional().describe('Place right after this sibling (a page under the same parent)'),
  beforeId: Id.optional().describe('Place right before this sibling (a page under the same parent)'),
};

export const PageCreateBody = z.object({
  workspaceId: Id,
  spaceId: Id,
  title: Title,
  content: Content.optional().describe('Required unless `markdown` is given'),
  markdown: Markdown.optional(),
  parentId: Id.nullable().optional().describe('A page of the same space; absent or null for a root page'),
  icon: Icon.nullable().optional(),
  ...placement,
});

export const PageUpdateBody = z.object({
  workspaceId: Id.optional().describe('Optional: the page’s workspace is taken from the page itself; when given it must match'),
  title: Title.optional(),
  content: Content.optional(),
  markdown: Markdown.optional(),
  parentId: Id.nullable().optional().describe('Move under this page of the same space; null moves to the space root'),
  icon: Icon.nullable().optional().describe('null clears it'),
  ...placement,
});

export const PageListQuery = z.object({
  workspaceId: Id,
  spaceId: Id,
  parentId: Id.optional().describe('Direct children of this page; `null` for the root pages; absent for every page of the space'),
  view: z
    .enum(['full', 'tree'])
    .default('full')
    .describe(
      '`tree`: only what a page tree shows (id, parentId, title, icon, position, hasChildren, updatedAt); `full` (default): every page field with childCount',
    ),
  limit: Limit(20),
  page: PageNumber,
});

export const PageIdParams = z.object({ pageId: Id });
export const PageReadQuery = z.object({
  workspaceId: Id.optional().describe('Optional: the page’s workspace is taken from the page itself'),
  format: Format.default('json'),
});
export const WorkspaceQuery = z.object({ workspaceId: Id.optional().describe('Optional: taken from the page itself; when given it must match') });
export const WorkspaceBody = z.object({ workspaceId: Id.optional().describe('Optional: taken from the page itself; when given it must match') });

export const PageResult = envelope(Page);
export const PageWithContentResult = envelope(PageWithContent);
/** A page as a tree shows it (`view=tree`): the full page is for the page read. */
export const TreePage = Page.pick({ id: true, parentId: true, title: true, icon: true, position: true, updatedAt: true }).extend({
  hasChildren: z.boolean().describe('Whether the page has live child pages: the tree shows an expander (the count is in the full view)'),
});
export const PageListResult = z.object({ data: z.array(z.union([Page, TreePage])), meta: ListMeta });

export const HistoryParams = z.object({ pageId: Id, historyId: Id });
export const HistoryListQuery = WorkspaceQuery.extend({ limit: Limit(20), page: PageNumber });
export const HistoryReadQuery = WorkspaceQuery.extend({ format: Format.default('json') });
export const RestoreBody = WorkspaceBody.extend({ historyId: Id.describe('The history entry to restore') });

export const HistoryEntry = z.object({
  id: z.string(),
  pageId: z.string(),
  version: z.number().describe('Increments per page; the newest entry has the highest'),
  title: z.string(),
  summary: z.string(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  contributors: z.array(z.string()).describe('Everyone whose edits this version holds (user ids): several for a version made by co-editing, else its author'),
});
export const HistoryEntryWithContent = HistoryEntry.extend({ content: Content, markdown: z.string().optional() });
export const HistoryListResult = z.object({ data: z.array(HistoryEntry), meta: ListMeta });
export const HistoryEntryResult = envelope(HistoryEntryWithContent);
/** A restore's answer: the page, and the versions it involved, so a client can offer "Undo" (restore `previousHistoryId`). */
export const RestoredPage = Page.extend({
  restore: z
    .object({
      historyId: z.string().describe('The new version the restore made (current now)'),
      version: z.number(),
      restoredHistoryId: z.string().describe('The version whose title and content were brought back'),
      restoredVersion: z.number(),
      previousHistoryId: z.string().describe('The version that was current just before the restore; restoring it undoes the restore (as one more new version)'),
      previousVersion: z.number(),
    })
    .describe('What the restore did'),
});
export const RestoreResult = envelope(RestoredPage);

export const TrashListQuery = z.object({
  workspaceId: Id,
  spaceId: Id.optional().describe('One space; absent for every space of the workspace the caller may read'),
  limit: Limit(20),
  page: PageNumber,
});
export const TrashedPage = Page.extend({
  deletedAt: z.string(),
  deletedBy: z.string().nullable(),
  descendantCount: z.number().describe('Pages trashed along with it'),
  purgeAt: z.string().describe('When it will be deleted for good (TRASH_RETENTION_DAYS after deletion)'),
});
export const TrashListResult = z.object({ data: z.array(TrashedPage), meta: ListMeta });

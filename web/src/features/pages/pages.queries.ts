import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, call, data } from '../../api/client';

/** A page as the API returns it (without content). */
export interface PageSummary {
  id: string;
  workspaceId: string;
  spaceId: string;
  parentId: string | null;
  title: string;
  slug: string;
  icon: string | null;
  position: string;
  createdAt: string;
  updatedAt: string;
  createdBy: string | null;
  updatedBy: string | null;
  childCount?: number;
}

/** ProseMirror document JSON, in the shape Tiptap's `setContent` takes. */
export type DocJSON = {
  type: string;
  attrs?: Record<string, unknown>;
  content?: DocJSON[];
  marks?: { type: string; attrs?: Record<string, unknown> }[];
  text?: string;
  [key: string]: unknown;
};

/** A page with its ProseMirror document (`GET /api/v1/pages/{id}`). */
export interface PageWithContent extends PageSummary {
  content: DocJSON;
  markdown?: string;
}

/** A page as the tree shows it (`view=tree`). */
export interface TreePage {
  id: string;
  parentId: string | null;
  title: string;
  icon: string | null;
  position: string;
  updatedAt: string;
  hasChildren: boolean;
}

export interface TrashedPage extends PageSummary {
  deletedAt: string;
  deletedBy: string | null;
  descendantCount: number;
  purgeAt: string;
}

/**
 * Query keys of everything page-shaped. Every key starts with `['pages']`, so invalidating `pageKeys.all` refreshes
 * the page, the tree, the root list and the trash at once (a rename anywhere shows everywhere).
 */
export const pageKeys = {
  all: ['pages'] as const,
  page: (pageId: string) => ['pages', 'page', pageId] as const,
  /** Every tree level of a space. */
  tree: (spaceId: string) => ['pages', 'tree', spaceId] as const,
  /** One level of a space's tree: the root pages (`parentId` null) or the children of a page. */
  level: (spaceId: string, parentId: string | null) => ['pages', 'tree', spaceId, parentId ?? 'root'] as const,
  roots: (spaceId: string) => ['pages', 'roots', spaceId] as const,
  trash: (workspaceId: string, spaceId: string) => ['pages', 'trash', workspaceId, spaceId] as const,
};

/** What a new page starts with: one empty paragraph (the service refuses a document with no block at all). */
/** The navigation state of a page just created: its screen focuses the (empty) title. */
export const NEW_PAGE = { newPage: true } as const;
export const isNewPageState = (state: unknown) => typeof state === 'object' && state !== null && (state as { newPage?: unknown }).newPage === true;

export const EMPTY_DOC: DocJSON = { type: 'doc', content: [{ type: 'paragraph' }] };

/** A page with its content; `null` id (no page in the URL) stays idle. */
export function usePage(pageId: string | null | undefined) {
  return useQuery({
    queryKey: pageKeys.page(pageId ?? ''),
    queryFn: async () => (await data(api.GET('/api/v1/pages/{pageId}', { params: { path: { pageId: pageId as string } } }))) as unknown as PageWithContent,
    enabled: Boolean(pageId),
  });
}

/** The URL slug the service derives from a title (mirrors `slugify` in src/areas/spaces), for links that only know the title. */
export function slugOfTitle(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 60)
    .replace(/^-+|-+$/g, '');
  return slug || 'untitled';
}

export const MAX_LIMIT = 100;

/** Every page of one tree level, fetched page by page at the largest page size (a level may hold thousands). */
export async function fetchLevel(workspaceId: string, spaceId: string, parentId: string | null): Promise<TreePage[]> {
  const out: TreePage[] = [];
  for (let page = 1; ; page++) {
    const rows = (await data(
      api.GET('/api/v1/pages', {
        params: { query: { workspaceId, spaceId, parentId: parentId ?? 'null', view: 'tree', limit: MAX_LIMIT, page } },
      }),
    )) as TreePage[];
    out.push(...rows);
    if (rows.length < MAX_LIMIT) return out;
  }
}

/** One level of a space's page tree, as the tree and the first screen's early start (app/first-screen.ts) read it. */
export const levelQuery = (workspaceId: string, spaceId: string, parentId: string | null) =>
  queryOptions({
    queryKey: pageKeys.level(spaceId, parentId),
    queryFn: () => fetchLevel(workspaceId, spaceId, parentId),
    staleTime: 30_000,
  });

/** One level of a space's page tree. */
export function useTreeLevel(workspaceId: string, spaceId: string, parentId: string | null, enabled = true) {
  return useQuery({ ...levelQuery(workspaceId, spaceId, parentId), enabled });
}

const ROOT_LIMIT = 100;

/** The first hundred root pages of a space, for the space screen's list (the tree in the sidebar shows them all). */
export const rootPagesQuery = (workspaceId: string, spaceId: string) =>
  queryOptions({
    queryKey: pageKeys.roots(spaceId),
    queryFn: async () => {
      const result = await call(api.GET('/api/v1/pages', { params: { query: { workspaceId, spaceId, parentId: 'null', limit: ROOT_LIMIT } } }));
      return result as unknown as { data: PageSummary[]; meta: { total: number } };
    },
    // Read moments before by the first screen's early start: not read again on mount.
    staleTime: 10_000,
  });

import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, UpdatedAt } from '../types.js';

/** A ProseMirror document as JSON (root `{ type: 'doc', content: [...] }`). */
export type DocJson = Record<string, unknown>;
type JsonDoc = ColumnType<DocJson, string, string>;

export interface PageTable {
  id: string;
  workspaceId: string;
  spaceId: string;
  parentId: string | null;
  title: string;
  slug: string;
  icon: string | null;
  content: JsonDoc;
  /** Plain text of `content` (blocks separated by newlines), kept in step on every write; for search. */
  textContent: Generated<string>;
  /** Fractional-indexing key; siblings are ordered by it (bytewise, collation "C"). */
  position: string;
  /** The version of the newest history entry (0 before the first). */
  version: Generated<number>;
  createdBy: string | null;
  updatedBy: string | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
  deletedAt: Date | null;
  deletedBy: string | null;
  /** The page whose deletion put this one in the trash (itself for the page that was deleted). */
  trashRootId: string | null;
  /** The Yjs state of the live document (migration 0021); null until the page is first co-edited. */
  ydoc: Uint8Array | null;
}

export interface PageHistoryTable {
  id: string;
  workspaceId: string;
  pageId: string;
  version: number;
  title: string;
  /** Null for the page's current version: the page row holds that content (migration 0017). */
  content: ColumnType<DocJson | null, string | null, string | null>;
  summary: string;
  createdBy: string | null;
  createdAt: CreatedAt;
  /** Everyone whose edits the entry holds (user ids), for versions made by co-editing; null for single-author writes. */
  contributors: ColumnType<string[] | null, string | null, string | null>;
}

export interface PagesTables {
  pages: PageTable;
  pageHistory: PageHistoryTable;
}

/** A restricted page (migration 0026): only its grants may open it and its subtree. */
export interface PageRestrictionTable {
  pageId: string;
  workspaceId: string;
  createdBy: string | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

/** One user or group allowed into a restricted page, as viewer or editor. */
export interface PageRestrictionGrantTable {
  id: string;
  pageId: string;
  workspaceId: string;
  userId: string | null;
  groupId: string | null;
  role: 'viewer' | 'editor';
}

/** Every restriction above a page (itself included): kept in step when pages are created, moved, restricted or opened up. */
export interface PageRestrictedByTable {
  pageId: string;
  restrictionPageId: string;
  workspaceId: string;
}

export interface PageRestrictionTables {
  pageRestrictions: PageRestrictionTable;
  pageRestrictionGrants: PageRestrictionGrantTable;
  pageRestrictedBy: PageRestrictedByTable;
}

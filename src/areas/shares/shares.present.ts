import type { SharedPageRow, ShareRow } from './shares.repo.js';

export function presentShare(row: ShareRow) {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    spaceId: row.spaceId,
    pageId: row.pageId,
    includeSubtree: row.includeSubtree,
    allowIndexing: row.allowIndexing,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastViewedAt: row.lastViewedAt?.toISOString() ?? null,
  };
}

export function presentShareListItem(row: ShareRow & { pageTitle: string; pageDeletedAt: Date | null; creatorName: string | null }) {
  return {
    ...presentShare(row),
    page: { id: row.pageId, title: row.pageTitle, trashed: row.pageDeletedAt !== null },
    creator: row.createdBy && row.creatorName !== null ? { id: row.createdBy, name: row.creatorName } : null,
  };
}

/** What a visitor learns about the share itself: never who made it or where it lives. */
export function presentPublicShare(row: ShareRow) {
  return { pageId: row.pageId, includeSubtree: row.includeSubtree, allowIndexing: row.allowIndexing };
}

/** The root's parent is outside the share: the public tree starts at null. */
export function presentTreeItem(row: SharedPageRow, rootId: string) {
  return { id: row.id, parentId: row.id === rootId ? null : row.parentId, title: row.title, icon: row.icon, position: row.position };
}

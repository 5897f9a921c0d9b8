import type { CommentRow } from './comments.repo.js';

export function presentComment(row: CommentRow) {
  return {
    id: row.id,
    pageId: row.pageId,
    workspaceId: row.workspaceId,
    parentId: row.parentId,
    text: row.deletedAt ? '' : row.text,
    author: row.authorId && row.authorName !== null ? { id: row.authorId, name: row.authorName, avatarUrl: row.authorAvatarUrl } : null,
    resolved: row.resolvedAt !== null,
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    resolvedBy: row.resolvedBy,
    deleted: row.deletedAt !== null,
    deletedAt: row.deletedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Live comments, and deleted ones that still lead to a live reply (so threads stay whole). */
export function visibleThread(rows: CommentRow[]): CommentRow[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const keep = new Set<string>();
  for (const row of rows) {
    if (row.deletedAt) continue;
    for (let at: CommentRow | undefined = row; at && !keep.has(at.id); at = at.parentId ? byId.get(at.parentId) : undefined) keep.add(at.id);
  }
  return rows.filter((r) => keep.has(r.id));
}

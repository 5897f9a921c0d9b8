import type { CommentRow } from './comments.repo.js';

export type ReactionRow = { commentId: string; userId: string; emoji: string };

/** One comment's reactions grouped by emoji, in the order each emoji was first given. */
function reactionsOf(rows: ReactionRow[]) {
  const byEmoji = new Map<string, string[]>();
  for (const r of rows) byEmoji.set(r.emoji, [...(byEmoji.get(r.emoji) ?? []), r.userId]);
  return [...byEmoji].map(([emoji, userIds]) => ({ emoji, userIds }));
}

export function presentComment(row: CommentRow, reactions: ReactionRow[]) {
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
    anchor: row.anchor,
    reactions: reactionsOf(reactions),
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

/** Comments with their reactions (`reactions` for any of them, in order). */
export function presentComments(rows: CommentRow[], reactions: ReactionRow[]) {
  const byComment = new Map<string, ReactionRow[]>();
  for (const r of reactions) byComment.set(r.commentId, [...(byComment.get(r.commentId) ?? []), r]);
  return rows.map((row) => presentComment(row, byComment.get(row.id) ?? []));
}

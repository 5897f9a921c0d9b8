import type { CreatedAt, UpdatedAt } from '../types.js';

export interface CommentTable {
  id: string;
  workspaceId: string;
  pageId: string;
  /** The comment this one replies to (on the same page), null for a thread's first comment. */
  parentId: string | null;
  text: string;
  authorId: string | null;
  resolvedAt: Date | null;
  resolvedBy: string | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
  /** Soft delete: the row stays so that its replies keep their thread; its text is cleared. */
  deletedAt: Date | null;
  deletedBy: string | null;
}

export interface CommentsTables {
  comments: CommentTable;
}

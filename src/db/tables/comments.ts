import type { ColumnType } from 'kysely';
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
  /** A thread's first comment on a range of text: Yjs relative positions (base64) and the text quoted when made. */
  anchor: ColumnType<CommentAnchorValue | null, string | null | undefined, string | null>;
}

export interface CommentAnchorValue {
  start: string;
  end: string;
  quote: string;
}

export interface CommentReactionTable {
  workspaceId: string;
  commentId: string;
  userId: string;
  emoji: string;
  createdAt: CreatedAt;
}

export interface CommentsTables {
  comments: CommentTable;
  commentReactions: CommentReactionTable;
}

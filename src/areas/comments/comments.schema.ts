import { z } from 'zod';
import { envelope, Id } from '../../schema.js';

export const CommentText = z.string().trim().min(1, 'must not be empty').max(10_000).describe('Plain text (Markdown is kept as written)');

export const Comment = z.object({
  id: z.string(),
  pageId: z.string(),
  workspaceId: z.string(),
  parentId: z.string().nullable().describe('The comment this one replies to; null for the first comment of a thread'),
  text: z.string().describe('Empty for a deleted comment'),
  author: z.object({ id: z.string(), name: z.string(), avatarUrl: z.string().nullable() }).nullable().describe('null if the account no longer exists'),
  resolved: z.boolean(),
  resolvedAt: z.string().nullable(),
  resolvedBy: z.string().nullable(),
  deleted: z.boolean().describe('A deleted comment is listed (text removed) only while replies to it remain'),
  deletedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const CommentListQuery = z.object({ pageId: Id, workspaceId: Id });
export const CommentParams = z.object({ commentId: Id });
export const CommentReadQuery = z.object({ workspaceId: Id.optional().describe('Optional: the comment’s own workspace is used') });

export const CommentCreateBody = z.object({
  pageId: Id,
  workspaceId: Id,
  text: CommentText,
  parentId: Id.optional().describe('Reply to this comment (on the same page)'),
});

export const CommentUpdateBody = z.object({
  text: CommentText,
  workspaceId: Id.optional().describe('Optional: the comment’s own workspace is used'),
});

export const CommentResolveBody = z.object({
  workspaceId: Id,
  resolved: z.boolean().describe('true resolves the comment, false reopens it'),
});

export const CommentResult = envelope(Comment);
export const CommentListResult = envelope(z.array(Comment));

import { z } from 'zod';
import { isRelativePosition, MAX_ANCHOR_POSITION, MAX_ANCHOR_QUOTE } from '../../editor/comment-anchors.js';
import { envelope, Id } from '../../schema.js';

export const CommentText = z.string().trim().min(1, 'must not be empty').max(10_000).describe('Plain text (Markdown is kept as written)');

const AnchorPosition = z.string().max(MAX_ANCHOR_POSITION).refine(isRelativePosition, 'must be a Yjs relative position, base64 (Y.encodeRelativePosition)');

export const CommentAnchor = z
  .object({
    start: AnchorPosition.describe('Where the range starts: a Yjs relative position in the page’s live document, base64'),
    end: AnchorPosition.describe('Where it ends, likewise'),
    quote: z.string().max(MAX_ANCHOR_QUOTE).describe('The text commented on, as it read when the comment was made'),
  })
  .describe('The range of text a thread is on; it follows edits made around it by anyone');

/** One emoji: a pictograph with its variation selector, skin tone or joined pictographs (👍, ❤️, 👍🏽, 🧑‍💻), or a flag. */
export const ReactionEmoji = z
  .string()
  .max(32)
  .regex(
    /^(?:\p{Extended_Pictographic}\uFE0F?\p{Emoji_Modifier}?(?:\u200D\p{Extended_Pictographic}\uFE0F?\p{Emoji_Modifier}?)*|\p{Regional_Indicator}{2})$/u,
    'must be one emoji',
  );

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
  anchor: CommentAnchor.nullable().describe('The text the thread is on (a thread’s first comment); null for a comment on the whole page or a reply'),
  reactions: z
    .array(z.object({ emoji: z.string(), userIds: z.array(z.string()).describe('Who reacted so, first first') }))
    .describe('Emoji reactions, in the order they were first given'),
});

export const CommentListQuery = z.object({ pageId: Id, workspaceId: Id });
export const CommentParams = z.object({ commentId: Id });
export const CommentReadQuery = z.object({ workspaceId: Id.optional().describe('Optional: the comment’s own workspace is used') });

export const CommentCreateBody = z.object({
  pageId: Id,
  workspaceId: Id,
  text: CommentText,
  parentId: Id.optional().describe('Reply to this comment (on the same page)'),
  anchor: CommentAnchor.optional().describe('Start a thread on this range of text (as the web editor does)'),
  quote: z
    .string()
    .min(1)
    .max(MAX_ANCHOR_QUOTE)
    .optional()
    .describe('Start a thread on the first occurrence of this text in the page (within one paragraph); for scripts and agents'),
});

export const CommentReactBody = z.object({
  emoji: ReactionEmoji,
  reacted: z.boolean().default(true).describe('true adds the caller’s reaction, false takes it back'),
  workspaceId: Id.optional().describe('Optional: the comment’s own workspace is used'),
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

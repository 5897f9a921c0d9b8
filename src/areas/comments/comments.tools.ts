import { DELETE, defineTool, ItemList, listOf, READ, UPDATE, WRITE } from '../../mcp/tool.js';
import { DeletedRecord } from '../../schema.js';
import {
  Comment,
  CommentCreateBody,
  CommentListQuery,
  CommentParams,
  CommentReactBody,
  CommentReadQuery,
  CommentResolveBody,
  CommentUpdateBody,
} from './comments.schema.js';
import { createComment, deleteComment, getComment, listComments, reactToComment, resolveComment, updateComment } from './comments.service.js';

const category = 'comment';

export const commentTools = [
  defineTool({
    name: 'comment_list',
    title: 'List comments',
    category,
    description:
      'List the comments of a page, oldest first; replies carry the `parentId` of the comment they answer. Returns `{ items: [{ id, parentId, text, author, resolved, createdAt }], total }`.',
    input: CommentListQuery,
    output: ItemList(Comment),
    annotations: READ,
    handler: async (ctx, a) => listOf(await listComments(ctx, a)),
  }),
  defineTool({
    name: 'comment_get',
    title: 'Get a comment',
    category,
    description: 'Read one comment: its text, author, the comment it replies to (parentId) and whether it is resolved.',
    input: CommentParams.extend(CommentReadQuery.shape),
    output: Comment,
    annotations: READ,
    handler: (ctx, a) => getComment(ctx, a.commentId, a.workspaceId),
  }),
  defineTool({
    name: 'comment_create',
    title: 'Comment on a page',
    category,
    description:
      'Add a comment to a page, or reply to a comment with `parentId` (editor). To comment on a passage, give `quote`: the thread is anchored to the first occurrence of that text in the page (within one paragraph) and follows later edits. Returns the comment with its `id`.',
    input: CommentCreateBody,
    output: Comment,
    annotations: WRITE,
    handler: (ctx, a) => createComment(ctx, a),
  }),
  defineTool({
    name: 'comment_update',
    title: 'Edit a comment',
    category,
    description: 'Replace the text of a comment (its author only). Returns the comment.',
    input: CommentParams.extend(CommentUpdateBody.shape),
    output: Comment,
    annotations: UPDATE,
    handler: (ctx, { commentId, ...body }) => updateComment(ctx, commentId, body),
  }),
  defineTool({
    name: 'comment_resolve',
    title: 'Resolve or reopen a comment',
    category,
    description: 'Mark a comment thread resolved (`resolved: true`) or reopen it (`false`) (editor). Returns the comment.',
    input: CommentParams.extend(CommentResolveBody.shape),
    output: Comment,
    annotations: UPDATE,
    handler: (ctx, { commentId, ...body }) => resolveComment(ctx, commentId, body),
  }),
  defineTool({
    name: 'comment_delete',
    title: 'Delete a comment',
    category,
    description: 'Delete a comment (its author, or an admin); replies to it stay. Returns `{ id, deleted: true }`.',
    input: CommentParams.extend(CommentReadQuery.shape),
    output: DeletedRecord,
    annotations: DELETE,
    handler: (ctx, a) => deleteComment(ctx, a.commentId, a.workspaceId),
  }),
  defineTool({
    name: 'comment_react',
    title: 'React to a comment',
    category,
    description:
      'Add an emoji reaction to a comment (`reacted: true`, the default) or take yours back (`false`) (editor). Returns the comment with its `reactions`.',
    input: CommentParams.extend(CommentReactBody.shape),
    output: Comment,
    annotations: UPDATE,
    handler: (ctx, { commentId, ...body }) => reactToComment(ctx, commentId, body),
  }),
];

import { ctxOf } from '../../http/request-context.js';
import { type AreaRoutes, BEARER } from '../../http/routes.js';
import { Deleted } from '../../schema.js';
import {
  CommentCreateBody,
  CommentListQuery,
  CommentListResult,
  CommentParams,
  CommentReactBody,
  CommentReadQuery,
  CommentResolveBody,
  CommentResult,
  CommentUpdateBody,
} from './comments.schema.js';
import { createComment, deleteComment, getComment, listComments, reactToComment, resolveComment, updateComment } from './comments.service.js';

export const commentsRoutes: AreaRoutes = (app, deps) => {
  const tags = ['comments'];
  const security = BEARER;
  app.get(
    '/comments',
    {
      schema: {
        tags,
        security,
        summary: 'Comments of a page, oldest first (threads through parentId)',
        querystring: CommentListQuery,
        response: { 200: CommentListResult },
      },
    },
    async (req) => ({ data: await listComments(ctxOf(req, deps), req.query) }),
  );
  app.get(
    '/comments/:commentId',
    { schema: { tags, security, summary: 'A comment', params: CommentParams, querystring: CommentReadQuery, response: { 200: CommentResult } } },
    async (req) => ({ data: await getComment(ctxOf(req, deps), req.params.commentId, req.query.workspaceId) }),
  );
  app.post(
    '/comments',
    {
      schema: {
        tags,
        security,
        summary: 'Comment on a page or on a range of its text (anchor or quote), or reply with parentId (editor)',
        body: CommentCreateBody,
        response: { 201: CommentResult },
      },
    },
    async (req, reply) => reply.status(201).send({ data: await createComment(ctxOf(req, deps), req.body) }),
  );
  app.put(
    '/comments/:commentId',
    {
      schema: {
        tags,
        security,
        summary: 'Edit a comment’s text (its author)',
        params: CommentParams,
        body: CommentUpdateBody,
        response: { 200: CommentResult },
      },
    },
    async (req) => ({ data: await updateComment(ctxOf(req, deps), req.params.commentId, req.body) }),
  );
  app.delete(
    '/comments/:commentId',
    {
      schema: {
        tags,
        security,
        summary: 'Delete a comment (its author, or an admin); replies stay',
        params: CommentParams,
        querystring: CommentReadQuery,
        response: { 200: Deleted },
      },
    },
    async (req) => ({ data: await deleteComment(ctxOf(req, deps), req.params.commentId, req.query.workspaceId) }),
  );
  app.post(
    '/comments/:commentId/resolve',
    {
      schema: {
        tags,
        security,
        summary: 'Resolve or reopen a comment (editor)',
        params: CommentParams,
        body: CommentResolveBody,
        response: { 200: CommentResult },
      },
    },
    async (req) => ({ data: await resolveComment(ctxOf(req, deps), req.params.commentId, req.body) }),
  );
  app.post(
    '/comments/:commentId/reactions',
    {
      schema: {
        tags,
        security,
        summary: 'Add (reacted: true) or take back (false) the caller’s emoji reaction (editor)',
        params: CommentParams,
        body: CommentReactBody,
        response: { 200: CommentResult },
      },
    },
    async (req) => ({ data: await reactToComment(ctxOf(req, deps), req.params.commentId, req.body) }),
  );
};

import type { FastifyReply } from 'fastify';
import { rangeRequestOf, sendFile, withRangeErrors } from '../../http/downloads.js';
import { ctxOf } from '../../http/request-context.js';
import { type AreaRoutes, BEARER, recordRoutes } from '../../http/routes.js';
import { downloadHeaders } from '../attachments/attachments.files.js';
import { openSharedAttachment, readShare, readSharedPage } from './shares.public.service.js';
import {
  PageShareResult,
  PublicShareAttachmentParams,
  PublicSharePageParams,
  PublicSharePageResult,
  PublicShareParams,
  PublicShareResult,
  ShareCreateBody,
  ShareCreateResult,
  ShareListResult,
  SharePageParams,
  ShareParams,
  ShareRevokeResult,
  WorkspaceSharesParams,
} from './shares.schema.js';
import { getPageShare, listWorkspaceShares, publishPage, revokeShare } from './shares.service.js';

/**
 * Every public answer (errors included) is `no-store`, so a revoked link dies at once everywhere, and `noindex`
 * unless the share allows search engines.
 */
function publicAnswer(reply: FastifyReply) {
  reply.header('cache-control', 'private, no-store').header('x-robots-tag', 'noindex');
  return (share: { allowIndexing: boolean }) => {
    if (share.allowIndexing) reply.removeHeader('x-robots-tag');
  };
}

/** `config.public`: no credentials needed; rate limited per address like every anonymous call. */
const PUBLIC = { public: true } as const;

export const sharesRoutes: AreaRoutes = recordRoutes((app, deps) => {
  const tags = ['shares'];
  const security = BEARER;
  app.post(
    '/pages/:pageId/share',
    {
      schema: {
        tags,
        security,
        summary: 'Publish a page through a public link (editor; the workspace must allow public pages)',
        description:
          'Makes the page’s public link and answers it once in `url` (only its hash is kept), with 201. If the page is already ' +
          'published, its settings are updated and its link kept (200, `url` null); `newLink: true` revokes the link and makes another. ' +
          '403 `public_pages_disabled` when the workspace does not allow public pages, 403 `page_restricted` for a restricted page.',
        params: SharePageParams,
        body: ShareCreateBody,
        response: { 200: ShareCreateResult, 201: ShareCreateResult },
      },
    },
    async (req, reply) => {
      const { created, result } = await publishPage(ctxOf(req, deps), req.params.pageId, req.body);
      return reply.status(created ? 201 : 200).send({ data: result });
    },
  );
  app.get(
    '/pages/:pageId/share',
    {
      schema: {
        tags,
        security,
        summary: 'The page’s active share, or null (editor); its link is never shown again',
        params: SharePageParams,
        response: { 200: PageShareResult },
      },
    },
    async (req) => ({ data: await getPageShare(ctxOf(req, deps), req.params.pageId) }),
  );
  app.delete(
    '/shares/:shareId',
    {
      schema: {
        tags,
        security,
        summary: 'Revoke a share: its link stops working at once (page editor or workspace admin)',
        params: ShareParams,
        response: { 200: ShareRevokeResult },
      },
    },
    async (req) => ({ data: await revokeShare(ctxOf(req, deps), req.params.shareId) }),
  );
  app.get(
    '/workspaces/:workspaceId/shares',
    {
      schema: {
        tags,
        security,
        summary: 'Active shares of the workspace, newest first (admin)',
        params: WorkspaceSharesParams,
        response: { 200: ShareListResult },
      },
    },
    async (req) => ({ data: await listWorkspaceShares(ctxOf(req, deps), req.params.workspaceId) }),
  );

  const publicTags = ['public shares'];
  app.get(
    '/public/shares/:token',
    {
      config: PUBLIC,
      schema: {
        tags: publicTags,
        summary: 'A shared page, and the tree of shared pages (no credentials)',
        description:
          'An unknown, revoked or switched-off link is 404 with one body for all. Never cached (`no-store`); `X-Robots-Tag: noindex` unless the share allows indexing.',
        params: PublicShareParams,
        response: { 200: PublicShareResult },
      },
    },
    async (req, reply) => {
      const indexable = publicAnswer(reply);
      const data = await readShare(ctxOf(req, deps), req.params.token);
      indexable(data.share);
      return { data };
    },
  );
  app.get(
    '/public/shares/:token/pages/:pageId',
    {
      config: PUBLIC,
      schema: {
        tags: publicTags,
        summary: 'A page inside a share (no credentials); any other page is 404',
        params: PublicSharePageParams,
        response: { 200: PublicSharePageResult },
      },
    },
    async (req, reply) => {
      const indexable = publicAnswer(reply);
      const data = await readSharedPage(ctxOf(req, deps), req.params.token, req.params.pageId);
      indexable(data.share);
      return { data };
    },
  );
  app.get(
    '/public/shares/:token/attachments/:attachmentId',
    {
      config: PUBLIC,
      schema: {
        tags: publicTags,
        summary: 'The bytes of an attachment of a shared page (no credentials)',
        description:
          'The same headers as the signed-in download (Content-Disposition, nosniff, a sandboxing CSP). Attachments of pages outside the share are 404. Range requests as for the signed-in download (206, 416).',
        params: PublicShareAttachmentParams,
      },
    },
    async (req, reply) => {
      const indexable = publicAnswer(reply);
      const { share, attachment, stream, range } = await withRangeErrors(reply, () =>
        openSharedAttachment(ctxOf(req, deps), req.params.token, req.params.attachmentId, rangeRequestOf(req)),
      );
      indexable(share);
      return sendFile(reply, { headers: downloadHeaders(attachment, 'private, no-store'), size: attachment.size, stream, range });
    },
  );
});

import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { rangeRequestOf, sendFile, withRangeErrors } from '../../http/downloads.js';
import { readFieldsThenFile } from '../../http/multipart.js';
import { ctxOf, type HttpDeps } from '../../http/request-context.js';
import { type AreaRoutes, BEARER, typed } from '../../http/routes.js';
import { Deleted, Id } from '../../schema.js';
import { downloadHeaders } from './attachments.files.js';
import {
  AttachmentListQuery,
  AttachmentListResult,
  AttachmentParams,
  AttachmentReadQuery,
  AttachmentResult,
  AttachmentUploadBody,
  ContentType,
  Filename,
} from './attachments.schema.js';
import { deleteAttachment, getAttachment, listAttachments, openAttachment, uploadAttachment, uploadAttachmentStream } from './attachments.service.js';

/** The text fields of a multipart upload; `filename` and `contentType` default to those of the file part. */
const MultipartFields = z.object({ pageId: Id, workspaceId: Id, filename: Filename, contentType: ContentType });

/**
 * `multipart/form-data` upload: text fields `pageId` and `workspaceId` (and optionally `filename`, `contentType`)
 * must come before the part named `file`, so access is checked before a byte is stored; the file is streamed to the
 * blob store, never held whole in memory.
 */
function multipartUpload(req: FastifyRequest, deps: HttpDeps) {
  return readFieldsThenFile(
    req,
    MultipartFields,
    (fields, part) => uploadAttachmentStream(ctxOf(req, deps), fields, part.file),
    (part) => ({ filename: part.filename, contentType: part.mimetype }),
  );
}

export const attachmentsRoutes: AreaRoutes = (parent, deps) => {
  // Multipart parsing only for this area's routes (an encapsulated scope).
  parent.register(async (scope) => {
    await scope.register(multipart, {
      // One more byte than allowed, so that the blob store (not a silent truncation) reports a file past the limit.
      limits: { fileSize: deps.env.config.MAX_ATTACHMENT_BYTES + 1, files: 1, fields: 10, fieldSize: 4096, parts: 12 },
      throwFileSizeLimit: false,
    });
    const app = typed(scope);
    const tags = ['attachments'];
    const security = BEARER;
    app.get(
      '/attachments',
      { schema: { tags, security, summary: 'Attachments of a page', querystring: AttachmentListQuery, response: { 200: AttachmentListResult } } },
      async (req) => ({ data: await listAttachments(ctxOf(req, deps), req.query) }),
    );
    app.get(
      '/attachments/:attachmentId',
      {
        schema: {
          tags,
          security,
          summary: 'An attachment’s record',
          params: AttachmentParams,
          querystring: AttachmentReadQuery,
          response: { 200: AttachmentResult },
        },
      },
      async (req) => ({ data: await getAttachment(ctxOf(req, deps), req.params.attachmentId, req.query.workspaceId) }),
    );
    app.post(
      '/attachments',
      {
        schema: {
          tags,
          security,
          summary: 'Upload a file to a page (editor)',
          description:
            'JSON with the bytes as Base64 in `data`, or `multipart/form-data` with text fields `pageId`, `workspaceId` ' +
            '(optional `filename`, `contentType`) before a file part named `file`, for large files (streamed).',
          body: AttachmentUploadBody,
          response: { 201: AttachmentResult },
        },
        // A multipart upload is handled here, before the JSON body schema would refuse it.
        preValidation: async (req, reply) => {
          if (!req.isMultipart()) return;
          const data = await multipartUpload(req, deps);
          return reply.status(201).send({ data });
        },
      },
      async (req, reply) => reply.status(201).send({ data: await uploadAttachment(ctxOf(req, deps), req.body) }),
    );
    app.get(
      '/attachments/:attachmentId/download',
      {
        schema: {
          tags,
          security,
          summary: 'The file’s bytes',
          description:
            'Streams the bytes with their Content-Type, Content-Length and a Content-Disposition carrying the file name. ' +
            'PNG, JPEG, GIF, WebP, AVIF and BMP images are `inline` with their own type; every other file (SVG, HTML, JavaScript, PDF, text…) is an ' +
            '`attachment` served as `application/octet-stream` (the record keeps the uploaded type), always with `nosniff` and a sandboxing CSP. ' +
            'A single `Range: bytes=a-b` (or `a-`, `-n`) answers 206 with Content-Range (resume, seek); several ranges are ignored (200, whole file); ' +
            'a range past the end is 416 RANGE_NOT_SATISFIABLE with `Content-Range: bytes */<size>`. `If-Range` with the ETag is honoured.',
          params: AttachmentParams,
          querystring: AttachmentReadQuery,
        },
      },
      async (req, reply) => {
        const { attachment, stream, range } = await withRangeErrors(reply, () =>
          openAttachment(ctxOf(req, deps), req.params.attachmentId, req.query.workspaceId, rangeRequestOf(req)),
        );
        return sendFile(reply, { headers: downloadHeaders(attachment, 'private, no-cache'), size: attachment.size, stream, range });
      },
    );
    app.delete(
      '/attachments/:attachmentId',
      {
        schema: {
          tags,
          security,
          summary: 'Delete an attachment (its uploader with editor rights, or a space admin)',
          params: AttachmentParams,
          querystring: AttachmentReadQuery,
          response: { 200: Deleted },
        },
      },
      async (req) => ({ data: await deleteAttachment(ctxOf(req, deps), req.params.attachmentId, req.query.workspaceId) }),
    );
  });
};

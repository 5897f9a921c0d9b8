import { create as contentDisposition } from 'content-disposition';
import { rangeRequestOf, sendFile, withRangeErrors } from '../../http/downloads.js';
import { ctxOf } from '../../http/request-context.js';
import { type AreaRoutes, BEARER } from '../../http/routes.js';
import { DOWNLOAD_CSP } from '../attachments/attachments.files.js';
import { ExportCreateBody, ExportParams, ExportResult } from './exports.schema.js';
import { createExport, getExport, openExportDownload } from './exports.service.js';

export const exportsRoutes: AreaRoutes = (app, deps) => {
  const tags = ['exports'];
  const security = BEARER;
  app.post(
    '/exports',
    {
      schema: {
        tags,
        security,
        summary: 'Export a space or a page tree as a zip of Markdown or HTML (a background job)',
        description:
          'Exactly one of `spaceId` and `pageId`. Answers 202 with the export; poll `GET /exports/{id}` until `status` is `succeeded`, then fetch `/exports/{id}/download`. The zip holds only live pages the requester reads.',
        body: ExportCreateBody,
        response: { 202: ExportResult },
      },
    },
    async (req, reply) => reply.status(202).send({ data: await createExport(ctxOf(req, deps), req.body) }),
  );
  app.get(
    '/exports/:exportId',
    { schema: { tags, security, summary: 'An export’s status and progress (its requester only)', params: ExportParams, response: { 200: ExportResult } } },
    async (req) => ({ data: await getExport(ctxOf(req, deps), req.params.exportId) }),
  );
  app.get(
    '/exports/:exportId/download',
    {
      schema: {
        tags,
        security,
        summary: 'The export’s zip (409 until it has succeeded)',
        description:
          'Streams `application/zip` as an attachment. The requester must still read the exported space. ' +
          'A single `Range` (resuming a large download) answers 206 with Content-Range; past the end, 416.',
        params: ExportParams,
      },
    },
    async (req, reply) => {
      const { export: done, stream, range } = await withRangeErrors(reply, () =>
        openExportDownload(ctxOf(req, deps), req.params.exportId, rangeRequestOf(req)),
      );
      const headers = {
        'content-type': 'application/zip',
        'content-length': String(done.size),
        'content-disposition': contentDisposition(done.filename, { type: 'attachment' }),
        'x-content-type-options': 'nosniff',
        'content-security-policy': DOWNLOAD_CSP,
        'cache-control': 'private, no-cache',
        etag: `"${done.sha256}"`,
      };
      return sendFile(reply, { headers, size: done.size ?? 0, stream, range });
    },
  );
};

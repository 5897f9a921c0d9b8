import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { readFieldsThenFile } from '../../http/multipart.js';
import { ctxOf, type HttpDeps } from '../../http/request-context.js';
import { type AreaRoutes, BEARER, typed } from '../../http/routes.js';
import { ImportCreateBody, ImportCreateFields, ImportParams, ImportResult } from './imports.schema.js';
import { createImport, createImportFromBase64, getImport } from './imports.service.js';

/**
 * `multipart/form-data`: the text fields (`workspaceId`, `spaceId`, optional `parentPageId` and `source`) come
 * before the one part named `file`, so access is checked before a byte is stored; the file is streamed to disk.
 */
function multipartImport(req: FastifyRequest, deps: HttpDeps) {
  return readFieldsThenFile(req, ImportCreateFields, (fields, part) =>
    createImport(ctxOf(req, deps), fields, { filename: part.filename || 'upload', stream: part.file }),
  );
}

export const importsRoutes: AreaRoutes = (parent, deps) => {
  parent.register(async (scope) => {
    await scope.register(multipart, {
      // One more byte than allowed, so that the upload is refused with its reason rather than silently cut.
      limits: { fileSize: deps.env.config.IMPORT_MAX_BYTES + 1, files: 1, fields: 10, fieldSize: 4096, parts: 12 },
      throwFileSizeLimit: false,
    });
    const app = typed(scope);
    const tags = ['imports'];
    const security = BEARER;
    app.post(
      '/imports',
      {
        schema: {
          tags,
          security,
          summary: 'Import a zip (or one Markdown or HTML file) into a space (a background job)',
          description:
            '`multipart/form-data` with text fields `workspaceId`, `spaceId`, optional `parentPageId` and `source` before one file part named `file` (a `.zip`, `.md`, `.markdown` or `.html`), or JSON with the file as Base64 in `data` and its `filename`. ' +
            'The upload is checked before it is accepted: unsafe paths, too many entries, too much unpacked, a suspicious compression ratio, nesting too deep, a file that is not what its name says, or an upload over `IMPORT_MAX_BYTES` answer 422 (413 for size) with `details.reason`, and nothing is kept. ' +
            'Answers 202 with the import; poll `GET /imports/{id}` until `status` is `succeeded` (see `result` and `warnings`) or `failed` (see `error`: a failed import leaves no pages and no files).',
          body: ImportCreateBody,
          response: { 202: ImportResult },
        },
        preValidation: async (req, reply) => {
          if (!req.isMultipart()) return;
          const data = await multipartImport(req, deps);
          return reply.status(202).send({ data });
        },
      },
      async (req, reply) => reply.status(202).send({ data: await createImportFromBase64(ctxOf(req, deps), req.body) }),
    );
    app.get(
      '/imports/:importId',
      {
        schema: {
          tags,
          security,
          summary: 'An import’s status, progress, result and warnings (its requester only)',
          params: ImportParams,
          response: { 200: ImportResult },
        },
      },
      async (req) => ({ data: await getImport(ctxOf(req, deps), req.params.importId) }),
    );
  });
};

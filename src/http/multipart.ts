import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { ZodType } from 'zod';
import { AppError, missingRequired } from '../errors.js';
import { validationError } from './validation.js';

/**
 * Shared by the routes that take a `multipart/form-data` upload (attachments, imports): the body must name its
 * boundary, and the parser's complaints about a broken body become the client's 400, not our 500.
 */

/** `boundary=…` (quoted or not, 1–70 characters as RFC 2046 allows) among the Content-Type parameters. */
const MULTIPART_BOUNDARY = /;\s*boundary=(?:"[^"]{1,70}"|[^\s";]{1,70})\s*(?:;|$)/i;

export function requireBoundary(req: FastifyRequest) {
  if (!MULTIPART_BOUNDARY.test(String(req.headers['content-type'] ?? '')))
    throw new AppError('INVALID_PARAMETER', 'A multipart/form-data body needs a boundary parameter (1 to 70 characters) in its Content-Type', {
      field: 'content-type',
      reason: 'missing_boundary',
    });
}

/** The parser's own complaints about a broken body (cut short, no closing boundary) are the client's error, not ours. */
export function malformedMultipart(err: unknown): AppError | null {
  if (err instanceof AppError || (err as { statusCode?: number }).statusCode) return null;
  const message = err instanceof Error ? err.message : '';
  if (!/^Multipart:|unexpected end of (multipart|form)|terminated early/i.test(message)) return null;
  return new AppError('INVALID_PARAMETER', `Malformed multipart body: ${message}`, { field: 'body', reason: 'malformed_multipart' });
}

/** Runs `read` over the request's parts, with the boundary checked first and parser errors mapped. */
export async function withMultipart<T>(req: FastifyRequest, read: () => Promise<T>): Promise<T> {
  requireBoundary(req);
  try {
    return await read();
  } catch (err) {
    throw malformedMultipart(err) ?? err;
  }
}

/**
 * An upload of text fields followed by one file part named `file`: the fields (with `fromPart`'s defaults taken from
 * the file part, such as its name) are checked by `schema` when the file part arrives, so access can be checked
 * before a byte is stored; `take` then streams the file. 422 for bad fields, a second file or a file part of another
 * name; 400 for no file; 400 for a broken body.
 */
export function readFieldsThenFile<F, R>(
  req: FastifyRequest,
  schema: ZodType<F>,
  take: (fields: F, file: MultipartFile) => Promise<R>,
  fromPart: (file: MultipartFile) => Record<string, string | undefined> = () => ({}),
): Promise<R> {
  return withMultipart(req, async () => {
    const fields: Record<string, string> = {};
    let result: { value: R } | undefined;
    for await (const part of req.parts()) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== 'file' || result) {
        part.file.resume();
        throw validationError('body', [{ code: 'custom', path: [part.fieldname], message: 'only one file, in the part named "file"', input: undefined }], {});
      }
      const parsed = schema.safeParse({ ...fromPart(part), ...fields });
      if (!parsed.success) {
        part.file.resume();
        throw validationError('body', parsed.error.issues, fields);
      }
      result = { value: await take(parsed.data, part) };
    }
    if (!result) throw missingRequired('file', 'Missing the part named "file"');
    return result.value;
  });
}

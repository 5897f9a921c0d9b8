import { resourcePathOf } from '../areas/oauth/oauth.scopes.js';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ErrorCode } from '../errors.js';

const CODE_FOR_STATUS: Record<number, ErrorCode> = {
  400: 'INVALID_PARAMETER',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'INVALID_PARAMETER',
  406: 'INVALID_PARAMETER',
  409: 'ALREADY_EXISTS',
  410: 'DELETED',
  412: 'PRECONDITION_FAILED',
  413: 'VALIDATION_ERROR',
  415: 'INVALID_PARAMETER',
  422: 'VALIDATION_ERROR',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

/** Errors of the database connection (not of a query) mean the service is temporarily unavailable. */
export function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  if (typeof e?.code === 'string' && (/^08/.test(e.code) || /^57P0/.test(e.code) || ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND'].includes(e.code)))
    return true;
  return typeof e?.message === 'string' && /PGlite is closed|Connection terminated|pool.*(ended|closed)|driver has already been destroyed/i.test(e.message);
}

/** Every error, ours or Fastify's, as `AppError`; unknown ones become INTERNAL_ERROR. */
export function toAppError(err: FastifyError | Error): AppError {
  if (err instanceof AppError) return err;
  const fe = err as FastifyError;
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('VALIDATION_ERROR', 'Request body is larger than the server accepts', { field: 'body', reason: 'too_large' }, 413);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('INVALID_PARAMETER', 'Unsupported Content-Type; send application/json', { field: 'content-type', reason: 'unsupported' });
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError('NOT_FOUND', 'Nothing found: a path parameter is longer than any id', { field: 'path', reason: 'not_found' });
    case 'FST_ERR_BAD_URL':
      return new AppError('INVALID_PARAMETER', 'The URL is not validly percent-encoded', { field: 'url', reason: 'malformed_url' });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('INVALID_PARAMETER', 'Content-Length does not match the body', { field: 'content-length', reason: 'mismatch' });
  }
  if (isDatabaseUnavailable(err)) return new AppError('SERVICE_UNAVAILABLE', 'The database is not answering; try again shortly');
  // Text PostgreSQL cannot store (a NUL character) that reached a query past the validator.
  if (fe.code === '22021' || fe.code === '22P05')
    return new AppError('VALIDATION_ERROR', 'Text contains a character that cannot be stored (NUL)', { field: 'body', reason: 'invalid_character' });
  const status = fe.statusCode;
  if (status && status >= 400 && status < 500) {
    if (err instanceof SyntaxError || fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY')
      return new AppError('INVALID_PARAMETER', `Malformed JSON body: ${err.message}`, { field: 'body', reason: 'malformed_json' });
    return new AppError(CODE_FOR_STATUS[status] ?? 'INVALID_PARAMETER', err.message, {}, status);
  }
  return new AppError('INTERNAL_ERROR', 'An unexpected error occurred; it has been logged with the request id');
}

/**
 * The challenge of a 401 (RFC 9110 asks one of every 401; RFC 6750 says how for bearer tokens): `Bearer realm="kb"`,
 * with `error="invalid_token"` when a bearer token was sent and refused (wrong, revoked or expired).
 */
export function bearerChallenge(request: FastifyRequest): string {
  const sentToken = /^bearer\s+\S/i.test(request.headers.authorization ?? '');
  const metadata = `${request.server.publicBase()}/.well-known/oauth-protected-resource${resourcePathOf(request.url)}`;
  return `Bearer realm="kb", resource_metadata="${metadata}"${sentToken ? ', error="invalid_token"' : ''}`;
}

export function sendError(reply: FastifyReply, err: AppError) {
  // Refused before the whole body was read (an upload over its limit, or refused at its first field): the rest of the
  // body is read and dropped, so the client, still sending, gets this answer rather than a broken pipe, and the socket
  // does not hang with unread bytes (which would also hold a graceful shutdown).
  const raw = reply.request.raw;
  if (!raw.complete) {
    raw.unpipe();
    raw.resume();
  }
  // A refusal that knows when to come back says so the standard way too.
  if (err.status === 429 && typeof err.details.retryAfter === 'number') reply.header('retry-after', err.details.retryAfter);
  if (err.status === 401) reply.header('www-authenticate', bearerChallenge(reply.request));
  return reply.status(err.status).send({ error: { code: err.code, message: err.message, details: err.details } });
}

/** The router's own errors, raised before any hook runs (a path parameter past its length limit, an undecodable URL). */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.header('x-request-id', request.id);
  return sendError(reply, toAppError(err));
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const appErr = toAppError(err);
    if (appErr.status >= 500) request.log.error({ err }, 'request failed');
    else request.log.info({ code: appErr.code, status: appErr.status }, appErr.message);
    return sendError(reply, appErr);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, new AppError('NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}`, { route: request.url.split('?')[0] })),
  );
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_KEY_PREFIX, looksLikeJwt, type TokenIssuer } from '../areas/auth/tokens.js';
import { type AppError, forbidden, unauthorized } from '../errors.js';

/**
 * Browser sessions: the session JWT rides in an HttpOnly cookie, so a script on the page can never read it, and every
 * cookie-authenticated write must also carry `X-CSRF-Token`, a value only a page of our own origin can learn (it is
 * answered by `GET /auth/session`, which a foreign page cannot read without CORS). The token is an HMAC of the session
 * JWT under a key derived from the JWT secret: bound to one session, checkable without storing anything.
 */
export const SESSION_COOKIE = 'kb_session';
export const CSRF_HEADER = 'x-csrf-token';
const CSRF_KEY_LABEL = 'kb csrf v1';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const csrfKeys = new WeakMap<TokenIssuer, Buffer>();

/** The CSRF token of a session: base64url(HMAC-SHA256(key derived from the JWT secret, session JWT)). */
export function csrfTokenFor(tokens: TokenIssuer, sessionJwt: string): string {
  let key = csrfKeys.get(tokens);
  if (!key) {
    key = tokens.deriveKey(CSRF_KEY_LABEL);
    csrfKeys.set(tokens, key);
  }
  return createHmac('sha256', key).update(sessionJwt).digest('base64url');
}

/** The `kb_session` cookie's value, when the request sent a non-empty one. */
export function sessionCookieOf(request: FastifyRequest): string | undefined {
  const value = request.cookies?.[SESSION_COOKIE];
  return value ? value : undefined;
}

/** The cookie holds session JWTs only: an API key there would make a long-lived secret ambient in the browser. */
export function requireSessionToken(value: string): string {
  if (value.startsWith(API_KEY_PREFIX) || !looksLikeJwt(value))
    throw unauthorized('The kb_session cookie holds no session token: sign in with POST /api/v1/auth/session (API keys go in the Authorization header)');
  return value;
}

export function isUnsafeMethod(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

function sameString(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** An origin in its canonical form (lower case, no default port), or null when it is not one (`null`, garbage). */
function canonicalOrigin(value: string): string | null {
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/** Whether `Origin` names the request's own origin: scheme and host as the client addressed them (X-Forwarded-* under TRUST_PROXY). */
function isOwnOrigin(request: FastifyRequest, origin: string): boolean {
  const own = canonicalOrigin(`${request.protocol}://${request.host}`);
  return own !== null && canonicalOrigin(origin) === own;
}

/**
 * Why a cookie-authenticated write must be refused, or null when it may go on: a present `Origin` must be our own
 * (a cross-site form or fetch), and `X-CSRF-Token` must be the session's token.
 */
export function refusedCookieWrite(request: FastifyRequest, tokens: TokenIssuer, sessionJwt: string): AppError | null {
  const origin = request.headers.origin;
  if (origin !== undefined && !isOwnOrigin(request, origin))
    return forbidden('Cross-origin request refused: a session cookie only works from this service’s own pages', { reason: 'cross_origin' });
  const given = request.headers[CSRF_HEADER];
  if (typeof given !== 'string' || !sameString(given, csrfTokenFor(tokens, sessionJwt)))
    return forbidden('Missing or invalid CSRF token: send the X-CSRF-Token header from GET /api/v1/auth/session', { reason: 'csrf' });
  return null;
}

/** Opening a session from another site's page (login CSRF): refused whatever the credentials, since the cookie is for our own pages only. */
export function refusedForeignOrigin(request: FastifyRequest): AppError | null {
  const origin = request.headers.origin;
  if (origin === undefined || isOwnOrigin(request, origin)) return null;
  return forbidden('Cross-origin request refused: browser sessions are opened from this service’s own pages', { reason: 'cross_origin' });
}

function cookieAttributes(request: FastifyRequest) {
  return { httpOnly: true, sameSite: 'lax' as const, path: '/', secure: request.protocol === 'https' };
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, sessionJwt: string, maxAgeS: number) {
  reply.setCookie(SESSION_COOKIE, sessionJwt, { ...cookieAttributes(request), maxAge: maxAgeS });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply) {
  reply.setCookie(SESSION_COOKIE, '', { ...cookieAttributes(request), maxAge: 0, expires: new Date(0) });
}

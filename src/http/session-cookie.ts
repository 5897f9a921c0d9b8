import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_KEY_PREFIX, looksLikeJwt, type TokenIssuer } from '../areas/auth/tokens.js';
import type { Config } from '../config.js';
import { type AppError, forbidden, unauthorized } from '../errors.js';

/**
 * Browser sessions: the session JWT rides in an HttpOnly cookie, so a script on the page can never read it, and every
 * cookie-authenticated write must also carry `X-CSRF-Token`, a value only a page of our own origin can learn (it is
 * answered by `GET /auth/session`, which a foreign page cannot read without CORS). The token is an HMAC of the session
 * JWT under a key derived from the JWT secret: bound to one session, checkable without storing anything.
 */
export const SESSION_COOKIE = 'kb_session';
/**
 * The name the cookie takes when it is `Secure`: browsers accept a `__Host-` cookie only from a secure origin, with
 * `Path=/` and no `Domain`, so neither a plain-http page nor a sibling subdomain can plant or overwrite it.
 */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
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

/**
 * The session cookie among parsed cookies: `__Host-kb_session`, else the plain `kb_session` (what plain-http
 * deployments set, and what secure ones set before the prefix; read for a transition), when non-empty.
 */
export function sessionCookieFrom(cookies: Record<string, string | undefined> | undefined): string | undefined {
  return cookies?.[SECURE_SESSION_COOKIE] || cookies?.[SESSION_COOKIE] || undefined;
}

/** The session cookie's value, when the request sent a non-empty one. */
export function sessionCookieOf(request: FastifyRequest): string | undefined {
  return sessionCookieFrom(request.cookies);
}

/** The cookie holds session JWTs only: an API key there would make a long-lived secret ambient in the browser. */
export function requireSessionToken(value: string): string {
  if (value.startsWith(API_KEY_PREFIX) || !looksLikeJwt(value))
    throw unauthorized('The session cookie holds no session token: sign in with POST /api/v1/auth/session (API keys go in the Authorization header)');
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

/**
 * Whether cookies must be `Secure`: the request came over HTTPS (as Fastify sees it: X-Forwarded-Proto counts under
 * TRUST_PROXY), or PUBLIC_URL is https, which covers a TLS proxy in front whose headers are not trusted.
 */
export function cookiesSecure(request: FastifyRequest, config: Pick<Config, 'PUBLIC_URL'>): boolean {
  return request.protocol === 'https' || (config.PUBLIC_URL?.toLowerCase().startsWith('https:') ?? false);
}

function cookieAttributes(secure: boolean) {
  return { httpOnly: true, sameSite: 'lax' as const, path: '/', secure };
}

/** Sets the session cookie: `__Host-kb_session` when secure (and the plain name, if the browser still has it, cleared), else `kb_session`. */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, config: Pick<Config, 'PUBLIC_URL'>, sessionJwt: string, maxAgeS: number) {
  const secure = cookiesSecure(request, config);
  reply.setCookie(secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE, sessionJwt, { ...cookieAttributes(secure), maxAge: maxAgeS });
  if (secure && request.cookies?.[SESSION_COOKIE] !== undefined) expire(reply, SESSION_COOKIE, secure);
}

/** Clears the session cookie under both names. */
export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply, config: Pick<Config, 'PUBLIC_URL'>) {
  const secure = cookiesSecure(request, config);
  expire(reply, SESSION_COOKIE, secure);
  if (secure) expire(reply, SECURE_SESSION_COOKIE, secure);
}

function expire(reply: FastifyReply, name: string, secure: boolean) {
  reply.setCookie(name, '', { ...cookieAttributes(secure), maxAge: 0, expires: new Date(0) });
}

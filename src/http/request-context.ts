import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Authenticator } from '../areas/auth/auth.service.js';
import type { Actor, ClientInfo, Ctx, ServiceEnv } from '../context.js';
import type { Database } from '../db/index.js';
import { AppError, readOnlyKeyRefusal, unauthorized } from '../errors.js';
import { newId } from '../ids.js';
import type { AuthThrottle } from './auth-throttle.js';
import { enforce, type RateLimiter } from './rate-limit.js';
import { isUnsafeMethod, refusedCookieWrite, requireSessionToken, sessionCookieOf } from './session-cookie.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without credentials (signup, login, health, docs). */
    public?: boolean;
    /**
     * A public route that acts for its caller when there is one (accepting an invitation): a bad `Authorization`
     * credential is a 401 there as everywhere, never a silent "nobody". A stale cookie still means nobody (a browser
     * keeps a dead cookie until told otherwise).
     */
    actsForCaller?: boolean;
    /** `false` exempts the route from rate limiting (health). */
    rateLimit?: boolean;
    /** A POST that only reads (an RPC-style read): a read-only API key may call it. */
    reads?: boolean;
  }
  interface FastifyRequest {
    actor: Actor | null;
    /** The session JWT from the `kb_session` cookie, when that cookie (not an Authorization header) authenticated the request. */
    cookieSession: string | null;
    /** The limiter that refused the request with 429 (`api`, `auth`), for the refusals metric; null otherwise. */
    rateLimitedBy: string | null;
  }
}

export interface HttpDeps {
  database: Database;
  env: ServiceEnv;
  authenticator: Authenticator;
  rateLimiter: RateLimiter;
  /** Login and signup attempts per address and per email. */
  authThrottle: AuthThrottle;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Keeps a well-formed incoming `X-Request-Id`, else makes one. */
export function requestId(req: { headers: Record<string, string | string[] | undefined> }): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : newId();
}

function bearerOf(request: FastifyRequest): string | null | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

/**
 * One onRequest hook, in this order: who is calling (a bad credential is remembered, not thrown yet), the rate
 * limit for that caller (per user, whatever key or token they use, else per address), then 401 for a protected route without a valid caller.
 * So credential guessing is rate limited too, and every response carries the X-RateLimit headers.
 * The caller is named by `Authorization: Bearer`, or else by the browser's `kb_session` cookie (a session JWT, the same
 * actor as that JWT as a bearer); a cookie-authenticated write must pass the CSRF check of session-cookie.ts.
 */
export function registerRequestGate(app: FastifyInstance, deps: HttpDeps) {
  app.decorateRequest('actor', null);
  app.decorateRequest('cookieSession', null);
  app.decorateRequest('rateLimitedBy', null);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    const bearer = bearerOf(request);
    // A header always wins: scripts behave the same whatever cookies their HTTP client keeps.
    const cookie = bearer === undefined ? sessionCookieOf(request) : undefined;
    let authError: AppError | null = null;
    if (bearer === null) authError = unauthorized('Malformed Authorization header: expected "Bearer <token>"');
    else {
      try {
        if (bearer !== undefined) request.actor = await deps.authenticator.authenticate(bearer, clientOf(request));
        else if (cookie !== undefined) {
          request.actor = await deps.authenticator.authenticate(requireSessionToken(cookie), clientOf(request));
          request.cookieSession = cookie;
        }
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        authError = err;
      }
    }
    const config = request.routeOptions.config;
    if (config?.rateLimit !== false) {
      // Per user, whichever key or token they call with: more keys never buy more requests.
      const key = request.actor ? `u:${request.actor.userId}` : `ip:${request.ip}`;
      enforce(reply, await deps.rateLimiter.hit(key));
    }
    const csrfError =
      request.cookieSession !== null && isUnsafeMethod(request.method) ? refusedCookieWrite(request, deps.env.tokens, request.cookieSession) : null;
    if (request.is404 || config?.public) {
      if (authError && bearer !== undefined && config?.actsForCaller) throw authError;
      // A public route acts for nobody, and an unchecked cookie write must not start acting for someone.
      if (csrfError) {
        request.actor = null;
        request.cookieSession = null;
      }
      return;
    }
    if (authError) throw authError;
    if (!request.actor) throw unauthorized('Missing credentials: send "Authorization: Bearer <API key or JWT>" (or sign in at POST /api/v1/auth/session)');
    if (csrfError) throw csrfError;
    if (request.actor.readOnly && isUnsafeMethod(request.method) && !config?.reads && !isToolProtocol(request.url)) throw readOnlyKeyRefusal();
  });
}

/** The MCP endpoints: every call is a POST, so a read-only key is checked per tool there (mcp/call.ts). */
function isToolProtocol(url: string): boolean {
  return /^\/(?:api\/)?mcp(?:-standard)?(?:[/?]|$)/.test(url);
}

/** The service context of a request. */
export function ctxOf(request: FastifyRequest, deps: HttpDeps): Ctx {
  const hint = request.headers['x-workspace-id'];
  return {
    db: deps.database.db,
    actor: request.actor,
    log: request.log,
    now: () => new Date(),
    requestId: request.id,
    workspaceHint: typeof hint === 'string' && hint ? hint : undefined,
    env: deps.env,
    client: clientOf(request),
  };
}

/** The caller's address (Fastify's `trustProxy` decides whether X-Forwarded-For counts) and user agent, trimmed to sane lengths. */
export function clientOf(request: FastifyRequest): ClientInfo {
  const agent = request.headers['user-agent'];
  return { address: request.ip ?? null, userAgent: typeof agent === 'string' && agent ? agent.slice(0, 400) : null };
}

import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { enforce, RateLimiter } from './rate-limit.js';

type AuthLimits = Pick<Config, 'AUTH_RATE_LIMIT_MAX' | 'AUTH_RATE_LIMIT_PER_EMAIL' | 'AUTH_RATE_LIMIT_WINDOW_S'>;

/** The email a login or signup names, as the schema will read it (trimmed, lower case); hashed so no address sits in Redis. */
function emailKeyOf(body: unknown): string | null {
  const email = body !== null && typeof body === 'object' ? (body as Record<string, unknown>).email : undefined;
  if (typeof email !== 'string' || !email.trim()) return null;
  return `email:${createHash('sha256').update(email.trim().toLowerCase()).digest('base64url').slice(0, 32)}`;
}

/**
 * Password guessing is throttled twice, whatever credentials a request carries: per client address (one machine
 * trying many accounts) and per target email (many machines trying one account). Counted before the body is
 * validated, so malformed attempts count too; both counters share Redis like the general limit.
 */
export class AuthThrottle {
  private readonly perAddress: RateLimiter;
  private readonly perEmail: RateLimiter;

  constructor(limits: AuthLimits, redis?: Redis, keyPrefix = 'kb-rl') {
    this.perAddress = new RateLimiter(limits.AUTH_RATE_LIMIT_MAX, limits.AUTH_RATE_LIMIT_WINDOW_S, redis, `${keyPrefix}-auth`, 'auth');
    this.perEmail = new RateLimiter(limits.AUTH_RATE_LIMIT_PER_EMAIL, limits.AUTH_RATE_LIMIT_WINDOW_S, redis, `${keyPrefix}-auth`, 'auth');
  }

  /** A `preValidation` hook for the login and signup routes. */
  readonly guard = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const emailKey = emailKeyOf(request.body);
    const [address, email] = await Promise.all([this.perAddress.hit(`ip:${request.ip}`), emailKey ? this.perEmail.hit(emailKey) : null]);
    // The refusing counter (or else the tighter one) is the one the X-RateLimit headers describe.
    const decisions = [address, email].filter((d) => d !== null).sort((a, b) => Number(a.allowed) - Number(b.allowed) || a.remaining - b.remaining);
    for (const d of decisions) enforce(reply, d);
  };
}

import type { FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import { AppError } from '../errors.js';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix time (seconds) when the window resets. */
  resetAt: number;
  /** Seconds to wait before retrying, when refused. */
  retryAfter: number;
  /** The limiter that decided (`api`, `auth`): the label of the refusals metric. */
  limiter: string;
}

/**
 * Fixed-window request counters: in Redis when configured (shared by every instance, with an in-memory
 * fallback from the moment Redis is not ready, so a dead Redis neither stalls nor unlimits requests), else in
 * process memory.
 */
export class RateLimiter {
  private readonly limiter: RateLimiterAbstract;
  constructor(
    readonly max: number,
    windowSeconds: number,
    redis?: Redis,
    keyPrefix = 'kb-rl',
    readonly name = 'api',
  ) {
    const memory = new RateLimiterMemory({ points: max, duration: windowSeconds, keyPrefix });
    this.limiter = redis
      ? new RateLimiterRedis({
          storeClient: redis,
          points: max,
          duration: windowSeconds,
          keyPrefix,
          insuranceLimiter: memory,
          rejectIfRedisNotReady: true,
          useRedisPackage: false,
        })
      : memory;
  }

  async hit(key: string, now = Date.now()): Promise<RateDecision> {
    try {
      const res = await this.limiter.consume(key, 1);
      return this.decision(true, res, now);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return this.decision(false, rejection, now);
      throw rejection;
    }
  }

  /**
   * The key's standing without counting a request: refused once `max` requests were counted in the window. For
   * counters of failures, which are looked at before an attempt and counted only when it fails. A counter that cannot
   * be read (Redis away) refuses nothing: the failures are still counted, in memory then.
   */
  async peek(key: string, now = Date.now()): Promise<RateDecision> {
    const res = await this.limiter.get(key).catch(() => null);
    if (!res) return { allowed: true, limit: this.max, remaining: this.max, resetAt: Math.ceil(now / 1000), retryAfter: 0, limiter: this.name };
    return this.decision(res.consumedPoints < this.max, res, now);
  }

  private decision(allowed: boolean, res: RateLimiterRes, now: number): RateDecision {
    return {
      allowed,
      limit: this.max,
      remaining: Math.max(0, res.remainingPoints),
      resetAt: Math.ceil((now + res.msBeforeNext) / 1000),
      retryAfter: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
      limiter: this.name,
    };
  }
}

/** Puts a decision in the X-RateLimit headers (unless a tighter one is already there) and refuses the request when it is spent. */
export function enforce(reply: FastifyReply, d: RateDecision): void {
  const shown = reply.getHeader('x-ratelimit-remaining');
  if (shown === undefined || d.remaining < Number(shown) || !d.allowed)
    reply.header('x-ratelimit-limit', d.limit).header('x-ratelimit-remaining', d.remaining).header('x-ratelimit-reset', d.resetAt);
  if (d.allowed) return;
  reply.header('retry-after', d.retryAfter);
  reply.request.rateLimitedBy = d.limiter;
  throw new AppError('RATE_LIMITED', `Too many requests; retry in ${d.retryAfter} s`, { limit: d.limit, retryAfter: d.retryAfter });
}

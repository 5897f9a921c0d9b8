import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { BlobStore } from '../blobs/blob-store.js';
import type { Database } from '../db/index.js';
import { AppError } from '../errors.js';
import { ErrorBody } from '../schema.js';
import { sendError } from './errors.js';

/** Each dependency gets this long to answer a readiness check. */
const CHECK_TIMEOUT_MS = 2000;

type CheckResult = 'ok' | 'not configured' | 'failed' | 'timeout';

const Liveness = z.object({ status: z.literal('ok') });
const Readiness = z.object({
  status: z.literal('ok'),
  checks: z.object({
    database: z.literal('ok').describe('The database answered `select 1`'),
    redis: z.enum(['ok', 'not configured']).describe('Redis answered PING, or REDIS_URL is unset'),
    storage: z.literal('ok').describe('The blob store (disk folder or S3 bucket) can be read and written'),
  }),
});

export interface HealthDeps {
  database: Database;
  redis?: Redis;
  blobs: BlobStore;
}

/**
 * Two probes, both public and never rate limited (a load balancer polls them): `/api/health` is liveness (the
 * process answers and its database does: restart me if not), `/api/health/ready` is readiness (every dependency a
 * request may need answers: send me traffic). A failing readiness check names the dependency, not its error, which is
 * logged instead (the route is public).
 */
export function registerHealth(app: FastifyInstance, deps: HealthDeps) {
  app.get(
    '/api/health',
    {
      config: { public: true, rateLimit: false },
      schema: { tags: ['health'], summary: 'Liveness and database reachability', response: { 200: Liveness, 503: ErrorBody } },
    },
    async (_req, reply) => {
      try {
        await withTimeout(deps.database.ping(), CHECK_TIMEOUT_MS);
        return { status: 'ok' as const };
      } catch {
        return sendError(reply, new AppError('SERVICE_UNAVAILABLE', 'The database is not answering'));
      }
    },
  );

  app.get(
    '/api/health/ready',
    {
      config: { public: true, rateLimit: false },
      schema: {
        tags: ['health'],
        summary: `Readiness: the database, Redis (when configured) and the blob store each answer within ${CHECK_TIMEOUT_MS / 1000} s; 503 names the ones that do not in details.checks`,
        response: { 200: Readiness, 503: ErrorBody },
      },
    },
    async (request, reply) => {
      const redis = deps.redis;
      const [database, redisResult, storage] = await Promise.all([
        check('database', () => deps.database.ping()),
        redis ? check('redis', () => redis.ping()) : Promise.resolve<CheckResult>('not configured'),
        check('storage', () => deps.blobs.check()),
      ]);
      const checks = { database, redis: redisResult, storage };
      const failing = Object.entries(checks).filter(([, result]) => result !== 'ok' && result !== 'not configured');
      if (failing.length === 0) return { status: 'ok' as const, checks };
      return sendError(reply, new AppError('SERVICE_UNAVAILABLE', `Not ready: ${failing.map(([name]) => name).join(', ')} not answering`, { checks }));

      async function check(name: string, probe: () => Promise<unknown>): Promise<CheckResult> {
        try {
          await withTimeout(probe(), CHECK_TIMEOUT_MS);
          return 'ok';
        } catch (err) {
          request.log.warn({ err, check: name }, 'readiness check failed');
          return err instanceof CheckTimeout ? 'timeout' : 'failed';
        }
      }
    },
  );
}

class CheckTimeout extends Error {}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([p, new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new CheckTimeout(`timed out after ${ms} ms`)), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}

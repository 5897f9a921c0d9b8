import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
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
  /** How long a readiness result is answered again before the checks run anew (HEALTH_READY_CACHE_MS). */
  readyCacheMs: number;
  log: FastifyBaseLogger;
}

type Checks = { database: CheckResult; redis: CheckResult; storage: CheckResult };

/**
 * Two probes, both public and never rate limited (a load balancer polls them): `/api/health` is liveness (the
 * process answers and its database does: restart me if not), `/api/health/ready` is readiness (every dependency a
 * request may need answers: send me traffic). Readiness costs a database ping, a Redis PING and a blob-store check
 * (a HeadBucket on S3): its result is answered again for `readyCacheMs`, and calls during a check wait for that one,
 * so however many callers poll it, each instance checks at most once an interval. A failing readiness check names
 * the dependency, not its error, which is logged instead (the route is public).
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

  const readiness = reusedFor(deps.readyCacheMs, () => checkDependencies(deps));
  app.get(
    '/api/health/ready',
    {
      config: { public: true, rateLimit: false },
      schema: {
        tags: ['health'],
        summary: `Readiness: the database, Redis (when configured) and the blob store each answer within ${CHECK_TIMEOUT_MS / 1000} s; 503 names the ones that do not in details.checks`,
        description: 'The result is at most HEALTH_READY_CACHE_MS old (1 s by default): the checks run at most once an interval per instance.',
        response: { 200: Readiness, 503: ErrorBody },
      },
    },
    async (_request, reply) => {
      const checks = await readiness();
      const failing = Object.entries(checks).filter(([, result]) => result !== 'ok' && result !== 'not configured');
      if (failing.length === 0) return { status: 'ok' as const, checks };
      return sendError(reply, new AppError('SERVICE_UNAVAILABLE', `Not ready: ${failing.map(([name]) => name).join(', ')} not answering`, { checks }));
    },
  );
}

async function checkDependencies(deps: HealthDeps): Promise<Checks> {
  const check = async (name: string, probe: () => Promise<unknown>): Promise<CheckResult> => {
    try {
      await withTimeout(probe(), CHECK_TIMEOUT_MS);
      return 'ok';
    } catch (err) {
      deps.log.warn({ err, check: name }, 'readiness check failed');
      return err instanceof CheckTimeout ? 'timeout' : 'failed';
    }
  };
  const redis = deps.redis;
  const [database, redisResult, storage] = await Promise.all([
    check('database', () => deps.database.ping()),
    redis ? check('redis', () => redis.ping()) : Promise.resolve<CheckResult>('not configured'),
    check('storage', () => deps.blobs.check()),
  ]);
  return { database, redis: redisResult, storage };
}

/** `run`'s result, reused for `ms` after it came (0: not at all); callers while it runs share that run. */
function reusedFor<T>(ms: number, run: () => Promise<T>): () => Promise<T> {
  let last: { value: T; at: number } | null = null;
  let running: Promise<T> | null = null;
  return () => {
    if (last && Date.now() - last.at < ms) return Promise.resolve(last.value);
    running ??= run()
      .then((value) => {
        last = { value, at: Date.now() };
        return value;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
}

class CheckTimeout extends Error {}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([p, new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new CheckTimeout(`timed out after ${ms} ms`)), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}

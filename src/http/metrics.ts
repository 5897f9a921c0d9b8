import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import type { Database } from '../db/index.js';
import { unauthorized } from '../errors.js';
import { createMetrics } from '../metrics/metrics.js';
import { enforce, RateLimiter } from './rate-limit.js';

export const METRICS_PATH = '/api/metrics';

/** This file is `src/http/metrics.ts` in the source and `dist/http/metrics.js` in the build: package.json is two levels up either way. */
function packageVersion(): string {
  try {
    return String(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version ?? 'unknown');
  } catch {
    return 'unknown';
  }
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Compares digests of equal length, so neither the token's content nor its length shows in the time taken. */
function bearerMatches(request: FastifyRequest, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match !== null && timingSafeEqual(digest(match[1]), digest(token));
}

export interface MetricsDeps {
  config: Config;
  database: Database;
  /** Where the failed-token counters are shared between instances (else process memory). */
  redis?: Redis;
  keyPrefix?: string;
}

/**
 * `GET /api/metrics` in the Prometheus text format, for whoever holds METRICS_TOKEN (a scraper, not a user: the
 * route is public to the request gate and checks its own bearer). Off (404, no hooks) when METRICS_TOKEN is unset.
 * Wrong tokens are counted per client address like password guesses (AUTH_RATE_LIMIT_MAX per
 * AUTH_RATE_LIMIT_WINDOW_S): past it, 429 before the token is even compared, so a right guess cannot be told from a
 * wrong one. A scraper with the right token is never limited. Every other response is timed by route pattern, never
 * by raw URL, so the series stay few.
 */
export function registerMetrics(app: FastifyInstance, deps: MetricsDeps) {
  const token = deps.config.METRICS_TOKEN;
  if (!token) return;
  const { AUTH_RATE_LIMIT_MAX: max, AUTH_RATE_LIMIT_WINDOW_S: windowS } = deps.config;
  const failures = new RateLimiter(max, windowS, deps.redis, `${deps.keyPrefix ?? 'kb-rl'}-metrics`, 'metrics');
  const metrics = createMetrics({
    database: deps.database,
    collab: () => app.collabCounts?.() ?? { connections: 0, documents: 0 },
    version: packageVersion(),
    processMetrics: true,
    onQueueError: (err) => app.log.warn({ err }, 'metrics: could not read the job queue'),
  });

  app.addHook('onResponse', (request, reply, done) => {
    const route = request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched');
    if (route !== METRICS_PATH) metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    if (reply.statusCode === 429 && request.rateLimitedBy) metrics.rateLimitRefused(request.rateLimitedBy);
    done();
  });

  app.get(
    METRICS_PATH,
    {
      config: { public: true, rateLimit: false },
      schema: {
        tags: ['health'],
        security: [{ metricsToken: [] }],
        summary:
          'Prometheus metrics (text format); requires `Authorization: Bearer <METRICS_TOKEN>`, 404 when METRICS_TOKEN is unset; 429 after AUTH_RATE_LIMIT_MAX wrong tokens from one address',
      },
    },
    async (request, reply) => {
      const address = `ip:${request.ip}`;
      const standing = await failures.peek(address);
      if (!standing.allowed) enforce(reply, standing);
      if (!bearerMatches(request, token)) {
        enforce(reply, await failures.hit(address));
        throw unauthorized('Send "Authorization: Bearer <METRICS_TOKEN>" to read the metrics');
      }
      const text = await metrics.scrape();
      return reply.header('content-type', metrics.contentType).header('cache-control', 'no-store').send(text);
    },
  );
}

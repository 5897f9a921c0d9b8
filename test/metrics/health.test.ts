import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createTestApp, requester, type TestApp } from '../helpers/app.js';
import { connectRedis, requireRedis } from '../helpers/redis.js';

/** The two probes a load balancer or Kubernetes polls: /api/health (liveness) and /api/health/ready (readiness). */
let t: TestApp;
let goodRedis: Redis | undefined;
const others: FastifyInstance[] = [];
const clients: Redis[] = [];

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_MAX: 3 });
  goodRedis = await connectRedis();
});

afterAll(async () => {
  for (const app of others) await app.close();
  for (const c of clients) c.disconnect();
  goodRedis?.disconnect();
  await t.close();
});

/** Another app over the test's database with other settings or a Redis client. */
async function variant(overrides: Partial<TestApp['config']>, redis?: Redis) {
  const app = await buildApp({
    config: { ...t.config, ...overrides },
    database: t.database,
    redis,
    logger: false,
    rateLimitKeyPrefix: `kb-health-${Date.now()}`,
  });
  await app.ready();
  others.push(app);
  return requester(app);
}

describe('liveness', () => {
  it('answers 200 while the process and its database answer, never rate limited', async () => {
    for (let i = 0; i < 6; i++) {
      const res = await t.request({ url: '/api/health' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'ok' });
    }
  });
});

describe('readiness', () => {
  it('answers 200 with each check when the database and the blob store answer (Redis not configured)', async () => {
    const res = await t.request({ url: '/api/health/ready' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'not configured', storage: 'ok' } });
  });

  it('is public and never rate limited (hammered well past RATE_LIMIT_MAX)', async () => {
    const statuses = await Promise.all(Array.from({ length: 15 }, () => t.request({ url: '/api/health/ready', remoteAddress: '10.1.1.1' })));
    expect(statuses.map((r) => r.status)).toEqual(Array(15).fill(200));
    // The same address is refused elsewhere by then.
    const statusesElsewhere: number[] = [];
    for (let i = 0; i < 4; i++) statusesElsewhere.push((await t.request({ url: '/api/v1/users/me', remoteAddress: '10.1.1.1' })).status);
    expect(statusesElsewhere).toEqual([401, 401, 401, 429]);
    expect((await t.request({ url: '/api/health/ready', remoteAddress: '10.1.1.1' })).status).toBe(200);
  });

  it('answers 503 in the error shape naming the storage when the blob folder cannot be made', async () => {
    // DATA_DIR is a regular file: the blob folder under it can never be created.
    const file = path.join(t.config.DATA_DIR, 'not-a-folder');
    writeFileSync(file, 'x');
    const request = await variant({ DATA_DIR: file });
    const res = await request({ url: '/api/health/ready' });
    expect(res.status).toBe(503);
    expect(res.body.error).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      details: { checks: { database: 'ok', redis: 'not configured', storage: 'failed' } },
    });
    expect(res.body.error.message).toContain('storage');
    // The error itself (a path on this server) is logged, not shown.
    expect(JSON.stringify(res.body)).not.toContain('not-a-folder');
    // Liveness is only the process and its database: still 200.
    expect((await request({ url: '/api/health' })).status).toBe(200);
  });

  it('answers 503 naming Redis when it is configured but unreachable, within the check timeout', async () => {
    // A closed port, no retries and no offline queue: a command fails at once instead of waiting for a connection.
    const dead = new Redis({ host: '127.0.0.1', port: 1, lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    dead.on('error', () => {});
    clients.push(dead);
    const request = await variant({}, dead);
    const started = Date.now();
    const res = await request({ url: '/api/health/ready' });
    expect(Date.now() - started).toBeLessThan(2500);
    expect(res.status).toBe(503);
    expect(res.body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { checks: { database: 'ok', storage: 'ok' } } });
    expect(['failed', 'timeout']).toContain(res.body.error.details.checks.redis);
    expect(res.body.error.message).toContain('redis');
  });

  it('checks at most once per HEALTH_READY_CACHE_MS, answering from the last result meanwhile', async () => {
    // A blob store that breaks after the first check: its folder becomes a file.
    const dataDir = mkdtempSync(path.join(tmpdir(), 'kb-ready-'));
    const cached = await variant({ DATA_DIR: dataDir, HEALTH_READY_CACHE_MS: 60_000 });
    const uncached = await variant({ DATA_DIR: dataDir, HEALTH_READY_CACHE_MS: 0 });
    expect((await cached({ url: '/api/health/ready' })).status).toBe(200);
    expect((await uncached({ url: '/api/health/ready' })).status).toBe(200);
    rmSync(path.join(dataDir, 'blobs'), { recursive: true });
    writeFileSync(path.join(dataDir, 'blobs'), 'x');
    // Polled again and again, the cached instance does not check again: its answer is the one it had.
    for (let i = 0; i < 5; i++) {
      const res = await cached({ url: '/api/health/ready', remoteAddress: `10.2.2.${i}` });
      expect(res.status).toBe(200);
      expect(res.body.checks.storage).toBe('ok');
    }
    // With 0 every call checks, so it sees the broken store at once.
    const fresh = await uncached({ url: '/api/health/ready' });
    expect(fresh.status).toBe(503);
    expect(fresh.body.error.details.checks.storage).toBe('failed');
    // Liveness is not cached (and checks only the database).
    expect((await cached({ url: '/api/health' })).status).toBe(200);
  });

  it('says Redis is ok when a Redis server answers', async (ctx) => {
    if (!requireRedis(goodRedis, ctx)) return;
    const request = await variant({}, goodRedis);
    const res = await request({ url: '/api/health/ready' });
    expect(res.status).toBe(200);
    expect(res.body.checks).toEqual({ database: 'ok', redis: 'ok', storage: 'ok' });
  });
});

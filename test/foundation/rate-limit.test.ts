import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Response, siblingApp, type TestApp } from '../helpers/app.js';
import { createApiKey, createUser, type TestUser } from '../helpers/factories.js';

const MAX = 3;

/** Users are made through `t` (the default, generous limit); the limits are tested on instances with RATE_LIMIT_MAX=3. */
let t: TestApp;
let ann: TestUser;
let bob: TestUser;
const opened: FastifyInstance[] = [];

async function limited(overrides: Parameters<typeof siblingApp>[2] = {}, extra: Parameters<typeof siblingApp>[1] = {}) {
  const s = await siblingApp(t, extra, { RATE_LIMIT_MAX: MAX, ...overrides });
  opened.push(s.app);
  return s.request;
}

beforeAll(async () => {
  t = await createTestApp();
  [ann, bob] = await Promise.all([createUser(t, 'Ann'), createUser(t, 'Bob')]);
});
afterAll(async () => {
  for (const app of opened) await app.close();
  await t.close();
});

function expectHeaders(res: Response, remaining: number) {
  expect(res.headers['x-ratelimit-limit']).toBe(String(MAX));
  expect(res.headers['x-ratelimit-remaining']).toBe(String(remaining));
  const reset = Number(res.headers['x-ratelimit-reset']);
  const nowS = Date.now() / 1000;
  expect(Number.isInteger(reset)).toBe(true);
  expect(reset).toBeGreaterThan(nowS - 1);
  expect(reset).toBeLessThanOrEqual(Math.ceil(nowS) + t.config.RATE_LIMIT_WINDOW_S + 1);
}

function expect429(res: Response) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ error: { code: 'RATE_LIMITED', message: expect.any(String), details: expect.objectContaining({ limit: MAX }) } });
  const retryAfter = Number(res.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(t.config.RATE_LIMIT_WINDOW_S);
  expect(res.headers['x-request-id']).toBeTruthy();
  expectHeaders(res, 0);
}

describe('rate limiting', () => {
  it('sends X-RateLimit-* on every response and refuses the request past the limit with 429 and Retry-After', async () => {
    const request = await limited();
    for (let i = 0; i < MAX; i++) {
      const res = await request({ url: '/api/v1/workspaces', token: ann.token });
      expect(res.status).toBe(200);
      expectHeaders(res, MAX - 1 - i);
    }
    expect429(await request({ url: '/api/v1/workspaces', token: ann.token }));
    expect429(await request({ url: '/api/workspaces', token: ann.token }));
  });

  it('counts per user and per API key: another caller is unaffected', async () => {
    const request = await limited();
    const [key1, key2] = [await createApiKey(t, ann, 'one'), await createApiKey(t, ann, 'two')];
    for (let i = 0; i < MAX; i++) expect((await request({ url: '/api/v1/users/me', token: key1 })).status).toBe(200);
    expect429(await request({ url: '/api/v1/users/me', token: key1 }));
    const other = await request({ url: '/api/v1/users/me', token: key2 });
    expect(other.status).toBe(200);
    expectHeaders(other, MAX - 1);
    for (let i = 0; i < MAX; i++) expect((await request({ url: '/api/v1/users/me', token: ann.token })).status).toBe(200);
    expect429(await request({ url: '/api/v1/users/me', token: ann.token }));
    const bobs = await request({ url: '/api/v1/users/me', token: bob.token });
    expect(bobs.status).toBe(200);
    expectHeaders(bobs, MAX - 1);
  });

  it('counts unauthenticated requests, bad credentials included, per client address', async () => {
    const request = await limited();
    const a = '10.0.0.1';
    expectHeaders(await request({ url: '/api/v1/users/me', remoteAddress: a }), MAX - 1);
    expectHeaders(await request({ url: '/api/v1/users/me', remoteAddress: a, headers: { authorization: 'Bearer kb_guess' } }), MAX - 2);
    const third = await request({ method: 'POST', url: '/api/v1/auth/login', remoteAddress: a, body: { email: ann.email, password: 'wrong-horse' } });
    expect(third.status).toBe(401);
    expectHeaders(third, 0);
    expect429(await request({ method: 'POST', url: '/api/v1/auth/login', remoteAddress: a, body: { email: ann.email, password: 'correct-horse' } }));
    const elsewhere = await request({
      method: 'POST',
      url: '/api/v1/auth/login',
      remoteAddress: '10.0.0.2',
      body: { email: ann.email, password: 'correct-horse' },
    });
    expect(elsewhere.status).toBe(200);
    // An authenticated caller from the exhausted address is counted as themselves.
    expect((await request({ url: '/api/v1/users/me', remoteAddress: a, token: bob.token })).status).toBe(200);
  });

  it('never limits health', async () => {
    const request = await limited();
    for (let i = 0; i < MAX * 3; i++) {
      const res = await request({ url: '/api/health' });
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
    expect((await request({ url: '/api/v1/users/me', token: ann.token })).status).toBe(200);
  });

  it('opens again when the window has passed', async () => {
    const request = await limited({ RATE_LIMIT_WINDOW_S: 1 });
    for (let i = 0; i < MAX; i++) await request({ url: '/api/v1/users/me', token: bob.token });
    const refused = await request({ url: '/api/v1/users/me', token: bob.token });
    expect(refused.status).toBe(429);
    const waitMs = Number(refused.headers['x-ratelimit-reset']) * 1000 - Date.now() + 50;
    await new Promise((r) => setTimeout(r, Math.max(waitMs, 0)));
    const again = await request({ url: '/api/v1/users/me', token: bob.token });
    expect(again.status).toBe(200);
    expectHeaders(again, MAX - 1);
  });
});

describe('rate limiting with Redis', () => {
  let redis: Redis | undefined;
  beforeAll(async () => {
    const client = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 1000 });
    client.on('error', () => {});
    try {
      await client.connect();
      if ((await client.ping()) === 'PONG') redis = client;
    } catch {
      client.disconnect();
    }
  });
  afterAll(() => redis?.disconnect());

  it('shares counters between instances that use the same Redis', async (ctx) => {
    if (!redis) return ctx.skip();
    const prefix = `kb-rl-test-${randomUUID()}`;
    const one = await limited({}, { redis, rateLimitKeyPrefix: prefix });
    const two = await limited({}, { redis, rateLimitKeyPrefix: prefix });
    expectHeaders(await one({ url: '/api/v1/users/me', token: ann.token }), MAX - 1);
    expectHeaders(await two({ url: '/api/v1/users/me', token: ann.token }), MAX - 2);
    expectHeaders(await one({ url: '/api/v1/users/me', token: ann.token }), 0);
    expect429(await two({ url: '/api/v1/users/me', token: ann.token }));
    expect429(await one({ url: '/api/v1/users/me', token: ann.token }));
    expect((await two({ url: '/api/v1/users/me', token: bob.token })).status).toBe(200);
    // The counters live in Redis under the prefix.
    const keys = await redis.keys(`${prefix}:*`);
    expect(keys.sort()).toEqual([`${prefix}:u:${ann.id}`, `${prefix}:u:${bob.id}`].sort());
    // An instance with another prefix (another deployment) counts on its own.
    const three = await limited({}, { redis, rateLimitKeyPrefix: `${prefix}-other` });
    expect((await three({ url: '/api/v1/users/me', token: ann.token })).status).toBe(200);
    await redis.del(...(await redis.keys(`${prefix}*`)));
  });
});

import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Response, siblingApp, type TestApp } from '../helpers/app.js';
import { createApiKey, createUser, type TestUser } from '../helpers/factories.js';
import { connectRedis, requireRedis } from '../helpers/redis.js';

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

  it('counts per user, whichever of their keys or tokens they call with: more keys buy no more requests', async () => {
    const request = await limited();
    const [key1, key2] = [await createApiKey(t, ann, 'one'), await createApiKey(t, ann, 'two')];
    expectHeaders(await request({ url: '/api/v1/users/me', token: key1 }), MAX - 1);
    expectHeaders(await request({ url: '/api/v1/users/me', token: key2 }), MAX - 2);
    expectHeaders(await request({ url: '/api/v1/users/me', token: ann.token }), 0);
    expect429(await request({ url: '/api/v1/users/me', token: key1 }));
    expect429(await request({ url: '/api/v1/users/me', token: key2 }));
    expect429(await request({ url: '/api/v1/users/me', token: ann.token }));
    // Another user is unaffected.
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

describe('login and signup throttle', () => {
  const login = (request: Awaited<ReturnType<typeof limited>>, email: string, remoteAddress: string, token?: string) =>
    request({ method: 'POST', url: '/api/v1/auth/login', remoteAddress, token, body: { email, password: 'wrong-horse' } });

  it('counts attempts per client address whatever credentials are sent, signup included', async () => {
    const request = await limited({ AUTH_RATE_LIMIT_MAX: 3, AUTH_RATE_LIMIT_PER_EMAIL: 100, RATE_LIMIT_MAX: 1000 });
    const a = '10.1.0.1';
    expect((await login(request, 'one@example.com', a)).status).toBe(401);
    // A valid session token does not move the count to the user's own budget.
    expect((await login(request, 'two@example.com', a, ann.token)).status).toBe(401);
    const signup = await request({
      method: 'POST',
      url: '/api/v1/auth/signup',
      remoteAddress: a,
      body: { email: `s-${randomUUID()}@example.com`, password: 'correct-horse', name: 'S' },
    });
    expect(signup.status).toBe(201);
    expect(signup.headers['x-ratelimit-remaining']).toBe('0');
    const refused = await login(request, ann.email, a);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { limit: 3 } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.headers['x-ratelimit-limit']).toBe('3');
    // Malformed attempts count too, and the right password does not help once refused.
    expect((await request({ method: 'POST', url: '/api/v1/auth/login', remoteAddress: a, body: { email: ann.email, password: 'correct-horse' } })).status).toBe(
      429,
    );
    expect((await request({ method: 'POST', url: '/api/v1/auth/signup', remoteAddress: a, body: {} })).status).toBe(429);
    // Another address, and other routes from this one, are unaffected.
    expect(
      (await request({ method: 'POST', url: '/api/v1/auth/login', remoteAddress: '10.1.0.2', body: { email: ann.email, password: 'correct-horse' } })).status,
    ).toBe(200);
    expect((await request({ url: '/api/v1/users/me', remoteAddress: a, token: ann.token })).status).toBe(200);
  });

  it('counts attempts per target email from any address, however the email is spelled', async () => {
    const request = await limited({ AUTH_RATE_LIMIT_MAX: 100, AUTH_RATE_LIMIT_PER_EMAIL: 2, RATE_LIMIT_MAX: 1000 });
    const email = bob.email;
    expect((await login(request, email, '10.2.0.1')).status).toBe(401);
    expect((await login(request, `  ${email.toUpperCase()} `, '10.2.0.2')).status).toBe(401);
    const refused = await request({ method: 'POST', url: '/api/v1/auth/login', remoteAddress: '10.2.0.3', body: { email, password: 'correct-horse' } });
    expect(refused.status).toBe(429);
    expect(refused.body.error.details).toMatchObject({ limit: 2 });
    expect(
      (await request({ method: 'POST', url: '/api/v1/auth/signup', remoteAddress: '10.2.0.4', body: { email, password: 'x-horse-1', name: 'B' } })).status,
    ).toBe(429);
    // Other accounts can still sign in from those addresses.
    expect(
      (await request({ method: 'POST', url: '/api/v1/auth/login', remoteAddress: '10.2.0.3', body: { email: ann.email, password: 'correct-horse' } })).status,
    ).toBe(200);
  });
});

describe('client address behind a proxy (TRUST_PROXY)', () => {
  const me = (request: Awaited<ReturnType<typeof limited>>, forwardedFor: string) =>
    request({ url: '/api/v1/users/me', remoteAddress: '10.9.0.1', headers: { 'x-forwarded-for': forwardedFor } });

  it('with TRUST_PROXY=true, counts unauthenticated requests per X-Forwarded-For client', async () => {
    const request = await limited({ TRUST_PROXY: true });
    for (let i = 0; i < MAX; i++) expect((await me(request, '203.0.113.7')).status).toBe(401);
    expect429(await me(request, '203.0.113.7'));
    expect429(await me(request, '203.0.113.7, 10.9.0.1'));
    const other = await me(request, '203.0.113.8');
    expect(other.status).toBe(401);
    expectHeaders(other, MAX - 1);
  });

  it('with TRUST_PROXY=false (the default), ignores X-Forwarded-For: a forged header buys no new budget', async () => {
    expect(t.config.TRUST_PROXY).toBe(false);
    const request = await limited();
    for (let i = 0; i < MAX; i++) expect((await me(request, `198.51.100.${i}`)).status).toBe(401);
    expect429(await me(request, '198.51.100.200'));
    const direct = await request({ url: '/api/v1/users/me', remoteAddress: '10.9.0.2', headers: { 'x-forwarded-for': '198.51.100.1' } });
    expectHeaders(direct, MAX - 1);
  });

  it('with TRUST_PROXY=true, throttles login by the forwarded client address', async () => {
    const request = await limited({ TRUST_PROXY: true, AUTH_RATE_LIMIT_MAX: 1, RATE_LIMIT_MAX: 1000 });
    const attempt = (client: string) =>
      request({
        method: 'POST',
        url: '/api/v1/auth/login',
        remoteAddress: '10.9.0.3',
        headers: { 'x-forwarded-for': client },
        body: { email: 'x@example.com', password: 'p' },
      });
    expect((await attempt('203.0.113.20')).status).toBe(401);
    expect((await attempt('203.0.113.20')).status).toBe(429);
    expect((await attempt('203.0.113.21')).status).toBe(401);
  });
});

describe('rate limiting with Redis', () => {
  let redis: Redis | undefined;
  beforeAll(async () => {
    redis = await connectRedis();
  });
  afterAll(() => redis?.disconnect());

  it('shares counters between instances that use the same Redis', async (ctx) => {
    if (!requireRedis(redis, ctx)) return;
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

  it('keeps serving and limiting, in memory, from the moment its Redis connection dies', async (ctx) => {
    if (!requireRedis(redis, ctx)) return;
    const dying = await connectRedis();
    if (!dying) throw new Error('a second Redis connection failed');
    const request = await limited({}, { redis: dying, rateLimitKeyPrefix: `kb-rl-test-${randomUUID()}` });
    expectHeaders(await request({ url: '/api/v1/users/me', token: ann.token }), MAX - 1);
    dying.disconnect();
    const started = performance.now();
    for (let i = 0; i < MAX; i++) {
      const res = await request({ url: '/api/v1/users/me', token: ann.token });
      expect(res.status).toBe(200);
      expectHeaders(res, MAX - 1 - i);
    }
    expect429(await request({ url: '/api/v1/users/me', token: ann.token }));
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('starts and serves with a Redis that never answers (a dead port), whatever the client options', async () => {
    for (const options of [{ enableOfflineQueue: false, maxRetriesPerRequest: 1 }, {}]) {
      const dead = new Redis({ host: '127.0.0.1', port: 1, lazyConnect: true, connectTimeout: 200, retryStrategy: () => 50, ...options });
      dead.on('error', () => {});
      try {
        const request = await limited({}, { redis: dead, rateLimitKeyPrefix: `kb-rl-test-${randomUUID()}` });
        const started = performance.now();
        for (let i = 0; i < MAX; i++) expect((await request({ url: '/api/v1/users/me', token: bob.token })).status).toBe(200);
        expect429(await request({ url: '/api/v1/users/me', token: bob.token }));
        // Waiting on a Redis that never answers would take seconds per request (the client's retries); the memory fallback takes none.
        expect(performance.now() - started).toBeLessThan(5000);
        expect(
          (await request({ method: 'POST', url: '/api/v1/auth/login', remoteAddress: '10.3.0.1', body: { email: bob.email, password: 'correct-horse' } }))
            .status,
        ).toBe(200);
      } finally {
        dead.disconnect();
      }
    }
  });
});

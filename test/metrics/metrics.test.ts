import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimNext, enqueue, failJob } from '../../src/jobs/queue.js';
import { createTestApp, siblingApp, type TestApp } from '../helpers/app.js';
import { createUser, createWorkspace, type TestUser } from '../helpers/factories.js';
import { createSpace, newPage } from '../pages/helpers.js';
import { connect, eventually } from '../collab/helpers.js';
import { METRICS_TOKEN, parseMetrics, scrape, sampleValue } from './helpers.js';

/** GET /api/metrics over HTTP against a real database: who may read it, and what the numbers say after real requests. */
let t: TestApp;
let user: TestUser;
let workspaceId: string;
const others: FastifyInstance[] = [];

beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN });
  user = await createUser(t, 'Metrics');
  workspaceId = (await createWorkspace(t, user)).id;
});

afterAll(async () => {
  for (const app of others) await app.close();
  await t.close();
});

async function sibling(overrides: Parameters<typeof siblingApp>[2]) {
  const s = await siblingApp(t, {}, overrides);
  others.push(s.app);
  return s;
}

describe('who may read the metrics', () => {
  it('answers 401 in the error shape without the token, with a wrong one or a malformed header', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong-token-wrong-token-00' },
      { authorization: `Bearer ${METRICS_TOKEN}x` },
      { authorization: METRICS_TOKEN },
    ];
    for (const headers of attempts) {
      const res = await t.request({ url: '/api/metrics', headers });
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ code: 'UNAUTHORIZED', details: {} });
      expect(res.raw.body).not.toContain('kb_http_request_duration_seconds');
    }
    // A user's own credential is not the metrics token either.
    const asUser = await t.request({ url: '/api/metrics', token: user.token });
    expect(asUser.status).toBe(401);
  });

  it('limits wrong tokens per address (429 past AUTH_RATE_LIMIT_MAX, before the token is compared); the right one elsewhere still reads', async () => {
    const limited = await sibling({ AUTH_RATE_LIMIT_MAX: 3 });
    const guess = (authorization: string, remoteAddress = '10.3.3.3') => limited.request({ url: '/api/metrics', headers: { authorization }, remoteAddress });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await guess(`Bearer guess-${i}-guess-guess-guess`)).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    // Even the right token is refused from that address now: a guess can no longer be told right from wrong.
    const blocked = await guess(`Bearer ${METRICS_TOKEN}`);
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe('RATE_LIMITED');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.raw.body).not.toContain('kb_http_request_duration_seconds');
    // A scraper with the token, from its own address, is never limited: many reads in a row.
    for (let i = 0; i < 5; i++) expect((await guess(`Bearer ${METRICS_TOKEN}`, '10.3.3.4')).status).toBe(200);
    const samples = await scrape((opts) => limited.request({ ...opts, remoteAddress: '10.3.3.4' }));
    expect(sampleValue(samples, 'kb_rate_limit_refusals_total', { limiter: 'metrics' })).toBe(3);
  });

  it('answers the Prometheus text format with the token', async () => {
    const res = await t.request({ url: '/api/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.raw.body).toContain('# TYPE kb_http_request_duration_seconds histogram');
    expect(res.raw.body).toContain('# TYPE kb_rate_limit_refusals_total counter');
    const samples = parseMetrics(res.raw.body);
    expect(sampleValue(samples, 'kb_build_info', { database: t.database.kind })).toBe(1);
    // Node.js process metrics ride along on the app's own registry.
    expect(sampleValue(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
  });

  it('is off (404 in the error shape) when METRICS_TOKEN is unset, whatever is sent', async () => {
    const off = await sibling({ METRICS_TOKEN: undefined });
    for (const headers of [{}, { authorization: `Bearer ${METRICS_TOKEN}` }] as Record<string, string>[]) {
      const res = await off.request({ url: '/api/metrics', headers });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
  });

  it('is listed in the OpenAPI document beside the health routes', async () => {
    const res = await t.request({ url: '/api/openapi.json' });
    expect(res.body.paths['/api/metrics'].get.tags).toEqual(['health']);
    expect(res.body.paths['/api/health/ready'].get.tags).toEqual(['health']);
    expect(res.body.paths['/api/health'].get.tags).toEqual(['health']);
  });
});

describe('request durations', () => {
  it('counts requests by route pattern and status, never by raw URL, and leaves the scrapes out', async () => {
    const before = await scrape(t.request);
    const pattern = { method: 'GET', route: '/api/v1/workspaces/:workspaceId' };
    const count = (samples: typeof before, status: string, route = pattern.route) =>
      sampleValue(samples, 'kb_http_request_duration_seconds_count', { ...pattern, route, status_code: status }) ?? 0;
    for (let i = 0; i < 3; i++) expect((await t.request({ url: `/api/v1/workspaces/${workspaceId}`, token: user.token })).status).toBe(200);
    expect((await t.request({ url: '/api/v1/workspaces/no-such-workspace', token: user.token })).status).toBe(404);
    expect((await t.request({ url: `/api/v1/workspaces/${workspaceId}` })).status).toBe(401);
    expect((await t.request({ url: '/api/no/such/route/at-all' })).status).toBe(404);

    const text = (await t.request({ url: '/api/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).raw.body;
    const after = parseMetrics(text);
    expect(count(after, '200') - count(before, '200')).toBe(3);
    expect(count(after, '404') - count(before, '404')).toBe(1);
    expect(count(after, '401') - count(before, '401')).toBe(1);
    expect(count(after, '404', 'unmatched') - count(before, '404', 'unmatched')).toBe(1);
    // Buckets are cumulative and end at +Inf, which holds every request.
    const inf = sampleValue(after, 'kb_http_request_duration_seconds_bucket', { ...pattern, status_code: '200', le: '+Inf' });
    expect(inf).toBe(count(after, '200'));
    expect(sampleValue(after, 'kb_http_request_duration_seconds_sum', { ...pattern, status_code: '200' })).toBeGreaterThan(0);
    // No id in any label, and the metrics route is not timed.
    expect(text).not.toContain(workspaceId);
    expect(text).not.toContain('no-such-workspace');
    expect(text).not.toContain('/api/no/such');
    expect(after.some((s) => s.labels.route === '/api/metrics')).toBe(false);
  });
});

describe('rate limiting', () => {
  it('counts 429s by limiter, and neither the metrics nor the readiness probe is ever refused', async () => {
    const tight = await sibling({ RATE_LIMIT_MAX: 5, AUTH_RATE_LIMIT_MAX: 2 });
    const remoteAddress = '10.9.8.7';
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await tight.request({ url: '/api/v1/users/me', remoteAddress })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    // Login attempts from another address: the auth throttle refuses the third.
    const login = { method: 'POST' as const, url: '/api/v1/auth/login', body: { email: user.email, password: 'wrong-password' }, remoteAddress: '10.9.8.8' };
    expect([(await tight.request(login)).status, (await tight.request(login)).status, (await tight.request(login)).status]).toEqual([401, 401, 429]);

    for (let i = 0; i < 12; i++) {
      const ready = await tight.request({ url: '/api/health/ready', remoteAddress });
      expect(ready.status).toBe(200);
      expect(ready.headers['x-ratelimit-remaining']).toBeUndefined();
    }
    const res = await tight.request({ url: '/api/metrics', remoteAddress, headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    const samples = parseMetrics(res.raw.body);
    expect(sampleValue(samples, 'kb_rate_limit_refusals_total', { limiter: 'api' })).toBe(2);
    expect(sampleValue(samples, 'kb_rate_limit_refusals_total', { limiter: 'auth' })).toBe(1);
    expect(sampleValue(samples, 'kb_http_request_duration_seconds_count', { route: '/api/v1/users/me', status_code: '429' })).toBe(2);
    expect(sampleValue(samples, 'kb_http_request_duration_seconds_count', { route: '/api/health/ready', status_code: '200' })).toBe(12);
    // The main app's counters are its own.
    expect(sampleValue(await scrape(t.request), 'kb_rate_limit_refusals_total', { limiter: 'api' })).toBe(0);
  });
});

describe('job queue', () => {
  it('shows ready jobs by kind with the age of the oldest, leaves future ones out, and shows running ones', async () => {
    const db = t.database.db;
    await enqueue(db, { kind: 'metrics.waiting', runAt: new Date(Date.now() - 90_000) });
    await enqueue(db, { kind: 'metrics.waiting' });
    await enqueue(db, { kind: 'metrics.waiting', runAt: new Date(Date.now() + 3600_000) });
    await enqueue(db, { kind: 'metrics.later', runAt: new Date(Date.now() + 3600_000) });
    const samples = await scrape(t.request);
    expect(sampleValue(samples, 'kb_jobs_queued', { kind: 'metrics.waiting' })).toBe(2);
    const age = sampleValue(samples, 'kb_jobs_oldest_queued_age_seconds', { kind: 'metrics.waiting' }) ?? 0;
    expect(age).toBeGreaterThanOrEqual(89);
    expect(age).toBeLessThan(600);
    expect(sampleValue(samples, 'kb_jobs_queued', { kind: 'metrics.later' })).toBeUndefined();

    const claimed = await claimNext(db, 'metrics-test-worker', ['metrics.waiting'], 60_000);
    expect(claimed).not.toBeNull();
    const next = await scrape(t.request);
    expect(sampleValue(next, 'kb_jobs_queued', { kind: 'metrics.waiting' })).toBe(1);
    expect(sampleValue(next, 'kb_jobs_running', { kind: 'metrics.waiting' })).toBe(1);
    // The oldest one was claimed: the one left became runnable just now.
    expect(sampleValue(next, 'kb_jobs_oldest_queued_age_seconds', { kind: 'metrics.waiting' })).toBeLessThan(60);
  });

  it('shows jobs failed for good in the last hour, not those that will be retried, and keeps a drained kind at 0', async () => {
    const db = t.database.db;
    await enqueue(db, { kind: 'metrics.failing', maxAttempts: 1 });
    await enqueue(db, { kind: 'metrics.failing', maxAttempts: 3 });
    const first = await claimNext(db, 'metrics-test-worker', ['metrics.failing'], 60_000);
    const second = await claimNext(db, 'metrics-test-worker', ['metrics.failing'], 60_000);
    const outcomes = [
      await failJob(db, first!, 'metrics-test-worker', 'boom', true),
      await failJob(db, second!, 'metrics-test-worker', 'boom', true, 3600_000),
    ];
    expect(outcomes.sort()).toEqual(['failed', 'retry']);
    const samples = await scrape(t.request);
    expect(sampleValue(samples, 'kb_jobs_failed_last_hour', { kind: 'metrics.failing' })).toBe(1);
    expect(sampleValue(samples, 'kb_jobs_queued', { kind: 'metrics.failing' })).toBe(0); // the retry waits an hour
    expect(sampleValue(samples, 'kb_jobs_running', { kind: 'metrics.failing' })).toBe(0);
  });
});

describe('database pool', () => {
  it('reports the pool of this database: one connection over PGlite, the pool size on PostgreSQL', async () => {
    const samples = await scrape(t.request);
    const max = sampleValue(samples, 'kb_db_pool_max');
    expect(max).toBe(t.database.kind === 'pglite' ? 1 : 5);
    const total = sampleValue(samples, 'kb_db_pool_total') ?? 0;
    expect(total).toBeGreaterThanOrEqual(1);
    expect(total).toBeLessThanOrEqual(max!);
    expect(sampleValue(samples, 'kb_db_pool_idle')).toBeLessThanOrEqual(total);
    expect(sampleValue(samples, 'kb_db_pool_waiting')).toBe(0);
  });
});

describe('co-editing', () => {
  it('counts open connections and live documents on this instance', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const space = await createSpace(t, user, workspaceId, { name: 'Live' });
    const page = await newPage(t, user, workspaceId, space.id, { title: 'Watched' });
    expect(sampleValue(await scrape(t.request), 'kb_collab_connections')).toBe(0);
    const client = connect(base, page.id, user.token);
    try {
      await client.synced;
      const samples = await scrape(t.request);
      expect(sampleValue(samples, 'kb_collab_connections')).toBe(1);
      expect(sampleValue(samples, 'kb_collab_documents')).toBe(1);
    } finally {
      client.destroy();
    }
    await eventually('the connection to close', async () => sampleValue(await scrape(t.request), 'kb_collab_connections') === 0);
  });
});

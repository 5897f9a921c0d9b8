import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JourneyAction, MemoryJourneyStore, RedisJourneyStore, SESSION_GAP_MS } from '../../src/http/journey.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { workspaceWithRoles } from '../helpers/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const action = (n: number, at: number): JourneyAction => ({
  id: `r${n}`,
  source: 'api',
  summary: `GET /api/x → 200`,
  timestamp: new Date(at).toISOString(),
  method: 'GET',
  route: '/api/x',
  status: 200,
});

describe('user journey on user-made reports', () => {
  it("attaches the caller's recent requests (newest first, route patterns, statuses) and the session start", async () => {
    const { workspace, admin, editor } = await workspaceWithRoles(t);
    const started = Date.now();
    await t.request({ url: `/api/v1/workspaces/${workspace.id}`, token: admin.token });
    await t.request({ url: '/api/workspaces/no-such-workspace', token: admin.token });
    await t.request({ method: 'POST', url: '/api/bug-reports/list', token: admin.token, body: { workspaceId: workspace.id } });
    await t.request({ url: '/api/health' });
    const others = await t.request({ url: `/api/v1/workspaces/${workspace.id}/members`, token: editor.token }); // someone else's journey
    const created = await t.request({
      method: 'POST',
      url: '/api/bug-reports/create',
      token: admin.token,
      body: { title: 'Members page is blank', source: 'user:command', workspaceId: workspace.id },
    });
    expect(created.status).toBe(201);
    const journey = created.body.data.userJourney;
    const recent = journey.recentActions.slice(0, 3);
    expect(recent.map((a: JourneyAction) => a.summary)).toEqual([
      'POST /api/bug-reports/list → 200',
      'GET /api/workspaces/:workspaceId → 404',
      'GET /api/v1/workspaces/:workspaceId → 200',
    ]);
    for (const a of recent) {
      expect(Object.keys(a).sort()).toEqual(['id', 'method', 'route', 'source', 'status', 'summary', 'timestamp']);
      expect(a.source).toBe('api');
      expect(JSON.stringify(a)).not.toContain(workspace.id); // patterns, not ids
    }
    expect(journey.recentActions.some((a: JourneyAction) => a.id === others.headers['x-request-id'])).toBe(false);
    expect(journey.recentActions.some((a: JourneyAction) => a.route === '/api/health')).toBe(false);
    expect(Date.parse(journey.sessionStartedAt)).toBeLessThanOrEqual(Date.parse(recent[2].timestamp));
    expect(Date.parse(journey.sessionStartedAt)).toBeGreaterThan(started - 120_000);
    // Stored on the report: read back through get.
    const got = await t.request({ method: 'POST', url: '/api/bug-reports/get', token: admin.token, body: { bugReportId: created.body.data.id } });
    expect(got.body.data.userJourney).toEqual(journey);
  });

  it('keeps the last 20 actions', async () => {
    const { workspace, admin } = await workspaceWithRoles(t);
    for (let i = 0; i < 25; i++) await t.request({ url: `/api/v1/workspaces/${workspace.id}`, token: admin.token });
    const created = await t.request({
      method: 'POST',
      url: '/api/bug-reports/create',
      token: admin.token,
      body: { title: 'x', source: 'user:command', workspaceId: workspace.id },
    });
    expect(created.body.data.userJourney.recentActions).toHaveLength(20);
    const auto = await t.request({ method: 'POST', url: '/api/bug-reports/auto', token: admin.token, body: { source: 'auto:client', errorMessage: 'e' } });
    const full = await t.request({ method: 'POST', url: '/api/bug-reports/get', token: admin.token, body: { bugReportId: auto.body.data.id } });
    expect(full.body.data.userJourney).toBeNull();
  });
});

describe('journey stores', () => {
  it('memory: last 20 per user, a new session after a 30-minute pause, least recently active user forgotten first', async () => {
    const store = new MemoryJourneyStore(2);
    const t0 = Date.parse('2024-05-01T10:00:00Z');
    for (let i = 0; i < 22; i++) await store.record('u1', action(i, t0 + i * 1000));
    let j = await store.recent('u1');
    expect(j.recentActions).toHaveLength(20);
    expect(j.recentActions[0].id).toBe('r21');
    expect(j.sessionStartedAt).toBe(new Date(t0).toISOString());
    await store.record('u1', action(99, t0 + 21_000 + SESSION_GAP_MS + 1));
    j = await store.recent('u1');
    expect(j.sessionStartedAt).toBe(new Date(t0 + 21_000 + SESSION_GAP_MS + 1).toISOString());
    await store.record('u2', action(1, t0));
    await store.record('u1', action(100, t0 + 2 * SESSION_GAP_MS));
    await store.record('u3', action(1, t0));
    expect((await store.recent('u2')).recentActions).toEqual([]);
    expect((await store.recent('u1')).recentActions).toHaveLength(20);
    expect(await store.recent('nobody')).toEqual({ recentActions: [], sessionStartedAt: null });
  });

  it('Redis: a capped list per user with a TTL, shared by two stores', async (ctx) => {
    const redis = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 1000 });
    try {
      await redis.connect();
      await redis.ping();
    } catch {
      redis.disconnect();
      return ctx.skip();
    }
    const prefix = `kb-journey-test-${process.pid}-${Date.now()}`;
    try {
      const one = new RedisJourneyStore(redis, prefix);
      const two = new RedisJourneyStore(redis, prefix);
      const t0 = Date.now();
      for (let i = 0; i < 23; i++) await (i % 2 ? one : two).record('u1', action(i, t0 + i));
      const j = await two.recent('u1');
      expect(j.recentActions).toHaveLength(20);
      expect(j.recentActions[0].id).toBe('r22');
      expect(j.sessionStartedAt).toBe(new Date(t0).toISOString());
      expect(await redis.llen(`${prefix}:u1`)).toBe(20);
      const ttl = await redis.ttl(`${prefix}:u1`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(24 * 3600);
      // Redis gone: the store answers from memory instead of failing.
      const broken = new Redis({ host: '127.0.0.1', port: 1, lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
      const fallback = new RedisJourneyStore(broken, prefix);
      await fallback.record('u9', action(1, t0));
      expect((await fallback.recent('u9')).recentActions.map((a) => a.id)).toEqual(['r1']);
      broken.disconnect();
    } finally {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    }
  });
});

import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainEvent, EventSubjectType, EventType } from '../../src/areas/events/events.record.js';
import { recordEvents } from '../../src/areas/events/events.record.js';
import { fanOutNotifications } from '../../src/areas/notifications/notifications.fanout.js';
import { createTestApp, siblingApp, type TestApp } from '../helpers/app.js';
import { type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { connectRedis, requireRedis } from '../helpers/redis.js';
import { readSse, type SseEvent } from '../helpers/sse.js';
import { createSpace, newPage } from '../pages/helpers.js';
import { dispatch, pageEvent, recordAndDispatch, unreadCountOf } from './helpers.js';

/**
 * The live stream over a real socket: the app listens on a port and a plain fetch reads the Server-Sent Events, as a
 * browser's EventSource would.
 */

/** Opens the stream and collects its events; `next` waits for the first event (after those already taken) that matches. */
async function openStream(base: string, token: string, query = '', headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/v1/notifications/stream${query}`, {
    headers: { authorization: `Bearer ${token}`, ...headers },
    signal: controller.signal,
  });
  const events: SseEvent[] = [];
  let taken = 0;
  let wake = null as (() => void) | null;
  let ended = false;
  const done = (async () => {
    await readSse(res.body, (event) => {
      events.push(event);
      wake?.();
    });
    ended = true;
    wake?.();
  })();
  return {
    res,
    events,
    done,
    get ended() {
      return ended;
    },
    async next(match: (e: SseEvent) => boolean, timeoutMs = 5000): Promise<SseEvent> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        for (; taken < events.length; taken++) if (match(events[taken])) return events[taken++];
        if (ended) throw new Error(`stream ended; events: ${JSON.stringify(events)}`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`timed out; events: ${JSON.stringify(events)}`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, Math.min(left, 50));
        });
      }
    },
    close: () => controller.abort(),
  };
}

const isNotification = (title: string) => (e: SseEvent) => e.event === 'notification' && e.data.subject.title === title;
const isCount = (count: number) => (e: SseEvent) => e.event === 'count' && e.data.count === count;

let t: TestApp;
let base: string;
let ws: string;
let admin: TestUser;
let viewer: TestUser;
let page: { id: string; spaceId: string };

beforeAll(async () => {
  // No fallback poll here (an hour): what arrives, arrives live.
  t = await createTestApp({ NOTIFY_STREAM_POLL_MS: 3_600_000 });
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  ({
    workspace: { id: ws },
    admin,
    viewer,
  } = await workspaceWithRoles(t));
  const space = await createSpace(t, admin, ws);
  page = { id: (await newPage(t, admin, ws, space.id, { title: 'Live' })).id, spaceId: space.id };
  await dispatch(t);
});
afterAll(async () => {
  await t?.close();
});

describe('the stream', () => {
  it('answers an event stream that starts with the count, then delivers a new notification live and count changes', async () => {
    const before = await unreadCountOf(t, viewer);
    const stream = await openStream(base, viewer.token);
    try {
      expect(stream.res.status).toBe(200);
      expect(stream.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(stream.res.headers.get('cache-control')).toMatch(/no-cache/);
      expect(stream.res.headers.get('x-accel-buffering')).toBe('no');
      expect(stream.res.headers.get('x-request-id')).toBeTruthy();
      await stream.next(isCount(before));

      await recordAndDispatch(t, admin, [pageEvent(ws, { ...page, title: 'Hello live' }, 'page.updated', { mentionedUserIds: [viewer.id] })]);
      const live = await stream.next(isNotification('Hello live'));
      expect(live.data).toMatchObject({ kind: 'mention', workspaceId: ws, actor: { id: admin.id }, pageId: page.id, readAt: null });
      expect(live.id).toBe(live.data.id);
      await stream.next(isCount(before + 1));

      // Read elsewhere (another tab, the API): the count follows.
      const read = await t.request({ method: 'POST', url: `/api/v1/notifications/${live.data.id}/read`, token: viewer.token });
      expect(read.status).toBe(200);
      await stream.next(isCount(before));
    } finally {
      stream.close();
    }
  });

  it('carries only the caller’s own notifications, and of the workspace asked for', async () => {
    const mine = await openStream(base, admin.token);
    const otherWorkspace = await openStream(base, viewer.token, '?workspaceId=does-not-matter');
    expect(otherWorkspace.res.status).toBe(404);
    otherWorkspace.close();
    try {
      await mine.next((e) => e.event === 'count');
      await recordAndDispatch(t, admin, [pageEvent(ws, { ...page, title: 'Not for admin' }, 'page.updated', { mentionedUserIds: [viewer.id] })]);
      await recordAndDispatch(t, viewer, [pageEvent(ws, { ...page, title: 'For admin' }, 'page.updated', { mentionedUserIds: [admin.id] })]);
      await mine.next(isNotification('For admin'));
      expect(mine.events.some((e) => e.event === 'notification' && e.data.subject.title === 'Not for admin')).toBe(false);
    } finally {
      mine.close();
    }
  });

  it('catches a reconnecting client up from its Last-Event-ID', async () => {
    const first = await openStream(base, viewer.token);
    await first.next((e) => e.event === 'count');
    await recordAndDispatch(t, admin, [pageEvent(ws, { ...page, title: 'Before the drop' }, 'comment.created', { mentionedUserIds: [viewer.id] })]);
    const last = await first.next(isNotification('Before the drop'));
    first.close();
    await recordAndDispatch(t, admin, [pageEvent(ws, { ...page, title: 'While away' }, 'comment.created', { mentionedUserIds: [viewer.id] })]);
    const again = await openStream(base, viewer.token, '', { 'last-event-id': last.id as string });
    try {
      await again.next(isNotification('While away'));
      expect(again.events.some(isNotification('Before the drop'))).toBe(false);
    } finally {
      again.close();
    }
  });

  it('works with the browser session cookie, as EventSource sends it', async () => {
    const opened = await t.request({ method: 'POST', url: '/api/v1/auth/session', body: { email: viewer.email, password: 'correct-horse' } });
    expect(opened.status).toBe(200);
    const cookie = /^kb_session=([^;]+)/.exec(String(opened.headers['set-cookie']))?.[1] as string;
    const controller = new AbortController();
    const res = await fetch(`${base}/api/v1/notifications/stream`, { headers: { cookie: `kb_session=${cookie}` }, signal: controller.signal });
    try {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    } finally {
      controller.abort();
    }
  });

  it('refuses a caller without credentials', async () => {
    const res = await fetch(`${base}/api/v1/notifications/stream`);
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBe('UNAUTHORIZED');
  });

  it('lets go of a stream when its client disconnects', async () => {
    const stream = await openStream(base, viewer.token);
    await stream.next((e) => e.event === 'count');
    expect(t.app.notificationHub.openStreams).toBe(1);
    stream.close();
    for (let i = 0; i < 100 && t.app.notificationHub.openStreams > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(t.app.notificationHub.openStreams).toBe(0);
  });
});

describe('another instance', () => {
  let sibling: { app: FastifyInstance; request: TestApp['request'] };
  let siblingBase: string;
  beforeAll(async () => {
    sibling = await siblingApp(t, {}, { NOTIFY_STREAM_POLL_MS: 200 });
    siblingBase = await sibling.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await sibling?.app.close();
  });

  it('finds by its poll a notification nobody published', async () => {
    const stream = await openStream(siblingBase, viewer.token);
    try {
      await stream.next((e) => e.event === 'count');
      // Fanned out without the dispatcher's after-commit publish (as by a worker process with no Redis).
      await recordEvents(t.database.db, { actor: { userId: admin.id, via: 'jwt', apiKeyId: null } }, [
        pageEvent(ws, { ...page, title: 'Found by polling' }, 'comment.created', { mentionedUserIds: [viewer.id] }),
      ]);
      const rows = await t.database.db.selectFrom('domainEvents').selectAll().where('dispatchedAt', 'is', null).execute();
      const events: DomainEvent[] = rows.map((r) => ({
        ...r,
        type: r.type as EventType,
        subjectType: r.subjectType as EventSubjectType,
        data: r.data as Record<string, unknown>,
      }));
      expect(await fanOutNotifications(t.database.db, events)).toHaveLength(1);
      const found = await stream.next(isNotification('Found by polling'));
      expect(found.data.kind).toBe('mention');
      await dispatch(t); // the event is stamped; nothing is made twice
      expect(stream.events.filter(isNotification('Found by polling'))).toHaveLength(1);
    } finally {
      stream.close();
    }
  });

  it('counts the long-lived request once against the rate limit', async () => {
    const stream = await openStream(siblingBase, viewer.token);
    try {
      const remaining = Number(stream.res.headers.get('x-ratelimit-remaining'));
      expect(remaining).toBeGreaterThan(0);
      await stream.next((e) => e.event === 'count');
      await new Promise((r) => setTimeout(r, 700)); // several polls
      const after = await sibling.request({ url: '/api/v1/notifications/unread-count', token: viewer.token });
      expect(Number(after.headers['x-ratelimit-remaining'])).toBe(remaining - 1);
    } finally {
      stream.close();
    }
  });

  it('ends a stream whose session is signed out', async () => {
    const login = await sibling.request({ method: 'POST', url: '/api/v1/auth/login', body: { email: viewer.email, password: 'correct-horse' } });
    expect(login.status).toBe(200);
    const token = login.body.data.token as string;
    const stream = await openStream(siblingBase, token);
    await stream.next((e) => e.event === 'count');
    expect((await sibling.request({ method: 'DELETE', url: '/api/v1/auth/session', token })).status).toBe(200);
    await stream.done;
    expect(stream.ended).toBe(true);
  });

  it('ends open streams when the server closes', async () => {
    const closing = await siblingApp(t, {}, { NOTIFY_STREAM_POLL_MS: 200 });
    const closingBase = await closing.app.listen({ host: '127.0.0.1', port: 0 });
    const stream = await openStream(closingBase, viewer.token);
    await stream.next((e) => e.event === 'count');
    const started = Date.now();
    await closing.app.close();
    await stream.done;
    expect(stream.ended).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('across instances through Redis', () => {
  let redis: Redis | undefined;
  const apps: FastifyInstance[] = [];
  beforeAll(async () => {
    redis = await connectRedis();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    redis?.disconnect();
  });

  it('a notification published on one instance reaches a stream open on another', async (ctx) => {
    if (!requireRedis(redis, ctx)) return;
    // Two instances on one database and one Redis, neither polling: only Redis can carry the message.
    const prefix = `kb-test-${process.pid}-${Date.now()}`;
    const one = await siblingApp(t, { redis, rateLimitKeyPrefix: prefix }, { NOTIFY_STREAM_POLL_MS: 3_600_000 });
    const two = await siblingApp(t, { redis, rateLimitKeyPrefix: prefix }, { NOTIFY_STREAM_POLL_MS: 3_600_000 });
    apps.push(one.app, two.app);
    await one.app.notificationHub.ready();
    await two.app.notificationHub.ready();
    const twoBase = await two.app.listen({ host: '127.0.0.1', port: 0 });
    const stream = await openStream(twoBase, viewer.token);
    try {
      await stream.next((e) => e.event === 'count');
      expect(one.app.notificationHub.sharesThroughRedis).toBe(true);
      // Instance one publishes (through Redis only: a hub with Redis never delivers to its own process directly).
      await one.app.notificationHub.publish([
        {
          type: 'notification',
          userId: viewer.id,
          notification: {
            id: 'redis-1',
            kind: 'mention',
            workspaceId: ws,
            eventType: 'page.updated',
            actor: null,
            subject: { type: 'page', id: page.id, title: 'Through Redis' },
            pageId: page.id,
            spaceId: page.spaceId,
            readAt: null,
            createdAt: new Date().toISOString(),
          },
        },
      ]);
      await stream.next(isNotification('Through Redis'));
      // And the real flow: the dispatcher's after-commit publish goes through Redis as well.
      await recordAndDispatch(t, admin, [pageEvent(ws, { ...page, title: 'Dispatched through Redis' }, 'comment.created', { mentionedUserIds: [viewer.id] })]);
      await stream.next(isNotification('Dispatched through Redis'));
    } finally {
      stream.close();
    }
  });
});

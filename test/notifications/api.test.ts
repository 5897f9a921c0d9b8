import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addMember, createUser, createWorkspace, type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { addSpaceMembers, createSpace, newPage } from '../pages/helpers.js';
import { dispatch, notificationsOf, pageEvent, recordAndDispatch, unreadCountOf } from './helpers.js';

/** The notifications API over HTTP and MCP: the list and its order, the count, marking read, preferences, watching. */

let t: TestApp;
let ws: string;
let otherWs: string;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;
let outsider: TestUser;
let page: { id: string; spaceId: string };
let privateSpace: { id: string };

beforeAll(async () => {
  t = await createTestApp();
  ({
    workspace: { id: ws },
    admin,
    editor,
    viewer,
    outsider,
  } = await workspaceWithRoles(t));
  const space = await createSpace(t, admin, ws, { name: 'Docs' });
  privateSpace = await createSpace(t, admin, ws, { name: 'Board', visibility: 'private' });
  await addSpaceMembers(t, admin, ws, privateSpace.id, { userIds: [viewer.id], role: 'viewer' });
  const p = await newPage(t, admin, ws, space.id, { title: 'Handbook' });
  page = { id: p.id, spaceId: space.id };
  await dispatch(t);
  // Five mentions of the editor here, one at a time (so their order is their time), and one in another workspace.
  for (const title of ['N1', 'N2', 'N3', 'N4', 'N5'])
    await recordAndDispatch(t, admin, [
      { ...pageEvent(ws, { ...page, title }, 'comment.created', { mentionedUserIds: [editor.id] }), subject: { type: 'comment', id: `comment-${title}` } },
    ]);
  const stranger = await createUser(t, 'Stranger');
  otherWs = (await createWorkspace(t, stranger, 'Elsewhere')).id;
  await addMember(t, otherWs, stranger, editor, 'viewer');
  await recordAndDispatch(t, stranger, [
    { workspaceId: otherWs, type: 'task.assigned', subject: { type: 'task', id: 'x' }, data: { title: 'Other', assigneeId: editor.id } },
  ]);
});
afterAll(async () => {
  await t?.close();
});

const titles = (list: Array<{ subject: { title: string } }>) => list.map((n) => n.subject.title);

describe('list, count, mark read', () => {
  it('lists unread first, then newest, paged by cursor; meta carries the unread count', async () => {
    const all = await notificationsOf(t, editor, { workspaceId: ws });
    expect(titles(all)).toEqual(['N5', 'N4', 'N3', 'N2', 'N1']);
    const n2 = all.find((n) => n.subject.title === 'N2')!;
    const read = await t.request({ method: 'POST', url: `/api/v1/notifications/${n2.id}/read`, token: editor.token });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: n2.id, kind: 'mention', readAt: expect.any(String) });
    // Again: still read, at the first time.
    const again = await t.request({ method: 'POST', url: `/api/v1/notifications/${n2.id}/read`, token: editor.token });
    expect(again.body.data.readAt).toBe(read.body.data.readAt);

    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 5; i++) {
      const res = await t.request({ url: '/api/v1/notifications', token: editor.token, query: { workspaceId: ws, limit: '2', ...(cursor ? { cursor } : {}) } });
      expect(res.status).toBe(200);
      expect(res.body.meta).toMatchObject({ limit: 2, unreadCount: 4 });
      seen.push(...titles(res.body.data));
      cursor = res.body.meta.nextCursor ?? undefined;
      expect(res.body.meta.hasMore).toBe(!!cursor);
      if (!cursor) break;
    }
    expect(seen).toEqual(['N5', 'N4', 'N3', 'N1', 'N2']);
    expect(titles(await notificationsOf(t, editor, { workspaceId: ws, unread: 'true' }))).toEqual(['N5', 'N4', 'N3', 'N1']);
    // Every workspace by default.
    expect(titles(await notificationsOf(t, editor))).toContain('Other');
  });

  it('refuses a bad cursor, limit or flag with 400, and a workspace the caller is not in', async () => {
    const queries: Array<Record<string, string>> = [{ cursor: 'nope' }, { limit: 'abc' }, { limit: '0' }, { unread: 'maybe' }];
    for (const query of queries) {
      const res = await t.request({ url: '/api/v1/notifications', token: editor.token, query });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.error.code).toBe('INVALID_PARAMETER');
    }
    const foreign = await t.request({ url: '/api/v1/notifications', token: outsider.token, query: { workspaceId: ws } });
    expect([403, 404]).toContain(foreign.status);
    expect((await t.request({ url: '/api/v1/notifications' })).status).toBe(401);
  });

  it('counts unread notifications, of one workspace or all', async () => {
    expect(await unreadCountOf(t, editor, ws)).toBe(4);
    expect(await unreadCountOf(t, editor, otherWs)).toBe(1);
    expect(await unreadCountOf(t, editor)).toBe(5);
    expect(await unreadCountOf(t, outsider)).toBe(0);
  });

  it('nobody reads or marks another person’s notification', async () => {
    const [mine] = await notificationsOf(t, editor, { workspaceId: ws });
    for (const user of [admin, viewer]) {
      const res = await t.request({ method: 'POST', url: `/api/v1/notifications/${mine.id}/read`, token: user.token });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    expect((await t.request({ method: 'POST', url: '/api/v1/notifications/no-such-id/read', token: editor.token })).status).toBe(404);
    expect((await notificationsOf(t, editor, { workspaceId: ws }))[0].readAt).toBeNull();
  });

  it('marks all read, in one workspace or everywhere', async () => {
    const one = await t.request({ method: 'POST', url: '/api/v1/notifications/read-all', token: editor.token, body: { workspaceId: ws } });
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual({ updated: 4 });
    expect(await unreadCountOf(t, editor, ws)).toBe(0);
    expect(await unreadCountOf(t, editor)).toBe(1);
    const rest = await t.request({ method: 'POST', url: '/api/v1/notifications/read-all', token: editor.token, body: {} });
    expect(rest.body.data).toEqual({ updated: 1 });
    expect(await unreadCountOf(t, editor)).toBe(0);
    expect((await notificationsOf(t, editor)).every((n) => n.readAt !== null)).toBe(true);
  });
});

describe('preferences', () => {
  it('answers the defaults, changes only what is sent, and refuses what is not a preference', async () => {
    const get = await t.request({ url: '/api/v1/notifications/preferences', token: viewer.token });
    expect(get.status).toBe(200);
    expect(get.body.data).toEqual({
      kinds: {
        mention: { inApp: true, email: true },
        reply: { inApp: true, email: false },
        assigned: { inApp: true, email: true },
        watch: { inApp: true, email: false },
      },
    });
    const put = await t.request({
      method: 'PUT',
      url: '/api/v1/notifications/preferences',
      token: viewer.token,
      body: { kinds: { mention: { email: false }, watch: { inApp: false, email: true } } },
    });
    expect(put.status).toBe(200);
    expect(put.body.data.kinds).toMatchObject({
      mention: { inApp: true, email: false },
      watch: { inApp: false, email: true },
      reply: { inApp: true, email: false },
    });
    expect((await t.request({ url: '/api/v1/notifications/preferences', token: viewer.token })).body.data).toEqual(put.body.data);
    // Someone else's preferences are their own.
    expect((await t.request({ url: '/api/v1/notifications/preferences', token: editor.token })).body.data.kinds.mention.email).toBe(true);
    for (const body of [{ kinds: { gossip: { inApp: true } } }, { kinds: { mention: { inApp: 'yes' } } }, {}]) {
      const bad = await t.request({ method: 'PUT', url: '/api/v1/notifications/preferences', token: viewer.token, body });
      expect(bad.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(bad.status).toBeLessThan(500);
    }
  });
});

describe('watching', () => {
  const watchUrl = (kind: 'pages' | 'spaces', id: string) => `/api/v1/${kind}/${id}/watch`;

  it('watches and unwatches a page and a space the caller can read', async () => {
    for (const [kind, id] of [
      ['pages', page.id],
      ['spaces', page.spaceId],
      ['spaces', privateSpace.id],
    ] as const) {
      const user = viewer;
      expect((await t.request({ url: watchUrl(kind, id), token: user.token })).body).toEqual({ data: { watching: false } });
      const put = await t.request({ method: 'PUT', url: watchUrl(kind, id), token: user.token });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({ data: { watching: true } });
      // Twice is still once.
      expect((await t.request({ method: 'PUT', url: watchUrl(kind, id), token: user.token })).status).toBe(200);
      expect((await t.request({ url: watchUrl(kind, id), token: user.token })).body.data.watching).toBe(true);
      const del = await t.request({ method: 'DELETE', url: watchUrl(kind, id), token: user.token });
      expect(del.body).toEqual({ data: { watching: false } });
      expect((await t.request({ url: watchUrl(kind, id), token: user.token })).body.data.watching).toBe(false);
    }
  });

  it('refuses to watch what the caller cannot read', async () => {
    // A private space the editor is not in: it does not exist for them.
    const hidden = await t.request({ method: 'PUT', url: watchUrl('spaces', privateSpace.id), token: editor.token });
    expect(hidden.status).toBe(404);
    for (const [kind, id] of [
      ['pages', page.id],
      ['spaces', page.spaceId],
    ] as const) {
      const res = await t.request({ method: 'PUT', url: watchUrl(kind, id), token: outsider.token });
      expect([403, 404], `${kind}`).toContain(res.status);
    }
    expect((await t.request({ method: 'PUT', url: watchUrl('pages', 'no-such-page'), token: editor.token })).status).toBe(404);
    expect((await t.request({ method: 'PUT', url: watchUrl('spaces', 'no-such-space'), token: editor.token })).status).toBe(404);
    const rows = await t.database.db.selectFrom('watches').select('userId').where('userId', 'in', [editor.id, outsider.id]).execute();
    expect(rows).toEqual([]);
  });
});

describe('MCP tools', () => {
  const call = (user: TestUser, name: string, args: Record<string, unknown>) =>
    t.request({ method: 'POST', url: '/api/mcp-standard/call_tool', token: user.token, body: { name, arguments: args } });

  it('lists, marks read, watches and unwatches', async () => {
    await recordAndDispatch(t, admin, [pageEvent(ws, { ...page, title: 'Via MCP' }, 'page.updated', { mentionedUserIds: [viewer.id] })]);
    const list = await call(viewer, 'notification_list', { workspaceId: ws, unread: 'true' });
    expect(list.status).toBe(200);
    const mine = list.body.structuredContent.data.find((n: { subject: { title: string } }) => n.subject.title === 'Via MCP');
    expect(mine).toMatchObject({ kind: 'mention', readAt: null });
    const read = await call(viewer, 'notification_mark_read', { notificationId: mine.id });
    expect(read.status).toBe(200);
    expect(read.body.structuredContent.readAt).not.toBeNull();
    expect((await call(viewer, 'page_watch', { pageId: page.id })).body.structuredContent).toEqual({ watching: true });
    expect((await t.request({ url: `/api/v1/pages/${page.id}/watch`, token: viewer.token })).body.data.watching).toBe(true);
    expect((await call(viewer, 'page_unwatch', { pageId: page.id })).body.structuredContent).toEqual({ watching: false });
    expect((await call(outsider, 'page_watch', { pageId: page.id })).status).toBeGreaterThanOrEqual(403);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createApiKey, type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { createSpace, newPage } from './helpers.js';

let t: TestApp;
let ws: string;
let space: string;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;
let outsider: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  const w = await workspaceWithRoles(t);
  ws = w.workspace.id;
  ({ admin, editor, viewer, outsider } = w);
  space = (await createSpace(t, admin, ws, { name: 'Docs' })).id;
});
afterAll(() => t.close());

const star = (u: TestUser | string, pageId: string, body: unknown = {}) =>
  t.request({ method: 'PUT', url: `/api/v1/pages/${pageId}/favorite`, token: typeof u === 'string' ? u : u.token, body });
const unstar = (u: TestUser, pageId: string) => t.request({ method: 'DELETE', url: `/api/v1/pages/${pageId}/favorite`, token: u.token });
const favorites = async (u: TestUser) => {
  const res = await t.request({ url: '/api/v1/favorites', token: u.token, query: { workspaceId: ws } });
  expect(res.status).toBe(200);
  return res.body.data as Array<{ id: string; title: string; spaceName: string; favoritedAt: string }>;
};
const recent = (u: TestUser | string, query: Record<string, string> = {}) =>
  t.request({ url: '/api/v1/pages/recent', token: typeof u === 'string' ? u : u.token, query: { workspaceId: ws, ...query } });
const restrict = (u: TestUser, pageId: string, grants: unknown) =>
  t.request({ method: 'PUT', url: `/api/v1/pages/${pageId}/restriction`, token: u.token, body: { grants } });

/** Visits are written after the read, off its path: wait until the list shows what a test expects. */
async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  let v = await read();
  for (let i = 0; i < 50 && !ok(v); i++) {
    await new Promise((r) => setTimeout(r, 20));
    v = await read();
  }
  return v;
}

describe('favourites', () => {
  it('stars pages (idempotent, first star kept), lists them in starring order with the space name, unstars', async () => {
    const a = await newPage(t, editor, ws, space, { title: 'Alpha', icon: '🅰️' });
    const b = await newPage(t, editor, ws, space, { title: 'Beta' });
    const first = await star(viewer, b.id);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ pageId: b.id, favorite: true });
    await star(viewer, a.id);
    const again = await star(viewer, b.id);
    expect(again.body.data.favoritedAt).toBe(first.body.data.favoritedAt);

    const list = await favorites(viewer);
    expect(list.map((p) => p.title)).toEqual(['Beta', 'Alpha']);
    expect(list[1]).toMatchObject({ id: a.id, icon: '🅰️', spaceName: 'Docs', spaceId: space });
    // favourites are per person
    expect(await favorites(editor)).toEqual([]);

    const off = await unstar(viewer, b.id);
    expect(off.status).toBe(200);
    expect(off.body.data).toEqual({ pageId: b.id, favorite: false, favoritedAt: null });
    expect((await unstar(viewer, b.id)).status).toBe(200);
    expect((await favorites(viewer)).map((p) => p.title)).toEqual(['Alpha']);
    await unstar(viewer, a.id);
  });

  it('refuses what the caller cannot open (404), a non-member (403), an unknown page (404), a trashed page (410), a wrong workspace (404)', async () => {
    const p = await newPage(t, editor, ws, space, { title: 'Mine' });
    // a member who cannot see the page's (private) space: the page does not exist for them
    const priv = (await createSpace(t, admin, ws, { name: 'Board', visibility: 'private' })).id;
    const hidden = await newPage(t, admin, ws, priv, { title: 'Board minutes' });
    const res = await star(viewer, hidden.id);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    // a non-member of the workspace is told so (403), as for every page read
    expect((await star(outsider, p.id)).status).toBe(403);
    const missing = await star(viewer, 'no-such-page');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    expect((await star(viewer, p.id, { workspaceId: 'other-ws' })).status).toBe(404);
    expect((await star(viewer, p.id, { workspaceId: 42 })).status).toBe(422);
    expect((await t.request({ url: '/api/v1/favorites', token: viewer.token })).status).toBe(400);
    expect((await t.request({ url: '/api/v1/favorites', token: outsider.token, query: { workspaceId: ws } })).status).toBe(403);
    await t.request({ method: 'DELETE', url: `/api/v1/pages/${p.id}`, token: editor.token });
    const trashed = await star(viewer, p.id);
    expect(trashed.status).toBe(410);
    expect(trashed.body.error.code).toBe('DELETED');
  });

  it('a starred page that goes to the trash, or becomes restricted to others, drops out of the list; it comes back with access', async () => {
    const kept = await newPage(t, editor, ws, space, { title: 'Kept' });
    const trashed = await newPage(t, editor, ws, space, { title: 'Trashed' });
    const closed = await newPage(t, editor, ws, space, { title: 'Closed' });
    for (const p of [kept, trashed, closed]) expect((await star(viewer, p.id)).status).toBe(200);
    expect((await favorites(viewer)).map((p) => p.title)).toEqual(['Kept', 'Trashed', 'Closed']);

    await t.request({ method: 'DELETE', url: `/api/v1/pages/${trashed.id}`, token: editor.token });
    expect((await restrict(editor, closed.id, [{ userId: editor.id, role: 'editor' }])).status).toBe(200);
    expect((await favorites(viewer)).map((p) => p.title)).toEqual(['Kept']);
    expect((await star(viewer, closed.id)).status).toBe(404);
    expect((await unstar(viewer, closed.id)).status).toBe(404);

    await restrict(editor, closed.id, [
      { userId: editor.id, role: 'editor' },
      { userId: viewer.id, role: 'viewer' },
    ]);
    await t.request({ method: 'POST', url: `/api/v1/pages/${trashed.id}/recover`, token: editor.token, body: {} });
    expect((await favorites(viewer)).map((p) => p.title)).toEqual(['Kept', 'Trashed', 'Closed']);
  });

  it('an API key may star too (same rules)', async () => {
    const p = await newPage(t, editor, ws, space, { title: 'By key' });
    const key = await createApiKey(t, viewer);
    expect((await star(key, p.id)).status).toBe(200);
    expect((await favorites(viewer)).some((f) => f.id === p.id)).toBe(true);
    await unstar(viewer, p.id);
  });
});

describe('recent pages', () => {
  it('lists the pages the caller opened last (newest first) and the pages edited last; a visit by an API key is not recorded', async () => {
    const [u] = [editor];
    const one = await newPage(t, admin, ws, space, { title: 'Visited one' });
    const two = await newPage(t, admin, ws, space, { title: 'Visited two' });
    const key = await createApiKey(t, u);
    expect((await t.request({ url: `/api/v1/pages/${one.id}`, token: key })).status).toBe(200);
    expect((await t.request({ url: `/api/v1/pages/${one.id}`, token: u.token })).status).toBe(200);
    const after1 = await eventually(
      () => recent(u),
      (r) => r.body.data.visited.length === 1,
    );
    expect(after1.body.data.visited.map((p: { title: string }) => p.title)).toEqual(['Visited one']);
    // make the first visit older, so the second is newer whatever the clock's resolution
    await t.database.db
      .updateTable('pageVisits')
      .set({ visitedAt: new Date(Date.now() - 3_600_000) })
      .where('userId', '=', u.id)
      .execute();
    await t.request({ url: `/api/v1/pages/${two.id}`, token: u.token });
    const after2 = await eventually(
      () => recent(u),
      (r) => r.body.data.visited.length === 2,
    );
    expect(after2.status).toBe(200);
    expect(after2.body.data.visited.map((p: { title: string }) => p.title)).toEqual(['Visited two', 'Visited one']);
    expect(after2.body.data.visited[0]).toMatchObject({ id: two.id, spaceName: 'Docs', visitedAt: expect.any(String) });
    expect(after2.body.data.updated[0]).toMatchObject({ id: two.id, title: 'Visited two' });
    // someone else's visits are theirs
    expect((await recent(viewer)).body.data.visited.some((p: { id: string }) => p.id === one.id)).toBe(false);
  });

  it('writes a visit at most once a minute per page and person', async () => {
    const p = await newPage(t, admin, ws, space, { title: 'Throttled' });
    await t.request({ url: `/api/v1/pages/${p.id}`, token: viewer.token });
    const read = () => t.database.db.selectFrom('pageVisits').select('visitedAt').where('pageId', '=', p.id).where('userId', '=', viewer.id).execute();
    const first = await eventually(read, (rows) => rows.length === 1);
    await t.request({ url: `/api/v1/pages/${p.id}`, token: viewer.token });
    await new Promise((r) => setTimeout(r, 50));
    expect((await read())[0].visitedAt.getTime()).toBe(first[0].visitedAt.getTime());
  });

  it('leaves out pages in the trash and pages restricted to others, in both lists', async () => {
    const secret = await newPage(t, admin, ws, space, { title: 'Secret' });
    const binned = await newPage(t, admin, ws, space, { title: 'Binned' });
    await t.request({ url: `/api/v1/pages/${secret.id}`, token: viewer.token });
    await t.request({ url: `/api/v1/pages/${binned.id}`, token: viewer.token });
    await eventually(
      () => recent(viewer),
      (r) => r.body.data.visited.some((p: { id: string }) => p.id === binned.id),
    );
    await restrict(admin, secret.id, [{ userId: admin.id, role: 'editor' }]);
    await t.request({ method: 'DELETE', url: `/api/v1/pages/${binned.id}`, token: admin.token });
    const res = await recent(viewer, { limit: '50' });
    const ids = [...res.body.data.visited, ...res.body.data.updated].map((p: { id: string }) => p.id);
    expect(ids).not.toContain(secret.id);
    expect(ids).not.toContain(binned.id);
    expect((await recent(admin, { limit: '50' })).body.data.updated.map((p: { id: string }) => p.id)).toContain(secret.id);
  });

  it('bad input: no workspace 400, a limit over 50 400, a non-member 403', async () => {
    expect((await t.request({ url: '/api/v1/pages/recent', token: viewer.token })).status).toBe(400);
    expect((await recent(viewer, { limit: '51' })).status).toBe(400);
    const res = await recent(outsider);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
  });
});

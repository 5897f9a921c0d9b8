import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, createWorkspace, type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { createSpace, newPage } from './helpers.js';

let t: TestApp;
let ws: string;
let admin: TestUser;
let viewer: TestUser;
let outsider: TestUser;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  const w = await workspaceWithRoles(t);
  ws = w.workspace.id;
  ({ admin, viewer, outsider } = w);
  const docs = (await createSpace(t, admin, ws, { name: 'Docs' })).id;
  const board = (await createSpace(t, admin, ws, { name: 'Board', visibility: 'private' })).id;
  ids.plan = (await newPage(t, admin, ws, docs, { title: 'Launch plan', icon: '🚀' })).id;
  ids.notes = (await newPage(t, admin, ws, docs, { title: 'Notes' })).id;
  ids.closed = (await newPage(t, admin, ws, docs, { title: 'Salaries' })).id;
  ids.private = (await newPage(t, admin, ws, board, { title: 'Board minutes' })).id;
  ids.trashed = (await newPage(t, admin, ws, docs, { title: 'Old plan' })).id;
  const restricted = await t.request({
    method: 'PUT',
    url: `/api/v1/pages/${ids.closed}/restriction`,
    token: admin.token,
    body: { grants: [{ userId: admin.id, role: 'editor' }] },
  });
  expect(restricted.status, JSON.stringify(restricted.body)).toBe(200);
  const trashed = await t.request({ method: 'DELETE', url: `/api/v1/pages/${ids.trashed}`, token: admin.token, query: { workspaceId: ws } });
  expect(trashed.status).toBe(200);
  const stranger: TestUser = await createUser(t, 'Stranger');
  const elsewhere = await createWorkspace(t, stranger, 'Elsewhere');
  const space = (await createSpace(t, stranger, elsewhere.id, { name: 'Theirs' })).id;
  ids.foreign = (await newPage(t, stranger, elsewhere.id, space, { title: 'Their page' })).id;
});
afterAll(() => t.close());

const titles = (u: TestUser | null, query: Record<string, string | string[]>) =>
  t.request({ url: '/api/v1/pages/titles', token: u?.token, query: { workspaceId: ws, ...query } });

describe('GET /v1/pages/titles', () => {
  it('answers the current title, icon and address of each page, after a rename and a move', async () => {
    const renamed = await t.request({
      method: 'PUT',
      url: `/api/v1/pages/${ids.notes}`,
      token: admin.token,
      body: { title: 'Meeting notes', parentId: ids.plan },
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const res = await titles(viewer, { ids: `${ids.plan},${ids.notes},${ids.plan}` });
    expect(res.status).toBe(200);
    const byId = Object.fromEntries(res.body.data.map((p: { id: string }) => [p.id, p]));
    expect(Object.keys(byId).sort()).toEqual([ids.plan, ids.notes].sort());
    expect(byId[ids.plan]).toMatchObject({ title: 'Launch plan', icon: '🚀', slug: 'launch-plan' });
    expect(byId[ids.notes]).toMatchObject({ title: 'Meeting notes', icon: null, slug: 'meeting-notes' });
    const repeated = await titles(viewer, { ids: [ids.plan, ids.notes] });
    expect(repeated.body.data).toHaveLength(2);
  });

  it('leaves out, alike, pages closed to the caller, private spaces, the trash, other workspaces and unknown ids', async () => {
    const all = [ids.plan, ids.closed, ids.private, ids.trashed, ids.foreign, 'no-such-page'];
    const asViewer = await titles(viewer, { ids: all.join(',') });
    expect(asViewer.status).toBe(200);
    expect(asViewer.body.data.map((p: { id: string }) => p.id)).toEqual([ids.plan]);
    const asAdmin = await titles(admin, { ids: all.join(',') });
    expect(asAdmin.body.data.map((p: { id: string }) => p.id).sort()).toEqual([ids.plan, ids.closed, ids.private].sort());
  });

  it('refuses no ids, too many, a non-member and no credentials, in the error shape', async () => {
    const none = await titles(viewer, { ids: ' , ' });
    expect(none.status).toBe(400);
    expect(none.body.error.code).toBe('INVALID_PARAMETER');
    const tooMany = await titles(viewer, { ids: Array.from({ length: 101 }, (_, i) => `p${i}`).join(',') });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.message).toMatch(/at most 100/);
    const missing = await t.request({ url: '/api/v1/pages/titles', token: viewer.token, query: { workspaceId: ws } });
    expect(missing.status).toBe(400);
    expect((await titles(outsider, { ids: ids.plan })).status).toBe(403);
    expect((await titles(null, { ids: ids.plan })).status).toBe(401);
  });
});

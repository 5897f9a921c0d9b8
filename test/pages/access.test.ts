import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addMember, createUser, type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { addSpaceMembers, createSpace, doc, newPage } from './helpers.js';

let t: TestApp;
let ws: string;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;
let outsider: TestUser;
let privateSpace: string;
let publicSpace: string;
let page: string;
let trashed: string;
let historyId: string;

beforeAll(async () => {
  t = await createTestApp();
  const w = await workspaceWithRoles(t);
  ({ admin, editor, viewer, outsider } = w);
  ws = w.workspace.id;
  privateSpace = (await createSpace(t, admin, ws, { name: 'Secret', visibility: 'private' })).id;
  publicSpace = (await createSpace(t, admin, ws, { name: 'Open' })).id;
  page = (await newPage(t, admin, ws, privateSpace, { title: 'Hidden plan' })).id;
  trashed = (await newPage(t, admin, ws, privateSpace, { title: 'Hidden trash' })).id;
  await t.request({ method: 'DELETE', url: `/api/v1/pages/${trashed}`, token: admin.token });
  historyId = (await t.request({ url: `/api/v1/pages/${page}/history`, token: admin.token })).body.data[0].id;
});
afterAll(() => t.close());

/** Every page endpoint, as `user`, against the private space's pages. */
function everyEndpoint(user: TestUser) {
  return {
    read: t.request({ url: `/api/v1/pages/${page}`, token: user.token }),
    list: t.request({ url: '/api/v1/pages', token: user.token, query: { workspaceId: ws, spaceId: privateSpace } }),
    create: t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: user.token,
      body: { workspaceId: ws, spaceId: privateSpace, title: 'x', content: doc('x') },
    }),
    update: t.request({ method: 'PUT', url: `/api/v1/pages/${page}`, token: user.token, body: { workspaceId: ws, title: 'changed' } }),
    remove: t.request({ method: 'DELETE', url: `/api/v1/pages/${page}`, token: user.token, query: { workspaceId: ws } }),
    history: t.request({ url: `/api/v1/pages/${page}/history`, token: user.token }),
    entry: t.request({ url: `/api/v1/pages/${page}/history/${historyId}`, token: user.token }),
    restore: t.request({ method: 'POST', url: `/api/v1/pages/${page}/restore`, token: user.token, body: { historyId } }),
    recover: t.request({ method: 'POST', url: `/api/v1/pages/${trashed}/recover`, token: user.token }),
    trashedRead: t.request({ url: `/api/v1/pages/${trashed}`, token: user.token }),
    trash: t.request({ url: '/api/v1/trash', token: user.token, query: { workspaceId: ws, spaceId: privateSpace } }),
  };
}

async function statuses(user: TestUser) {
  const calls = everyEndpoint(user);
  const out: Record<string, number> = {};
  for (const [name, call] of Object.entries(calls)) out[name] = (await call).status;
  return out;
}

describe('private spaces', () => {
  it('do not exist for a workspace member who is not in them: 404 everywhere, nothing listed', async () => {
    const s = await statuses(editor);
    expect(s).toEqual({
      read: 404,
      list: 404,
      create: 404,
      update: 404,
      remove: 404,
      history: 404,
      entry: 404,
      restore: 404,
      recover: 404,
      trashedRead: 404,
      trash: 404,
    });
    const trashAll = await t.request({ url: '/api/v1/trash', token: editor.token, query: { workspaceId: ws } });
    expect(trashAll.status).toBe(200);
    expect(trashAll.body.data.map((p: { id: string }) => p.id)).not.toContain(trashed);
    // a page of the private space cannot be used as a parent elsewhere either, and its existence does not leak
    const asParent = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: editor.token,
      body: { workspaceId: ws, spaceId: publicSpace, title: 'x', content: doc('x'), parentId: page },
    });
    expect(asParent.status).toBe(404);
    // nothing changed
    const read = await t.request({ url: `/api/v1/pages/${page}`, token: admin.token });
    expect(read.body.data.title).toBe('Hidden plan');
  });

  it('let a viewer member read but not write (403)', async () => {
    await addSpaceMembers(t, admin, ws, privateSpace, { userIds: [viewer.id], role: 'viewer' });
    const s = await statuses(viewer);
    expect(s).toEqual({
      read: 200,
      list: 200,
      create: 403,
      update: 403,
      remove: 403,
      history: 200,
      entry: 200,
      restore: 403,
      recover: 403,
      trashedRead: 410,
      trash: 200,
    });
    const list = await t.request({ url: '/api/v1/pages', token: viewer.token, query: { workspaceId: ws, spaceId: privateSpace } });
    expect(list.body.data.map((p: { title: string }) => p.title)).toEqual(['Hidden plan']);
    const denied = await t.request({ method: 'PUT', url: `/api/v1/pages/${page}`, token: viewer.token, body: { title: 'nope' } });
    expect(denied.body.error.code).toBe('FORBIDDEN');
    expect((await t.request({ url: `/api/v1/pages/${page}`, token: admin.token })).body.data.title).toBe('Hidden plan');
  });

  it('outsiders get 403 and anonymous callers 401', async () => {
    const s = await statuses(outsider);
    for (const status of Object.values(s)) expect(status).toBe(403);
    expect((await t.request({ url: `/api/v1/pages/${page}` })).status).toBe(401);
  });
});

describe('space roles override workspace roles for pages', () => {
  it('a workspace viewer with editor in the space writes; a workspace editor with viewer in the space does not', async () => {
    const w = await workspaceWithRoles(t);
    const space = (await createSpace(t, w.admin, w.workspace.id, { name: 'Roles' })).id;
    const viewerWrites = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: w.viewer.token,
      body: { workspaceId: w.workspace.id, spaceId: space, title: 'x', content: doc('x') },
    });
    expect(viewerWrites.status).toBe(403);
    await addSpaceMembers(t, w.admin, w.workspace.id, space, { userIds: [w.viewer.id], role: 'editor' });
    await addSpaceMembers(t, w.admin, w.workspace.id, space, { userIds: [w.editor.id], role: 'viewer' });
    const created = await newPage(t, w.viewer, w.workspace.id, space, { title: 'By a space editor' });
    const editorWrites = await t.request({ method: 'PUT', url: `/api/v1/pages/${created.id}`, token: w.editor.token, body: { title: 'nope' } });
    expect(editorWrites.status).toBe(403);
    const editorReads = await t.request({ url: `/api/v1/pages/${created.id}`, token: w.editor.token });
    expect(editorReads.status).toBe(200);
    // a new workspace member with no space role has their workspace role in a public space
    const late = await createUser(t, 'Late');
    await addMember(t, w.workspace.id, w.admin, late, 'editor');
    expect((await t.request({ method: 'PUT', url: `/api/v1/pages/${created.id}`, token: late.token, body: { icon: '✅' } })).status).toBe(200);
  });
});

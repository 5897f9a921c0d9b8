import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addMember, createUser, createWorkspace, type TestUser } from '../helpers/factories.js';
import { callTool } from '../knowledge/helpers.js';
import { newPage } from '../pages/helpers.js';
import { addSpaceMembers, createGroup, createSpace } from '../spaces/helpers.js';

/*
 * The restriction API (issue 15): GET /v1/pages/:id/access, PUT and DELETE /v1/pages/:id/restriction,
 * GET /v1/workspaces/:id/restrictions, the MCP tools, and their audit entries.
 */

let t: TestApp;
let ws: string;
let space: string;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;
let designer: TestUser;
let stranger: TestUser;
let group: string;

beforeAll(async () => {
  t = await createTestApp();
  [admin, editor, viewer, designer, stranger] = await Promise.all(['Admin', 'Editor', 'Viewer', 'Designer', 'Stranger'].map((n) => createUser(t, n)));
  ws = (await createWorkspace(t, admin)).id;
  await addMember(t, ws, admin, editor, 'editor');
  await addMember(t, ws, admin, viewer, 'viewer');
  await addMember(t, ws, admin, designer, 'viewer');
  group = await createGroup(t, admin, ws, 'Design', [designer.id]);
  space = (await createSpace(t, admin, ws, { name: 'Engineering', visibility: 'private' })).id;
  await addSpaceMembers(t, admin, ws, space, { userIds: [editor.id], role: 'editor' });
  await addSpaceMembers(t, admin, ws, space, { userIds: [viewer.id], role: 'viewer' });
  await addSpaceMembers(t, admin, ws, space, { groupIds: [group], role: 'editor' });
});
afterAll(() => t.close());

const put = (u: TestUser, pageId: string, grants: unknown) =>
  t.request({ method: 'PUT', url: `/api/v1/pages/${pageId}/restriction`, token: u.token, body: { grants } });
const access = (u: TestUser, pageId: string) => t.request({ url: `/api/v1/pages/${pageId}/access`, token: u.token });
const audit = (pageId: string) =>
  t.database.db.selectFrom('auditLog').select(['action', 'actorId', 'details']).where('targetId', '=', pageId).orderBy('createdAt').execute();

describe('GET /v1/pages/:pageId/access', () => {
  it('an open page: everyone who can open it, with their role and why', async () => {
    const p = await newPage(t, editor, ws, space, { title: 'Open page' });
    const res = await access(viewer, p.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ pageId: p.id, restricted: false, restriction: null, inherited: [], peopleTruncated: false });
    const byName = Object.fromEntries(res.body.data.people.map((x: { user: { name: string } }) => [x.user.name, x]));
    expect(byName.Admin).toMatchObject({ role: 'admin', via: 'workspace_admin', detail: 'Workspace admin' });
    expect(byName.Editor).toMatchObject({ role: 'editor', via: 'space_role', detail: 'Editors of space Engineering' });
    expect(byName.Viewer).toMatchObject({ role: 'viewer', via: 'space_role' });
    expect(byName.Designer).toMatchObject({ role: 'editor', via: 'space_group', detail: 'Group Design (editor in space Engineering)' });
    expect(byName.Stranger).toBeUndefined();
  });
});

describe('PUT and DELETE /v1/pages/:pageId/restriction', () => {
  it('restricts to users and groups; answers the access; the effective role is capped by the space role', async () => {
    const p = await newPage(t, editor, ws, space, { title: 'Plans' });
    const child = await newPage(t, editor, ws, space, { title: 'Plans child', parentId: p.id });
    const res = await put(editor, p.id, [
      { userId: editor.id, role: 'editor' },
      { userId: viewer.id, role: 'editor' },
      { groupId: group, role: 'viewer' },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.restricted).toBe(true);
    expect(res.body.data.restriction.grants).toEqual([
      { type: 'user', id: editor.id, name: 'Editor', email: editor.email, role: 'editor' },
      { type: 'user', id: viewer.id, name: 'Viewer', email: viewer.email, role: 'editor' },
      { type: 'group', id: group, name: 'Design', role: 'viewer' },
    ]);
    const people = Object.fromEntries(res.body.data.people.map((x: { user: { name: string } }) => [x.user.name, x]));
    expect(Object.keys(people).sort()).toEqual(['Designer', 'Editor', 'Viewer']);
    // A space viewer granted editor stays a viewer; the group's viewer grant caps a space editor.
    expect(people.Viewer).toMatchObject({ role: 'viewer', via: 'restriction', detail: 'Granted editor (restriction on this page)' });
    expect(people.Designer).toMatchObject({ role: 'viewer', via: 'restriction', detail: 'Group Design (restriction on this page)' });

    const inherited = await access(editor, child.id);
    expect(inherited.body.data).toMatchObject({ restricted: true, restriction: null, inherited: [{ pageId: p.id, title: 'Plans' }] });
    expect(inherited.body.data.people.find((x: { user: { name: string } }) => x.user.name === 'Designer').detail).toBe('Group Design (restriction on “Plans”)');

    expect((await t.request({ method: 'PUT', url: `/api/v1/pages/${p.id}`, token: designer.token, body: { title: 'x' } })).status).toBe(403);
    expect((await t.request({ url: `/api/v1/pages/${p.id}`, token: admin.token })).status).toBe(404);

    const entries = await audit(p.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'page_restriction.set',
      actorId: editor.id,
      details: { grantCount: 3, editors: 2, viewers: 1, replaced: false },
    });
  });

  it('refuses bad grants: would_lock_out_self, not a member, unknown group, duplicates, malformed', async () => {
    const p = await newPage(t, editor, ws, space, { title: 'Refusals' });
    const lockOut = await put(editor, p.id, [{ userId: viewer.id, role: 'editor' }]);
    expect(lockOut.status).toBe(422);
    expect(lockOut.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'grants', reason: 'would_lock_out_self' } });
    const asViewer = await put(editor, p.id, [{ userId: editor.id, role: 'viewer' }]);
    expect(asViewer.body.error.details.reason).toBe('would_lock_out_self');

    const outsider = await put(editor, p.id, [
      { userId: editor.id, role: 'editor' },
      { userId: stranger.id, role: 'viewer' },
    ]);
    expect(outsider.status).toBe(422);
    expect(outsider.body.error.details).toMatchObject({ field: 'grants', reason: 'not_a_member', ids: [stranger.id] });
    const badGroup = await put(editor, p.id, [
      { userId: editor.id, role: 'editor' },
      { groupId: 'nope', role: 'viewer' },
    ]);
    expect(badGroup.status).toBe(422);
    expect(badGroup.body.error.details.reason).toBe('unknown_group');
    const dup = await put(editor, p.id, [
      { userId: editor.id, role: 'editor' },
      { userId: editor.id, role: 'viewer' },
    ]);
    expect(dup.status).toBe(422);
    expect(dup.body.error.details.reason).toBe('duplicate');
    for (const grants of [[], [{ userId: editor.id, groupId: group, role: 'editor' }], [{ role: 'editor' }], [{ userId: editor.id, role: 'admin' }]]) {
      const res = await put(editor, p.id, grants);
      expect(res.status, JSON.stringify(grants)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(grants)).toBeLessThan(500);
    }
    // A space viewer may not restrict.
    expect((await put(viewer, p.id, [{ userId: viewer.id, role: 'editor' }])).status).toBe(403);
    expect(await audit(p.id)).toEqual([]);
  });

  it('workspace admins manage a page closed to them without reading it, and may add themselves (audited)', async () => {
    const p = await newPage(t, editor, ws, space, { title: 'Admin managed' });
    expect((await put(editor, p.id, [{ userId: editor.id, role: 'editor' }])).status).toBe(200);
    expect((await t.request({ url: `/api/v1/pages/${p.id}`, token: admin.token })).status).toBe(404);
    const seen = await access(admin, p.id);
    expect(seen.status).toBe(200);
    expect(seen.body.data.people.map((x: { user: { name: string } }) => x.user.name)).toEqual(['Editor']);

    // An admin needs no grant for themselves…
    expect((await put(admin, p.id, [{ userId: viewer.id, role: 'viewer' }])).status).toBe(200);
    expect((await t.request({ url: `/api/v1/pages/${p.id}`, token: editor.token })).status).toBe(404);
    // …and may add themselves, which opens the page to them.
    const self = await put(admin, p.id, [
      { userId: admin.id, role: 'editor' },
      { userId: editor.id, role: 'editor' },
    ]);
    expect(self.status).toBe(200);
    const read = await t.request({ url: `/api/v1/pages/${p.id}`, token: admin.token });
    expect(read.status).toBe(200);
    expect(read.body.data.role).toBe('editor');
    const entries = await audit(p.id);
    expect(entries.map((e) => e.action)).toEqual(['page_restriction.set', 'page_restriction.set', 'page_restriction.set']);
    expect(entries[2]).toMatchObject({
      actorId: admin.id,
      details: {
        replaced: true,
        asWorkspaceAdmin: true,
        grants: [
          { userId: admin.id, role: 'editor' },
          { userId: editor.id, role: 'editor' },
        ],
      },
    });

    const list = await t.request({ url: `/api/v1/workspaces/${ws}/restrictions`, token: admin.token });
    expect(list.status).toBe(200);
    expect(list.body.data.find((r: { pageId: string }) => r.pageId === p.id)).toMatchObject({
      title: 'Admin managed',
      spaceId: space,
      grantCount: 2,
      createdBy: editor.id,
      inTrash: false,
    });
    expect((await t.request({ url: `/api/v1/workspaces/${ws}/restrictions`, token: editor.token })).status).toBe(403);
  });

  it('DELETE opens the page up again (inherited restrictions stay); audited once', async () => {
    const p = await newPage(t, editor, ws, space, { title: 'Opening' });
    const c = await newPage(t, editor, ws, space, { title: 'Opening child', parentId: p.id });
    expect((await put(editor, p.id, [{ userId: editor.id, role: 'editor' }])).status).toBe(200);
    expect((await put(editor, c.id, [{ userId: editor.id, role: 'editor' }])).status).toBe(200);
    expect((await t.request({ url: `/api/v1/pages/${p.id}`, token: viewer.token })).status).toBe(404);
    const del = await t.request({ method: 'DELETE', url: `/api/v1/pages/${p.id}/restriction`, token: editor.token });
    expect(del.status).toBe(200);
    expect(del.body.data).toMatchObject({ restricted: false, restriction: null });
    expect((await t.request({ url: `/api/v1/pages/${p.id}`, token: viewer.token })).status).toBe(200);
    expect((await t.request({ url: `/api/v1/pages/${c.id}`, token: viewer.token })).status).toBe(404);
    const again = await t.request({ method: 'DELETE', url: `/api/v1/pages/${p.id}/restriction`, token: editor.token });
    expect(again.status).toBe(200);
    expect((await audit(p.id)).map((e) => e.action)).toEqual(['page_restriction.set', 'page_restriction.removed']);
  });
});

describe('leaving the workspace', () => {
  it('a removed member’s own grants go with them: re-added, they find the page closed', async () => {
    const leaver = await createUser(t, 'Leaver');
    await addMember(t, ws, admin, leaver, 'editor');
    await addSpaceMembers(t, admin, ws, space, { userIds: [leaver.id], role: 'editor' });
    const p = await newPage(t, editor, ws, space, { title: 'Kept close' });
    expect((await put(editor, p.id, [{ userId: editor.id, role: 'editor' }, { userId: leaver.id, role: 'editor' }])).status).toBe(200);
    expect((await t.request({ url: `/api/v1/pages/${p.id}`, token: leaver.token })).status).toBe(200);
    const removed = await t.request({ method: 'DELETE', url: `/api/v1/workspaces/${ws}/members/${leaver.id}`, token: admin.token });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    await addMember(t, ws, admin, leaver, 'editor');
    await addSpaceMembers(t, admin, ws, space, { userIds: [leaver.id], role: 'editor' });
    expect((await t.request({ url: `/api/v1/pages/${p.id}`, token: leaver.token })).status).toBe(404);
    const grants = (await access(editor, p.id)).body.data.restriction.grants.map((g: { id: string }) => g.id);
    expect(grants).toEqual([editor.id]);
  });
});

describe('MCP tools', () => {
  it('page_restrict, page_access_get and page_unrestrict', async () => {
    const p = await newPage(t, editor, ws, space, { title: 'Agent page' });
    const set = await callTool(t, editor, 'page_restrict', { pageId: p.id, grants: [{ userId: editor.id, role: 'editor' }] });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const got = await callTool(t, editor, 'page_access_get', { pageId: p.id });
    expect(JSON.stringify(got.body)).toContain('"restricted":true');
    const closed = await callTool(t, viewer, 'page_access_get', { pageId: p.id });
    expect(JSON.stringify(closed.body)).toContain('NOT_FOUND');
    const open = await callTool(t, editor, 'page_unrestrict', { pageId: p.id });
    expect(open.status).toBe(200);
    expect((await t.request({ url: `/api/v1/pages/${p.id}`, token: viewer.token })).status).toBe(200);
  });
});

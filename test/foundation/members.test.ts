import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addMember, createUser, createWorkspace, type TestUser, workspaceWithRoles } from '../helpers/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const membersUrl = (ws: { id: string }) => `/api/v1/workspaces/${ws.id}/members`;
const memberUrl = (ws: { id: string }, user: { id: string }) => `/api/v1/workspaces/${ws.id}/members/${user.id}`;

async function rolesIn(ws: { id: string }, as: TestUser): Promise<Record<string, string>> {
  const res = await t.request({ url: membersUrl(ws), token: as.token });
  expect(res.status).toBe(200);
  return Object.fromEntries(res.body.data.map((m: { id: string; role: string }) => [m.id, m.role]));
}

describe('members', () => {
  it('adds a member once they accept (202 invited, then the member shape), lists them in join order, and counts them', async () => {
    const ann = await createUser(t, 'Ann');
    const bob = await createUser(t, 'Bob');
    const ws = await createWorkspace(t, ann);
    // Adding an account invites it (test/invitations/member-add.test.ts): Bob joins when he accepts.
    const added = await t.request({ method: 'POST', url: membersUrl(ws), token: ann.token, body: { userId: bob.id, role: 'editor' } });
    expect(added.status).toBe(202);
    expect(added.body.data).toMatchObject({ status: 'invited', invitation: { email: bob.email, role: 'editor' } });
    const accepted = await t.request({ method: 'POST', url: `/api/v1/users/me/invitations/${added.body.data.invitation.id}/accept`, token: bob.token });
    expect(accepted.status).toBe(200);
    const member = await t.request({ url: membersUrl(ws), token: ann.token });
    expect(member.body.data[1]).toEqual({ id: bob.id, email: bob.email, name: 'Bob', avatarUrl: null, role: 'editor', joinedAt: expect.stringMatching(ISO) });
    const list = await t.request({ url: membersUrl(ws), token: bob.token });
    expect(list.body.data.map((m: { id: string; role: string }) => [m.id, m.role])).toEqual([
      [ann.id, 'admin'],
      [bob.id, 'editor'],
    ]);
    expect((await t.request({ url: `/api/v1/workspaces/${ws.id}`, token: bob.token })).body.data.memberCount).toBe(2);
    // Bob now sees the workspace in his list.
    expect((await t.request({ url: '/api/v1/workspaces', token: bob.token })).body.data).toEqual([expect.objectContaining({ id: ws.id, role: 'editor' })]);
  });

  it('refuses an unknown user with 404, a member twice with 409, a bad role with 422 and a missing one with 400', async () => {
    const { workspace, admin, editor } = await workspaceWithRoles(t);
    const unknown = await t.request({ method: 'POST', url: membersUrl(workspace), token: admin.token, body: { userId: 'no-such-user', role: 'viewer' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    const twice = await t.request({ method: 'POST', url: membersUrl(workspace), token: admin.token, body: { userId: editor.id, role: 'viewer' } });
    expect(twice.status).toBe(409);
    expect(twice.body.error).toMatchObject({ code: 'ALREADY_EXISTS', details: { field: 'userId' } });
    const newcomer = await createUser(t, 'New');
    const badRole = await t.request({ method: 'POST', url: membersUrl(workspace), token: admin.token, body: { userId: newcomer.id, role: 'owner' } });
    expect(badRole.status).toBe(422);
    expect(badRole.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'role' } });
    const noRole = await t.request({ method: 'POST', url: membersUrl(workspace), token: admin.token, body: { userId: newcomer.id } });
    expect(noRole.status).toBe(400);
    expect(noRole.body.error).toMatchObject({ code: 'MISSING_REQUIRED', details: { field: 'role' } });
    const roles = await rolesIn(workspace, admin);
    expect(roles[editor.id]).toBe('editor');
    expect(roles[newcomer.id]).toBeUndefined();
  });

  it('changes a role, and answers 404 for a user who is not a member', async () => {
    const { workspace, admin, editor, outsider } = await workspaceWithRoles(t);
    const changed = await t.request({ method: 'PUT', url: memberUrl(workspace, editor), token: admin.token, body: { role: 'viewer' } });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ id: editor.id, role: 'viewer' });
    expect((await rolesIn(workspace, admin))[editor.id]).toBe('viewer');
    const notMember = await t.request({ method: 'PUT', url: memberUrl(workspace, outsider), token: admin.token, body: { role: 'viewer' } });
    expect(notMember.status).toBe(404);
    const bad = await t.request({ method: 'PUT', url: memberUrl(workspace, editor), token: admin.token, body: { role: 'superuser' } });
    expect(bad.status).toBe(422);
    const missing = await t.request({ method: 'PUT', url: memberUrl(workspace, editor), token: admin.token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('MISSING_REQUIRED');
  });

  it('keeps memberCount current through adds, removals, leaving and a deleted account, in single reads and lists', async () => {
    const { workspace, admin, editor, viewer } = await workspaceWithRoles(t);
    const counts = async () => {
      const one = (await t.request({ url: `/api/v1/workspaces/${workspace.id}`, token: admin.token })).body.data.memberCount;
      const listed = (await t.request({ url: '/api/v1/workspaces', token: admin.token })).body.data.find(
        (w: { id: string }) => w.id === workspace.id,
      ).memberCount;
      return [one, listed];
    };
    expect(await counts()).toEqual([3, 3]);
    const extra = await createUser(t, 'Extra');
    await addMember(t, workspace.id, admin, extra, 'viewer');
    expect(await counts()).toEqual([4, 4]);
    expect((await t.request({ method: 'DELETE', url: memberUrl(workspace, editor), token: admin.token })).status).toBe(200);
    expect(await counts()).toEqual([3, 3]);
    expect((await t.request({ method: 'DELETE', url: memberUrl(workspace, viewer), token: viewer.token })).status).toBe(200);
    expect(await counts()).toEqual([2, 2]);
    // A failed add (already a member) changes nothing; an account deleted underneath (cascade) is counted out.
    expect((await t.request({ method: 'POST', url: membersUrl(workspace), token: admin.token, body: { userId: extra.id, role: 'viewer' } })).status).toBe(409);
    expect(await counts()).toEqual([2, 2]);
    await t.database.db.deleteFrom('users').where('id', '=', extra.id).execute();
    expect(await counts()).toEqual([1, 1]);
  });

  it('removes a member, who then loses access; removing a non-member is 404', async () => {
    const { workspace, admin, editor, outsider } = await workspaceWithRoles(t);
    const removed = await t.request({ method: 'DELETE', url: memberUrl(workspace, editor), token: admin.token });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ data: { id: editor.id, deleted: true } });
    expect((await rolesIn(workspace, admin))[editor.id]).toBeUndefined();
    const denied = await t.request({ url: `/api/v1/workspaces/${workspace.id}`, token: editor.token });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('FORBIDDEN');
    expect((await t.request({ method: 'DELETE', url: memberUrl(workspace, outsider), token: admin.token })).status).toBe(404);
    expect((await t.request({ method: 'DELETE', url: memberUrl(workspace, editor), token: admin.token })).status).toBe(404);
  });

  it('lets any member leave, but not remove others unless admin', async () => {
    const { workspace, admin, editor, viewer } = await workspaceWithRoles(t);
    const other = await t.request({ method: 'DELETE', url: memberUrl(workspace, editor), token: viewer.token });
    expect(other.status).toBe(403);
    const leave = await t.request({ method: 'DELETE', url: memberUrl(workspace, viewer), token: viewer.token });
    expect(leave.status).toBe(200);
    expect((await t.request({ url: '/api/v1/workspaces', token: viewer.token })).body.data).toEqual([]);
    expect((await t.request({ url: membersUrl(workspace), token: viewer.token })).status).toBe(403);
    const roles = await rolesIn(workspace, admin);
    expect(Object.keys(roles).sort()).toEqual([admin.id, editor.id].sort());
  });

  it('keeps the last admin: no demotion or removal (422) until another admin exists', async () => {
    const { workspace, admin, editor, viewer } = await workspaceWithRoles(t);
    const demote = await t.request({ method: 'PUT', url: memberUrl(workspace, admin), token: admin.token, body: { role: 'editor' } });
    expect(demote.status).toBe(422);
    expect(demote.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { reason: 'last_admin' } });
    expect(demote.body.error.message).toMatch(/last admin/);
    const leave = await t.request({ method: 'DELETE', url: memberUrl(workspace, admin), token: admin.token });
    expect(leave.status).toBe(422);
    expect(leave.body.error.details.reason).toBe('last_admin');
    // Re-affirming admin is fine.
    expect((await t.request({ method: 'PUT', url: memberUrl(workspace, admin), token: admin.token, body: { role: 'admin' } })).status).toBe(200);
    expect((await rolesIn(workspace, admin))[admin.id]).toBe('admin');

    const promote = await t.request({ method: 'PUT', url: memberUrl(workspace, editor), token: admin.token, body: { role: 'admin' } });
    expect(promote.status).toBe(200);
    const demoteNow = await t.request({ method: 'PUT', url: memberUrl(workspace, admin), token: admin.token, body: { role: 'viewer' } });
    expect(demoteNow.status).toBe(200);
    expect(demoteNow.body.data.role).toBe('viewer');
    // The demoted former admin can no longer manage members; the new one is now the last admin.
    expect((await t.request({ method: 'PUT', url: memberUrl(workspace, editor), token: admin.token, body: { role: 'viewer' } })).status).toBe(403);
    expect((await t.request({ method: 'DELETE', url: memberUrl(workspace, editor), token: editor.token })).status).toBe(422);
    // Another admin may remove an admin.
    await t.request({ method: 'PUT', url: memberUrl(workspace, admin), token: editor.token, body: { role: 'admin' } });
    const removeOther = await t.request({ method: 'DELETE', url: memberUrl(workspace, admin), token: editor.token });
    expect(removeOther.status).toBe(200);
    expect(await rolesIn(workspace, editor)).toEqual({ [editor.id]: 'admin', [viewer.id]: 'viewer' });
  });

  it('holds the last-admin rule when two admins demote each other at once', async () => {
    const ann = await createUser(t, 'Ann');
    const bob = await createUser(t, 'Bob');
    const ws = await createWorkspace(t, ann);
    await addMember(t, ws.id, ann, bob, 'admin');
    const results = await Promise.all([
      t.request({ method: 'PUT', url: memberUrl(ws, ann), token: bob.token, body: { role: 'viewer' } }),
      t.request({ method: 'PUT', url: memberUrl(ws, bob), token: ann.token, body: { role: 'viewer' } }),
    ]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).not.toEqual([200, 200]);
    const roles = Object.values(await rolesIn(ws, ann));
    expect(roles.filter((r) => r === 'admin').length).toBeGreaterThanOrEqual(1);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createWorkspace, workspaceWithRoles } from '../helpers/factories.js';
import { addSpaceMembers, createGroup, createSpace } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('groups', () => {
  it('creates, lists, reads, renames and deletes a group; admins manage, members read', async () => {
    const { workspace, admin, editor, viewer, outsider } = await workspaceWithRoles(t);
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/groups',
      token: admin.token,
      body: { workspaceId: workspace.id, name: 'Design', description: 'Designers' },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    expect(created.body.data).toMatchObject({
      workspaceId: workspace.id,
      name: 'Design',
      description: 'Designers',
      memberCount: 0,
      members: [],
      createdBy: admin.id,
    });

    const dup = await t.request({ method: 'POST', url: '/api/v1/groups', token: admin.token, body: { workspaceId: workspace.id, name: 'design' } });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatchObject({ code: 'ALREADY_EXISTS', details: { field: 'name' } });
    // The same name in another workspace is fine.
    const other = await createWorkspace(t, admin);
    expect((await t.request({ method: 'POST', url: '/api/v1/groups', token: admin.token, body: { workspaceId: other.id, name: 'Design' } })).status).toBe(201);

    for (const user of [editor, viewer, outsider]) {
      const denied = await t.request({ method: 'POST', url: '/api/v1/groups', token: user.token, body: { workspaceId: workspace.id, name: 'Mine' } });
      expect(denied.status).toBe(403);
    }
    expect((await t.request({ method: 'POST', url: '/api/v1/groups', token: admin.token, body: { workspaceId: workspace.id } })).status).toBe(400);
    expect((await t.request({ method: 'POST', url: '/api/v1/groups', token: admin.token, body: { workspaceId: workspace.id, name: '' } })).status).toBe(422);

    const list = await t.request({ url: '/api/v1/groups', query: { workspaceId: workspace.id }, token: viewer.token });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([expect.objectContaining({ id, name: 'Design', memberCount: 0 })]);
    expect((await t.request({ url: '/api/v1/groups', query: { workspaceId: workspace.id }, token: outsider.token })).status).toBe(403);
    expect((await t.request({ url: '/api/v1/groups', token: admin.token })).status).toBe(400);

    const read = await t.request({ url: `/api/groups/${id}`, token: viewer.token });
    expect(read.status).toBe(200);
    expect(read.body.data.name).toBe('Design');
    expect((await t.request({ url: `/api/groups/${id}`, token: outsider.token })).status).toBe(403);
    expect((await t.request({ url: `/api/groups/${id}`, query: { workspaceId: other.id }, token: admin.token })).status).toBe(404);
    expect((await t.request({ url: '/api/groups/nope', token: admin.token })).status).toBe(404);

    const renamed = await t.request({ method: 'PUT', url: `/api/v1/groups/${id}`, token: admin.token, body: { name: 'Design team', description: null } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: 'Design team', description: null });
    expect((await t.request({ method: 'PUT', url: `/api/v1/groups/${id}`, token: editor.token, body: { name: 'x' } })).status).toBe(403);
    const g2 = await createGroup(t, admin, workspace.id, 'Second');
    const clash = await t.request({ method: 'PUT', url: `/api/v1/groups/${g2}`, token: admin.token, body: { name: 'DESIGN TEAM' } });
    expect(clash.status).toBe(409);

    expect((await t.request({ method: 'DELETE', url: `/api/v1/groups/${id}`, token: editor.token })).status).toBe(403);
    const deleted = await t.request({ method: 'DELETE', url: `/api/v1/groups/${id}`, token: admin.token });
    expect(deleted.body).toEqual({ data: { id, deleted: true } });
    expect((await t.request({ url: `/api/groups/${id}`, token: admin.token })).status).toBe(404);
    expect((await t.request({ method: 'DELETE', url: `/api/v1/groups/${id}`, token: admin.token })).status).toBe(404);
  });

  it('adds and removes members (workspace members only); deleting the group removes its space roles', async () => {
    const { workspace, admin, editor, viewer, outsider } = await workspaceWithRoles(t);
    const id = await createGroup(t, admin, workspace.id, 'Ops');
    const url = `/api/v1/groups/${id}/members`;
    const added = await t.request({ method: 'POST', url, token: admin.token, body: { userIds: [editor.id, viewer.id, editor.id] } });
    expect(added.status).toBe(201);
    expect(added.body.data.memberCount).toBe(2);
    expect(added.body.data.members.map((m: { id: string }) => m.id).sort()).toEqual([editor.id, viewer.id].sort());
    expect(added.body.data.members[0]).toEqual({
      id: expect.any(String),
      name: expect.any(String),
      email: expect.any(String),
      avatarUrl: null,
      addedAt: expect.any(String),
    });
    // Adding again is harmless.
    expect((await t.request({ method: 'POST', url, token: admin.token, body: { userIds: [viewer.id] } })).body.data.memberCount).toBe(2);

    const stranger = await t.request({ method: 'POST', url, token: admin.token, body: { userIds: [outsider.id] } });
    expect(stranger.status).toBe(422);
    expect(stranger.body.error.details).toMatchObject({ field: 'userIds', reason: 'not_a_workspace_member', ids: [outsider.id] });
    expect((await t.request({ method: 'POST', url, token: admin.token, body: { userIds: [] } })).status).toBe(422);
    expect((await t.request({ method: 'POST', url, token: admin.token, body: {} })).status).toBe(400);
    expect((await t.request({ method: 'POST', url, token: editor.token, body: { userIds: [admin.id] } })).status).toBe(403);

    const space = await createSpace(t, admin, workspace.id, { name: 'Ops space', visibility: 'private' });
    await addSpaceMembers(t, admin, workspace.id, space.id, { groupIds: [id], role: 'editor' });
    const see = () => t.request({ url: `/api/v1/spaces/${space.id}`, query: { workspaceId: workspace.id }, token: viewer.token });
    expect((await see()).status).toBe(200);

    const removed = await t.request({ method: 'DELETE', url: `/api/v1/groups/${id}/members/${viewer.id}`, token: admin.token });
    expect(removed.body).toEqual({ data: { id: viewer.id, deleted: true } });
    expect((await see()).status).toBe(404);
    expect((await t.request({ method: 'DELETE', url: `/api/v1/groups/${id}/members/${viewer.id}`, token: admin.token })).status).toBe(404);

    await t.request({ method: 'DELETE', url: `/api/v1/groups/${id}`, token: admin.token });
    const perms = await t.request({ url: `/api/v1/spaces/${space.id}/permissions`, token: admin.token });
    expect(perms.body.data.map((p: { targetId: string }) => p.targetId)).toEqual([admin.id]);
  });
});

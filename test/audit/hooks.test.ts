import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExport } from '../exports/helpers.js';
import { createTestApp, siblingApp, type TestApp } from '../helpers/app.js';
import { addMember, createUser, createWorkspace, type TestUser, verifyEmail } from '../helpers/factories.js';
import { createGroup, createSpace } from '../spaces/helpers.js';
import { auditLog, entriesOf } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Ana administers a workspace; Ben and Cleo are users she can add. */
async function team() {
  const [ana, ben, cleo] = await Promise.all([createUser(t, 'Ana'), createUser(t, 'Ben'), createUser(t, 'Cleo')]);
  const workspace = await createWorkspace(t, ana);
  return { ana, ben, cleo, workspaceId: workspace.id };
}

const as = (user: TestUser, extra: { address?: string; agent?: string } = {}) => ({
  token: user.token,
  ...(extra.address ? { remoteAddress: extra.address } : {}),
  headers: (extra.agent ? { 'user-agent': extra.agent } : {}) as Record<string, string>,
});

describe('workspace membership hooks', () => {
  it('records member.added, member.role_changed (from/to) and member.removed once each, with the request’s address', async () => {
    const { ana, ben, workspaceId } = await team();
    const client = as(ana, { address: '198.51.100.7', agent: 'audit-test/1.0' });
    // Ana administers the installation, so she adds Ben at once (anyone else invites him: test/invitations/member-add.test.ts).
    await verifyEmail(t, ana);
    const installation = await siblingApp(t, {}, { INSTALL_ADMINS: ana.email });
    const added = await installation.request({
      method: 'POST',
      url: `/api/v1/workspaces/${workspaceId}/members`,
      ...client,
      body: { userId: ben.id, role: 'viewer' },
    });
    await installation.app.close();
    expect(added.status).toBe(201);
    const changed = await t.request({ method: 'PUT', url: `/api/v1/workspaces/${workspaceId}/members/${ben.id}`, ...client, body: { role: 'editor' } });
    expect(changed.status).toBe(200);
    // The same role again changes nothing, so nothing is recorded.
    expect((await t.request({ method: 'PUT', url: `/api/v1/workspaces/${workspaceId}/members/${ben.id}`, ...client, body: { role: 'editor' } })).status).toBe(
      200,
    );

    const [addedEntry] = await entriesOf(t, ana, workspaceId, 'member.added');
    expect(await entriesOf(t, ana, workspaceId, 'member.added')).toHaveLength(1);
    expect(addedEntry).toMatchObject({
      workspaceId,
      actor: { id: ana.id, name: 'Ana', email: ana.email },
      target: { type: 'user', id: ben.id, name: 'Ben' },
      details: { role: 'viewer', reason: 'install_admin' },
      address: '198.51.100.7',
      userAgent: 'audit-test/1.0',
    });
    const roleChanges = await entriesOf(t, ana, workspaceId, 'member.role_changed');
    expect(roleChanges).toHaveLength(1);
    expect(roleChanges[0]).toMatchObject({ actor: { id: ana.id }, target: { type: 'user', id: ben.id }, details: { from: 'viewer', to: 'editor' } });

    expect((await t.request({ method: 'DELETE', url: `/api/v1/workspaces/${workspaceId}/members/${ben.id}`, token: ana.token })).status).toBe(200);
    const removed = await entriesOf(t, ana, workspaceId, 'member.removed');
    expect(removed).toHaveLength(1);
    expect(removed[0]).toMatchObject({
      actor: { id: ana.id },
      target: { type: 'user', id: ben.id, name: 'Ben' },
      details: { role: 'editor' },
      address: '127.0.0.1',
    });
  });

  it('records a member leaving on their own, and nothing for a change that was refused', async () => {
    const { ana, ben, workspaceId } = await team();
    await addMember(t, workspaceId, ana, ben, 'editor');
    // The last admin cannot demote herself: 422, and the log shows no role change.
    const refused = await t.request({ method: 'PUT', url: `/api/v1/workspaces/${workspaceId}/members/${ana.id}`, token: ana.token, body: { role: 'viewer' } });
    expect(refused.status).toBe(422);
    expect(await entriesOf(t, ana, workspaceId, 'member.role_changed')).toEqual([]);

    expect((await t.request({ method: 'DELETE', url: `/api/v1/workspaces/${workspaceId}/members/${ben.id}`, token: ben.token })).status).toBe(200);
    const [left] = await entriesOf(t, ana, workspaceId, 'member.removed');
    expect(left).toMatchObject({ actor: { id: ben.id }, target: { id: ben.id }, details: { role: 'editor' } });
  });
});

describe('space membership hooks', () => {
  it('records space_member.added / role_changed / removed for users and groups, with the space and roles', async () => {
    const { ana, ben, cleo, workspaceId } = await team();
    await addMember(t, workspaceId, ana, ben, 'viewer');
    await addMember(t, workspaceId, ana, cleo, 'viewer');
    const space = await createSpace(t, ana, workspaceId, { name: 'Finance', visibility: 'private' });
    const groupId = await createGroup(t, ana, workspaceId, 'Auditors');
    const members = (body: object) =>
      t.request({ method: 'POST', url: `/api/v1/spaces/${space.id}/members`, token: ana.token, body: { workspaceId, ...body } });

    expect((await members({ userIds: [ben.id], groupIds: [groupId], role: 'viewer' })).status).toBe(201);
    const added = await entriesOf(t, ana, workspaceId, 'space_member.added');
    expect(added).toHaveLength(2);
    expect(added).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ target: { type: 'user', id: ben.id, name: 'Ben' }, details: { spaceId: space.id, spaceName: 'Finance', role: 'viewer' } }),
        expect.objectContaining({
          target: { type: 'group', id: groupId, name: 'Auditors' },
          details: { spaceId: space.id, spaceName: 'Finance', role: 'viewer' },
        }),
      ]),
    );
    // Ben again with a new role: a role change, not an addition; the group is untouched.
    expect((await members({ userIds: [ben.id], role: 'editor' })).status).toBe(201);
    expect((await members({ userIds: [ben.id], role: 'editor' })).status).toBe(201);
    const changed = await entriesOf(t, ana, workspaceId, 'space_member.role_changed');
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatchObject({
      actor: { id: ana.id },
      target: { type: 'user', id: ben.id },
      details: { spaceId: space.id, from: 'viewer', to: 'editor' },
    });
    expect(await entriesOf(t, ana, workspaceId, 'space_member.added')).toHaveLength(2);

    const permission = (body: object) =>
      t.request({ method: 'PUT', url: `/api/v1/spaces/${space.id}/permissions`, token: ana.token, body: { workspaceId, ...body } });
    expect((await permission({ targetId: cleo.id, role: 'viewer' })).status).toBe(200);
    expect((await permission({ targetId: groupId, isGroup: true, role: 'admin' })).status).toBe(200);
    expect(await entriesOf(t, ana, workspaceId, 'space_member.added')).toHaveLength(3);
    const [groupChange] = await entriesOf(t, ana, workspaceId, 'space_member.role_changed');
    expect(groupChange).toMatchObject({ target: { type: 'group', id: groupId }, details: { from: 'viewer', to: 'admin' } });

    expect((await t.request({ method: 'DELETE', url: `/api/v1/spaces/${space.id}/members/${groupId}`, token: ana.token })).status).toBe(200);
    expect((await t.request({ method: 'DELETE', url: `/api/v1/spaces/${space.id}/members/${groupId}`, token: ana.token })).status).toBe(404);
    const removed = await entriesOf(t, ana, workspaceId, 'space_member.removed');
    expect(removed).toHaveLength(1);
    expect(removed[0]).toMatchObject({
      actor: { id: ana.id },
      target: { type: 'group', id: groupId },
      details: { spaceId: space.id, spaceName: 'Finance', role: 'admin' },
    });
  });
});

describe('group membership hooks', () => {
  it('records group_member.added for each user who joins and group_member.removed for each who leaves', async () => {
    const { ana, ben, cleo, workspaceId } = await team();
    await addMember(t, workspaceId, ana, ben, 'viewer');
    await addMember(t, workspaceId, ana, cleo, 'viewer');
    const groupId = await createGroup(t, ana, workspaceId, 'Design', [ben.id]);
    const add = await t.request({ method: 'POST', url: `/api/v1/groups/${groupId}/members`, token: ana.token, body: { userIds: [ben.id, cleo.id] } });
    expect(add.status).toBe(201);
    const added = await entriesOf(t, ana, workspaceId, 'group_member.added');
    // Ben joined once (he was already in on the second call); Cleo once.
    expect(added.map((e) => e.target?.id).sort()).toEqual([ben.id, cleo.id].sort());
    expect(added[0]).toMatchObject({ actor: { id: ana.id }, target: { type: 'user' }, details: { groupId, groupName: 'Design' } });

    expect((await t.request({ method: 'DELETE', url: `/api/v1/groups/${groupId}/members/${cleo.id}`, token: ana.token })).status).toBe(200);
    expect((await t.request({ method: 'DELETE', url: `/api/v1/groups/${groupId}/members/${cleo.id}`, token: ana.token })).status).toBe(404);
    const removed = await entriesOf(t, ana, workspaceId, 'group_member.removed');
    expect(removed).toHaveLength(1);
    expect(removed[0]).toMatchObject({ actor: { id: ana.id }, target: { type: 'user', id: cleo.id, name: 'Cleo' }, details: { groupId, groupName: 'Design' } });
  });
});

describe('export hook', () => {
  it('records export.created with the requester and what was exported', async () => {
    const { ana, ben, workspaceId } = await team();
    await addMember(t, workspaceId, ana, ben, 'editor');
    const space = await createSpace(t, ana, workspaceId, { name: 'Handbook' });
    const started = await startExport(t, ben, { workspaceId, spaceId: space.id, format: 'html' });
    const entries = await entriesOf(t, ana, workspaceId, 'export.created');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: { id: ben.id, name: 'Ben' },
      target: { type: 'export', id: started.id, name: null },
      details: { spaceId: space.id, pageId: null, format: 'html', includeChildren: true },
    });
    // Everything recorded in this workspace so far, newest first: the export last.
    expect((await auditLog(t, ana, workspaceId)).data[0].action).toBe('export.created');
  });
});

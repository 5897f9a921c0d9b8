import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up as dropStaleGrants } from '../../src/db/migrations/0020_drop_grants_of_former_members.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addMember, workspaceWithRoles } from '../helpers/factories.js';
import { addSpaceMembers, createGroup, createSpace } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('removing a workspace member', () => {
  it('drops their space grants and group memberships: re-added as a viewer, they are no space admin', async () => {
    const { workspace, admin, editor } = await workspaceWithRoles(t);
    const ws = workspace.id;
    const space = await createSpace(t, admin, ws, { name: 'Open', visibility: 'public' });
    const groupSpace = await createSpace(t, admin, ws, { name: 'Through a group', visibility: 'private' });
    await addSpaceMembers(t, admin, ws, space.id, { userIds: [editor.id], role: 'admin' });
    const group = await createGroup(t, admin, ws, 'Leads', [editor.id]);
    await addSpaceMembers(t, admin, ws, groupSpace.id, { groupIds: [group], role: 'admin' });
    const rename = (spaceId: string, name: string) =>
      t.request({ method: 'PUT', url: `/api/v1/spaces/${spaceId}`, token: editor.token, body: { workspaceId: ws, name } });
    expect((await rename(space.id, 'Renamed by a space admin')).status).toBe(200);
    expect((await rename(groupSpace.id, 'Renamed through the group')).status).toBe(200);

    expect((await t.request({ method: 'DELETE', url: `/api/v1/workspaces/${ws}/members/${editor.id}`, token: admin.token })).status).toBe(200);
    const grants = await t.database.db.selectFrom('spaceMembers').select('spaceId').where('workspaceId', '=', ws).where('userId', '=', editor.id).execute();
    expect(grants).toEqual([]);
    const groups = await t.database.db.selectFrom('groupMembers').select('groupId').where('workspaceId', '=', ws).where('userId', '=', editor.id).execute();
    expect(groups).toEqual([]);

    await addMember(t, ws, admin, editor, 'viewer');
    // The public space is visible to a viewer, but its admin role is gone.
    const open = await rename(space.id, 'Renamed after re-adding');
    expect(open.status).toBe(403);
    expect(open.body.error.code).toBe('FORBIDDEN');
    // The private space they reached through the group is not even visible to them any more.
    expect((await rename(groupSpace.id, 'Renamed after re-adding')).status).toBe(404);
    expect((await t.request({ url: `/api/v1/spaces/${groupSpace.id}`, token: editor.token, query: { workspaceId: ws } })).status).toBe(404);
    const members = await t.request({ url: `/api/v1/spaces/${space.id}/members`, token: admin.token, query: { workspaceId: ws } });
    expect(members.body.data.map((m: { id: string }) => m.id)).not.toContain(editor.id);
    const groupMembers = await t.request({ url: `/api/v1/groups/${group}/members`, token: admin.token, query: { workspaceId: ws } });
    expect(JSON.stringify(groupMembers.body)).not.toContain(editor.id);
  });

  it('does the same when a member leaves by themselves, and touches no other workspace', async () => {
    const first = await workspaceWithRoles(t);
    const second = await workspaceWithRoles(t);
    const leaver = first.editor;
    await addMember(t, second.workspace.id, second.admin, leaver, 'editor');
    const mine = await createSpace(t, first.admin, first.workspace.id, { name: 'First' });
    const theirs = await createSpace(t, second.admin, second.workspace.id, { name: 'Second' });
    await addSpaceMembers(t, first.admin, first.workspace.id, mine.id, { userIds: [leaver.id], role: 'admin' });
    await addSpaceMembers(t, second.admin, second.workspace.id, theirs.id, { userIds: [leaver.id], role: 'admin' });
    expect((await t.request({ method: 'DELETE', url: `/api/v1/workspaces/${first.workspace.id}/members/${leaver.id}`, token: leaver.token })).status).toBe(200);
    const left = await t.database.db.selectFrom('spaceMembers').select(['workspaceId', 'role']).where('userId', '=', leaver.id).execute();
    expect(left).toEqual([{ workspaceId: second.workspace.id, role: 'admin' }]);
  });

  it('migration 0020 drops the grants and group memberships that earlier removals left behind, and only those', async () => {
    const { workspace, admin, editor, viewer } = await workspaceWithRoles(t);
    const ws = workspace.id;
    const space = await createSpace(t, admin, ws, { name: 'Stale' });
    await addSpaceMembers(t, admin, ws, space.id, { userIds: [editor.id, viewer.id], role: 'admin' });
    const group = await createGroup(t, admin, ws, 'Stale group', [editor.id, viewer.id]);
    // A removal as it was before the fix: the workspace membership only.
    await t.database.db.deleteFrom('workspaceMembers').where('workspaceId', '=', ws).where('userId', '=', editor.id).execute();
    await dropStaleGrants(t.database.db as unknown as Kysely<unknown>);
    const grants = await t.database.db.selectFrom('spaceMembers').select('userId').where('spaceId', '=', space.id).where('userId', 'is not', null).execute();
    expect(grants.map((g) => g.userId)).not.toContain(editor.id);
    expect(grants.map((g) => g.userId)).toContain(viewer.id);
    const members = await t.database.db.selectFrom('groupMembers').select('userId').where('groupId', '=', group).execute();
    expect(members.map((m) => m.userId)).toEqual([viewer.id]);
  });
});

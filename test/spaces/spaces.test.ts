import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addMember, createUser, createWorkspace, workspaceWithRoles } from '../helpers/factories.js';
import { addSpaceMembers, createGroup, createPage, createSpace } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('spaces: create, read, update', () => {
  it('creates a space with a slug from the name, defaults, and the creator as its admin', async () => {
    const { workspace, admin } = await workspaceWithRoles(t);
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/spaces',
      token: admin.token,
      body: { workspaceId: workspace.id, name: 'Équipe Produit & Design', description: 'Docs', icon: '📘' },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      workspaceId: workspace.id,
      name: 'Équipe Produit & Design',
      slug: 'equipe-produit-design',
      description: 'Docs',
      icon: '📘',
      visibility: 'public',
      pageCount: 0,
      memberCount: 1,
      createdBy: admin.id,
    });
    expect(res.body.data.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    const read = await t.request({ url: `/api/v1/spaces/${res.body.data.id}`, query: { workspaceId: workspace.id }, token: admin.token });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(res.body.data);
    const members = await t.request({ url: `/api/spaces/${res.body.data.id}/members`, token: admin.token });
    expect(members.body.data).toEqual([expect.objectContaining({ id: admin.id, role: 'admin', via: 'direct', directRole: 'admin', groupIds: [] })]);
  });

  it('numbers generated slugs -2, -3 and refuses a given slug that is taken with 409', async () => {
    const { workspace, admin } = await workspaceWithRoles(t);
    const slugs = [];
    for (let i = 0; i < 3; i++) slugs.push((await createSpace(t, admin, workspace.id, { name: 'Engineering' })).slug);
    expect(slugs).toEqual(['engineering', 'engineering-2', 'engineering-3']);
    expect((await createSpace(t, admin, workspace.id, { name: 'Whatever', slug: 'My-Slug' })).slug).toBe('my-slug');
    const taken = await t.request({
      method: 'POST',
      url: '/api/v1/spaces',
      token: admin.token,
      body: { workspaceId: workspace.id, name: 'X', slug: 'engineering-2' },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: 'ALREADY_EXISTS', details: { field: 'slug' } });
    // Slugs are per workspace.
    const other = await createWorkspace(t, admin);
    expect((await createSpace(t, admin, other.id, { name: 'Engineering' })).slug).toBe('engineering');
    // A name without letters or digits still gets a slug.
    expect((await createSpace(t, admin, workspace.id, { name: '🚀🚀' })).slug).toBe('space');
  });

  it('validates the body: missing fields 400, bad values 422', async () => {
    const { workspace, admin } = await workspaceWithRoles(t);
    const post = (body: unknown) => t.request({ method: 'POST', url: '/api/v1/spaces', token: admin.token, body });
    const missing = await post({ workspaceId: workspace.id });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'MISSING_REQUIRED', details: { field: 'name' } });
    expect((await post({ name: 'x' })).body.error).toMatchObject({ code: 'MISSING_REQUIRED', details: { field: 'workspaceId' } });
    for (const [body, field] of [
      [{ workspaceId: workspace.id, name: 'x', visibility: 'secret' }, 'visibility'],
      [{ workspaceId: workspace.id, name: 'x', slug: 'no spaces!' }, 'slug'],
      [{ workspaceId: workspace.id, name: 'x'.repeat(201) }, 'name'],
      [{ workspaceId: workspace.id, name: '   ' }, 'name'],
      [{ workspaceId: workspace.id, name: 'x', icon: 'i'.repeat(101) }, 'icon'],
      [{ workspaceId: workspace.id, name: 42 }, 'name'],
    ] as const) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field } });
    }
    const unknownWs = await post({ workspaceId: 'nope', name: 'x' });
    expect(unknownWs.status).toBe(404);
    const missingQuery = await t.request({ url: '/api/v1/spaces', token: admin.token });
    expect(missingQuery.status).toBe(400);
    expect(missingQuery.body.error.code).toBe('MISSING_REQUIRED');
  });

  it('lets only workspace admins create; editors, viewers and outsiders get 403', async () => {
    const { workspace, editor, viewer, outsider } = await workspaceWithRoles(t);
    for (const user of [editor, viewer, outsider]) {
      const res = await t.request({ method: 'POST', url: '/api/v1/spaces', token: user.token, body: { workspaceId: workspace.id, name: 'Nope' } });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    const anonymous = await t.request({ method: 'POST', url: '/api/v1/spaces', body: { workspaceId: workspace.id, name: 'Nope' } });
    expect(anonymous.status).toBe(401);
  });

  it('updates name, description, icon and visibility; only space admins may', async () => {
    const { workspace, admin, editor, viewer } = await workspaceWithRoles(t);
    const space = await createSpace(t, admin, workspace.id, { name: 'Old' });
    const url = `/api/v1/spaces/${space.id}`;
    const res = await t.request({
      method: 'PUT',
      url,
      token: admin.token,
      body: { workspaceId: workspace.id, name: 'New', description: 'd', icon: '🧪', visibility: 'private' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'New', slug: 'old', description: 'd', icon: '🧪', visibility: 'private' });
    expect(Date.parse(res.body.data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(res.body.data.createdAt));
    const cleared = await t.request({ method: 'PUT', url, token: admin.token, body: { workspaceId: workspace.id, description: null, icon: null } });
    expect(cleared.body.data).toMatchObject({ name: 'New', description: null, icon: null });

    // A workspace editor cannot manage a public space…
    const pub = await createSpace(t, admin, workspace.id, { name: 'Pub' });
    const denied = await t.request({ method: 'PUT', url: `/api/v1/spaces/${pub.id}`, token: editor.token, body: { workspaceId: workspace.id, name: 'x' } });
    expect(denied.status).toBe(403);
    // …until they are its admin: the space role overrides the workspace role, also upwards.
    await addSpaceMembers(t, admin, workspace.id, pub.id, { userIds: [viewer.id], role: 'admin' });
    const asSpaceAdmin = await t.request({
      method: 'PUT',
      url: `/api/v1/spaces/${pub.id}`,
      token: viewer.token,
      body: { workspaceId: workspace.id, name: 'By viewer' },
    });
    expect(asSpaceAdmin.status).toBe(200);
    expect(asSpaceAdmin.body.data.name).toBe('By viewer');
    const bad = await t.request({ method: 'PUT', url, token: admin.token, body: { workspaceId: workspace.id, visibility: 'hidden' } });
    expect(bad.status).toBe(422);
    const wrongWs = await t.request({ method: 'PUT', url, token: admin.token, body: { workspaceId: (await createWorkspace(t, admin)).id, name: 'x' } });
    expect(wrongWs.status).toBe(404);
  });
});

describe('spaces: private visibility', () => {
  it('hides a private space from non-members in lists and reads; members, group members and admins see it', async () => {
    const { workspace, admin, editor, viewer, outsider } = await workspaceWithRoles(t);
    const [member, grouped] = [await createUser(t, 'Member'), await createUser(t, 'Grouped')];
    await addMember(t, workspace.id, admin, member, 'viewer');
    await addMember(t, workspace.id, admin, grouped, 'viewer');
    const pub = await createSpace(t, admin, workspace.id, { name: 'A public' });
    const priv = await createSpace(t, admin, workspace.id, { name: 'B private', visibility: 'private' });
    await addSpaceMembers(t, admin, workspace.id, priv.id, { userIds: [member.id], role: 'viewer' });
    const group = await createGroup(t, admin, workspace.id, 'Team', [grouped.id]);
    await addSpaceMembers(t, admin, workspace.id, priv.id, { groupIds: [group], role: 'editor' });

    const listFor = async (token: string) => {
      const res = await t.request({ url: '/api/v1/spaces', query: { workspaceId: workspace.id }, token });
      expect(res.status).toBe(200);
      return res.body.data.map((s: { id: string }) => s.id);
    };
    expect(await listFor(admin.token)).toEqual([pub.id, priv.id]);
    expect(await listFor(member.token)).toEqual([pub.id, priv.id]);
    expect(await listFor(grouped.token)).toEqual([pub.id, priv.id]);
    expect(await listFor(editor.token)).toEqual([pub.id]);
    expect(await listFor(viewer.token)).toEqual([pub.id]);

    const read = (token: string, id = priv.id) => t.request({ url: `/api/v1/spaces/${id}`, query: { workspaceId: workspace.id }, token });
    for (const user of [editor, viewer]) {
      const res = await read(user.token);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
      // Its members are as invisible as the space.
      expect((await t.request({ url: `/api/v1/spaces/${priv.id}/members`, token: user.token })).status).toBe(404);
    }
    expect((await read(member.token)).status).toBe(200);
    expect((await read(grouped.token)).body.data).toMatchObject({ id: priv.id, memberCount: 3 });
    // An outsider learns nothing: 403 for the workspace, whether the space exists or not.
    expect((await read(outsider.token)).status).toBe(403);
    expect((await read(outsider.token, 'no-such-space')).status).toBe(403);
    expect((await t.request({ url: '/api/v1/spaces', query: { workspaceId: workspace.id }, token: outsider.token })).status).toBe(403);
    // The space of another workspace, named with this one, does not exist.
    const other = await createWorkspace(t, admin);
    const elsewhere = await createSpace(t, admin, other.id, { name: 'Elsewhere' });
    expect((await read(admin.token, elsewhere.id)).status).toBe(404);
    expect((await read(admin.token, 'no-such-space')).status).toBe(404);

    // Removing the group's grant hides the space from the group member again.
    const removed = await t.request({ method: 'DELETE', url: `/api/v1/spaces/${priv.id}/members/${group}`, token: admin.token });
    expect(removed.status).toBe(200);
    expect(await listFor(grouped.token)).toEqual([pub.id]);
    // Making the space public shows it to everyone in the workspace.
    await t.request({ method: 'PUT', url: `/api/v1/spaces/${priv.id}`, token: admin.token, body: { workspaceId: workspace.id, visibility: 'public' } });
    expect(await listFor(viewer.token)).toEqual([pub.id, priv.id]);
  });
});

describe('spaces: members and permissions', () => {
  it('adds users and groups, lists direct and group members, and removes them', async () => {
    const { workspace, admin, editor, viewer, outsider } = await workspaceWithRoles(t);
    const space = await createSpace(t, admin, workspace.id, { name: 'Team', visibility: 'private' });
    const group = await createGroup(t, admin, workspace.id, 'Readers', [viewer.id, editor.id]);
    const url = `/api/v1/spaces/${space.id}/members`;

    const added = await t.request({ method: 'POST', url, token: admin.token, body: { workspaceId: workspace.id, userIds: [editor.id], role: 'editor' } });
    expect(added.status).toBe(201);
    const withGroup = await addSpaceMembers(t, admin, workspace.id, space.id, { groupIds: [group], role: 'viewer' });
    const byId = Object.fromEntries(withGroup.map((m: { id: string }) => [m.id, m]));
    expect(Object.keys(byId).sort()).toEqual([admin.id, editor.id, viewer.id].sort());
    expect(byId[editor.id]).toMatchObject({ role: 'editor', via: 'direct', directRole: 'editor', groupIds: [group], email: editor.email, name: 'Editor' });
    expect(byId[viewer.id]).toMatchObject({ role: 'viewer', via: 'group', directRole: null, groupIds: [group] });
    expect(byId[viewer.id].addedAt).toMatch(/^\d{4}-/);

    // Re-adding changes the role (no duplicate); the group's higher role wins over a lower direct one.
    await addSpaceMembers(t, admin, workspace.id, space.id, { userIds: [editor.id], role: 'viewer' });
    await addSpaceMembers(t, admin, workspace.id, space.id, { groupIds: [group], role: 'editor' });
    const list = await t.request({ url, token: viewer.token });
    expect(list.status).toBe(200);
    expect(list.body.data.find((m: { id: string }) => m.id === editor.id)).toMatchObject({ role: 'editor', directRole: 'viewer', via: 'direct' });
    expect((await t.request({ url: `/api/v1/spaces/${space.id}`, query: { workspaceId: workspace.id }, token: admin.token })).body.data.memberCount).toBe(3);

    const perms = await t.request({ url: `/api/v1/spaces/${space.id}/permissions`, token: admin.token });
    expect(perms.status).toBe(200);
    expect(perms.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ targetId: group, isGroup: true, name: 'Readers', role: 'editor' }),
        expect.objectContaining({ targetId: editor.id, isGroup: false, name: 'Editor', role: 'viewer' }),
      ]),
    );

    // Non-members of the workspace and groups of other workspaces are refused.
    const stranger = await t.request({
      method: 'POST',
      url,
      token: admin.token,
      body: { workspaceId: workspace.id, userIds: [outsider.id, 'ghost'], role: 'viewer' },
    });
    expect(stranger.status).toBe(422);
    expect(stranger.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'userIds', ids: [outsider.id, 'ghost'] } });
    const other = await createWorkspace(t, admin);
    const foreignGroup = await createGroup(t, admin, other.id, 'Foreign');
    const foreign = await t.request({ method: 'POST', url, token: admin.token, body: { workspaceId: workspace.id, groupIds: [foreignGroup], role: 'viewer' } });
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.details).toMatchObject({ field: 'groupIds', ids: [foreignGroup] });
    const none = await t.request({ method: 'POST', url, token: admin.token, body: { workspaceId: workspace.id, role: 'viewer' } });
    expect(none.status).toBe(400);
    const badRole = await t.request({ method: 'POST', url, token: admin.token, body: { workspaceId: workspace.id, userIds: [viewer.id], role: 'owner' } });
    expect(badRole.status).toBe(422);
    const missingRole = await t.request({ method: 'POST', url, token: admin.token, body: { workspaceId: workspace.id, userIds: [viewer.id] } });
    expect(missingRole.body.error).toMatchObject({ code: 'MISSING_REQUIRED', details: { field: 'role' } });
    // Only space admins manage members.
    const byEditor = await t.request({ method: 'POST', url, token: editor.token, body: { workspaceId: workspace.id, userIds: [viewer.id], role: 'admin' } });
    expect(byEditor.status).toBe(403);

    // Removing a direct member: the role through the group stays.
    const removed = await t.request({ method: 'DELETE', url: `/api/spaces/${space.id}/members/${editor.id}`, token: admin.token });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ data: { id: editor.id, deleted: true } });
    const after = (await t.request({ url, token: admin.token })).body.data.find((m: { id: string }) => m.id === editor.id);
    expect(after).toMatchObject({ via: 'group', directRole: null, role: 'editor' });
    const again = await t.request({ method: 'DELETE', url: `/api/spaces/${space.id}/members/${editor.id}`, token: admin.token });
    expect(again.status).toBe(404);
    const byViewer = await t.request({ method: 'DELETE', url: `/api/spaces/${space.id}/members/${admin.id}`, token: viewer.token });
    expect(byViewer.status).toBe(403);
    const unknownSpace = await t.request({ method: 'DELETE', url: `/api/spaces/nope/members/${admin.id}`, token: admin.token });
    expect(unknownSpace.status).toBe(404);
    const mismatch = await t.request({ url, query: { workspaceId: other.id }, token: admin.token });
    expect(mismatch.status).toBe(404);
  });

  it('PUT /permissions sets or inserts the role of a user or a group, and that role governs access', async () => {
    const { workspace, admin, editor, viewer, outsider } = await workspaceWithRoles(t);
    const space = await createSpace(t, admin, workspace.id, { name: 'Perms', visibility: 'private' });
    const url = `/api/v1/spaces/${space.id}/permissions`;
    const put = (token: string, body: object) => t.request({ method: 'PUT', url, token, body: { workspaceId: workspace.id, ...body } });

    const res = await put(admin.token, { targetId: viewer.id, role: 'admin' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ spaceId: space.id, targetId: viewer.id, isGroup: false, role: 'admin', name: 'Viewer' });
    // The workspace viewer is now admin of this space: they can manage its members.
    const managed = await put(viewer.token, { targetId: editor.id, role: 'viewer' });
    expect(managed.status).toBe(200);
    // …and nothing more in the workspace.
    expect((await t.request({ method: 'POST', url: '/api/v1/spaces', token: viewer.token, body: { workspaceId: workspace.id, name: 'x' } })).status).toBe(403);
    // Downgrading the editor to a space viewer: they can read but not manage.
    expect((await t.request({ url: `/api/v1/spaces/${space.id}`, query: { workspaceId: workspace.id }, token: editor.token })).status).toBe(200);
    expect((await put(editor.token, { targetId: editor.id, role: 'admin' })).status).toBe(403);

    const group = await createGroup(t, admin, workspace.id, 'G');
    const g = await put(admin.token, { targetId: group, role: 'editor', isGroup: true });
    expect(g.body.data).toMatchObject({ targetId: group, isGroup: true, role: 'editor', name: 'G' });
    const changed = await put(admin.token, { targetId: group, role: 'viewer', isGroup: true });
    expect(changed.body.data.role).toBe('viewer');
    const perms = await t.request({ url, token: admin.token });
    expect(perms.body.data.filter((p: { targetId: string }) => p.targetId === group)).toHaveLength(1);

    const notMember = await put(admin.token, { targetId: outsider.id, role: 'viewer' });
    expect(notMember.status).toBe(422);
    expect(notMember.body.error.details).toMatchObject({ field: 'targetId', reason: 'not_a_workspace_member' });
    const userAsGroup = await put(admin.token, { targetId: viewer.id, role: 'viewer', isGroup: true });
    expect(userAsGroup.status).toBe(422);
    expect((await put(admin.token, { targetId: viewer.id, role: 'boss' })).status).toBe(422);
    expect((await put(admin.token, { role: 'viewer' })).body.error).toMatchObject({ code: 'MISSING_REQUIRED', details: { field: 'targetId' } });
  });

  it('forgets the space roles of a user who leaves the workspace', async () => {
    const { workspace, admin, viewer } = await workspaceWithRoles(t);
    const space = await createSpace(t, admin, workspace.id, { name: 'Leavers', visibility: 'private' });
    await addSpaceMembers(t, admin, workspace.id, space.id, { userIds: [viewer.id], role: 'editor' });
    await t.request({ method: 'DELETE', url: `/api/v1/workspaces/${workspace.id}/members/${viewer.id}`, token: admin.token });
    const members = await t.request({ url: `/api/v1/spaces/${space.id}/members`, token: admin.token });
    expect(members.body.data.map((m: { id: string }) => m.id)).toEqual([admin.id]);
    expect((await t.request({ url: `/api/v1/spaces/${space.id}`, query: { workspaceId: workspace.id }, token: viewer.token })).status).toBe(403);
  });
});

describe('spaces: delete', () => {
  it('deletes a space (space admins only); it is then gone from reads and lists', async () => {
    const { workspace, admin, editor } = await workspaceWithRoles(t);
    const space = await createSpace(t, admin, workspace.id, { name: 'Doomed' });
    const url = `/api/v1/spaces/${space.id}`;
    expect((await t.request({ method: 'DELETE', url, query: { workspaceId: workspace.id }, token: editor.token })).status).toBe(403);
    expect((await t.request({ method: 'DELETE', url, token: admin.token })).status).toBe(400);
    const res = await t.request({ method: 'DELETE', url, query: { workspaceId: workspace.id }, token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id: space.id, deleted: true } });
    expect((await t.request({ url, query: { workspaceId: workspace.id }, token: admin.token })).status).toBe(404);
    const list = await t.request({ url: '/api/v1/spaces', query: { workspaceId: workspace.id }, token: admin.token });
    expect(list.body.data).toEqual([]);
    expect((await t.request({ method: 'DELETE', url, query: { workspaceId: workspace.id }, token: admin.token })).status).toBe(404);
  });
});

describe('spaces: pages inside', () => {
  it('counts live pages (trash excluded) in lists and reads', async () => {
    const { workspace, admin, editor, viewer } = await workspaceWithRoles(t);
    const space = await createSpace(t, admin, workspace.id, { name: 'Counted' });
    const empty = await createSpace(t, admin, workspace.id, { name: 'Empty' });
    const root = await createPage(t, editor, workspace.id, space.id, 'Root');
    await createPage(t, editor, workspace.id, space.id, 'Child', root.id);
    const other = await createPage(t, editor, workspace.id, space.id, 'Other');
    const count = async () => {
      const list = await t.request({ url: '/api/v1/spaces', query: { workspaceId: workspace.id }, token: viewer.token });
      const read = await t.request({ url: `/api/v1/spaces/${space.id}`, query: { workspaceId: workspace.id }, token: viewer.token });
      const inList = list.body.data.find((s: { id: string }) => s.id === space.id).pageCount;
      expect(read.body.data.pageCount).toBe(inList);
      expect(list.body.data.find((s: { id: string }) => s.id === empty.id).pageCount).toBe(0);
      expect(list.body.data[0]).not.toHaveProperty('memberCount');
      return inList;
    };
    expect(await count()).toBe(3);
    // Trashing a page trashes its child too: both leave the count.
    await t.request({ method: 'DELETE', url: `/api/v1/pages/${root.id}`, query: { workspaceId: workspace.id }, token: editor.token });
    expect(await count()).toBe(1);
    await t.request({ method: 'DELETE', url: `/api/v1/pages/${other.id}`, query: { workspaceId: workspace.id }, token: editor.token });
    expect(await count()).toBe(0);
  });

  it('lets the space role override the workspace role for pages, both ways', async () => {
    const { workspace, admin, editor, viewer } = await workspaceWithRoles(t);
    const space = await createSpace(t, admin, workspace.id, { name: 'Override' });
    const post = (token: string) =>
      t.request({
        method: 'POST',
        url: '/api/v1/pages',
        token,
        body: { workspaceId: workspace.id, spaceId: space.id, title: 'T', content: { type: 'doc', content: [{ type: 'paragraph' }] } },
      });
    expect((await post(viewer.token)).status).toBe(403);
    expect((await post(editor.token)).status).toBe(201);
    await addSpaceMembers(t, admin, workspace.id, space.id, { userIds: [viewer.id], role: 'editor' });
    await addSpaceMembers(t, admin, workspace.id, space.id, { userIds: [editor.id], role: 'viewer' });
    expect((await post(viewer.token)).status).toBe(201);
    expect((await post(editor.token)).status).toBe(403);
    // A workspace admin stays admin whatever their space role.
    await addSpaceMembers(t, admin, workspace.id, space.id, { userIds: [admin.id], role: 'viewer' });
    expect((await post(admin.token)).status).toBe(201);
  });

  it('keeps the pages of a private space out of a non-member’s reach', async () => {
    const { workspace, admin, viewer } = await workspaceWithRoles(t);
    const priv = await createSpace(t, admin, workspace.id, { name: 'Hidden', visibility: 'private' });
    const page = await createPage(t, admin, workspace.id, priv.id, 'Secret');
    expect((await t.request({ url: `/api/v1/pages/${page.id}`, query: { workspaceId: workspace.id }, token: viewer.token })).status).toBe(404);
    expect((await t.request({ url: '/api/v1/pages', query: { workspaceId: workspace.id, spaceId: priv.id }, token: viewer.token })).status).toBe(404);
    const read = await t.request({ url: `/api/v1/spaces/${priv.id}`, query: { workspaceId: workspace.id }, token: admin.token });
    expect(read.body.data.pageCount).toBe(1);
  });
});

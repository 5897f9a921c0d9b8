import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createWorkspace, type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { addSpaceMembers, createPage, createSpace } from '../spaces/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function setup() {
  const roles = await workspaceWithRoles(t);
  const space = await createSpace(t, roles.admin, roles.workspace.id, { name: 'Docs' });
  const page = await createPage(t, roles.editor, roles.workspace.id, space.id, 'Commented');
  return { ...roles, space, page };
}

const comment = (user: TestUser, body: object) => t.request({ method: 'POST', url: '/api/v1/comments', token: user.token, body });

describe('comments', () => {
  it('creates a comment and a reply, lists them oldest first, reads one', async () => {
    const { workspace, editor, viewer, page } = await setup();
    const created = await comment(editor, { pageId: page.id, workspaceId: workspace.id, text: '  First!  ' });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.any(String),
      pageId: page.id,
      workspaceId: workspace.id,
      parentId: null,
      text: 'First!',
      author: { id: editor.id, name: 'Editor', avatarUrl: null },
      resolved: false,
      resolvedAt: null,
      resolvedBy: null,
      deleted: false,
      deletedAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      anchor: null,
      reactions: [],
    });
    const parentId = created.body.data.id;
    const reply = await comment(editor, { pageId: page.id, workspaceId: workspace.id, text: 'A reply', parentId });
    expect(reply.status).toBe(201);
    expect(reply.body.data.parentId).toBe(parentId);

    const list = await t.request({ url: '/api/v1/comments', query: { pageId: page.id, workspaceId: workspace.id }, token: viewer.token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: { text: string }) => c.text)).toEqual(['First!', 'A reply']);
    const one = await t.request({ url: `/api/comments/${parentId}`, token: viewer.token });
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(created.body.data);
    expect((await t.request({ url: '/api/comments/nope', token: viewer.token })).status).toBe(404);
  });

  it('validates: missing fields 400, empty or long text 422, parent on another page 422', async () => {
    const { workspace, admin, editor, space, page } = await setup();
    expect((await comment(editor, { pageId: page.id, workspaceId: workspace.id })).body.error).toMatchObject({
      code: 'MISSING_REQUIRED',
      details: { field: 'text' },
    });
    expect((await comment(editor, { workspaceId: workspace.id, text: 'x' })).status).toBe(400);
    for (const text of ['   ', 'x'.repeat(10_001)]) {
      const res = await comment(editor, { pageId: page.id, workspaceId: workspace.id, text });
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'text' } });
    }
    const other = await createPage(t, editor, workspace.id, space.id, 'Other');
    const elsewhere = await comment(editor, { pageId: other.id, workspaceId: workspace.id, text: 'there' });
    const wrongParent = await comment(editor, { pageId: page.id, workspaceId: workspace.id, text: 'x', parentId: elsewhere.body.data.id });
    expect(wrongParent.status).toBe(422);
    expect(wrongParent.body.error.details).toMatchObject({ field: 'parentId', reason: 'not_on_page' });
    const ghostParent = await comment(editor, { pageId: page.id, workspaceId: workspace.id, text: 'x', parentId: 'ghost' });
    expect(ghostParent.status).toBe(422);
    expect((await comment(editor, { pageId: 'ghost', workspaceId: workspace.id, text: 'x' })).status).toBe(404);
    const otherWs = await createWorkspace(t, admin);
    expect((await comment(admin, { pageId: page.id, workspaceId: otherWs.id, text: 'x' })).status).toBe(404);
  });

  it('needs editor rights to comment and read rights to read', async () => {
    const { workspace, admin, editor, viewer, outsider, page } = await setup();
    const denied = await comment(viewer, { pageId: page.id, workspaceId: workspace.id, text: 'viewer says' });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('FORBIDDEN');
    const byOutsider = await comment(outsider, { pageId: page.id, workspaceId: workspace.id, text: 'x' });
    expect(byOutsider.status).toBe(403);
    const c = (await comment(editor, { pageId: page.id, workspaceId: workspace.id, text: 'hello' })).body.data;
    expect((await t.request({ url: '/api/v1/comments', query: { pageId: page.id, workspaceId: workspace.id }, token: outsider.token })).status).toBe(403);
    expect((await t.request({ url: `/api/v1/comments/${c.id}`, token: outsider.token })).status).toBe(403);
    // The admin comments too.
    expect((await comment(admin, { pageId: page.id, workspaceId: workspace.id, text: 'admin here' })).status).toBe(201);
  });

  it('lets only the author edit; the author or an admin delete; replies outlive a deleted parent', async () => {
    const { workspace, admin, editor, viewer, page } = await setup();
    const second = await createWorkspace(t, admin); // unused workspace id for a mismatch check
    const parent = (await comment(editor, { pageId: page.id, workspaceId: workspace.id, text: 'original' })).body.data;
    const reply = (await comment(admin, { pageId: page.id, workspaceId: workspace.id, text: 'reply', parentId: parent.id })).body.data;

    const edited = await t.request({ method: 'PUT', url: `/api/v1/comments/${parent.id}`, token: editor.token, body: { text: 'edited' } });
    expect(edited.status).toBe(200);
    expect(edited.body.data.text).toBe('edited');
    expect(Date.parse(edited.body.data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(parent.updatedAt));
    const byAdmin = await t.request({ method: 'PUT', url: `/api/v1/comments/${parent.id}`, token: admin.token, body: { text: 'hijack' } });
    expect(byAdmin.status).toBe(403);
    expect((await t.request({ method: 'PUT', url: `/api/v1/comments/${parent.id}`, token: editor.token, body: {} })).status).toBe(400);
    expect((await t.request({ method: 'PUT', url: `/api/v1/comments/${parent.id}`, token: editor.token, body: { text: '' } })).status).toBe(422);
    expect(
      (await t.request({ method: 'PUT', url: `/api/v1/comments/${parent.id}`, token: editor.token, body: { text: 'x', workspaceId: second.id } })).status,
    ).toBe(404);

    // Someone else's comment: an editor may not delete it, a viewer neither.
    expect((await t.request({ method: 'DELETE', url: `/api/v1/comments/${reply.id}`, token: editor.token })).status).toBe(403);
    expect((await t.request({ method: 'DELETE', url: `/api/v1/comments/${parent.id}`, token: viewer.token })).status).toBe(403);
    // The author deletes the parent: it stays in the list as deleted, without text, and the reply stays readable.
    const del = await t.request({ method: 'DELETE', url: `/api/v1/comments/${parent.id}`, token: editor.token });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ data: { id: parent.id, deleted: true } });
    const list = (await t.request({ url: '/api/v1/comments', query: { pageId: page.id, workspaceId: workspace.id }, token: viewer.token })).body.data;
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ id: parent.id, deleted: true, text: '', deletedAt: expect.any(String) });
    expect(list[1]).toMatchObject({ id: reply.id, parentId: parent.id, text: 'reply', deleted: false });
    expect((await t.request({ url: `/api/v1/comments/${parent.id}`, token: viewer.token })).status).toBe(410);
    expect((await t.request({ method: 'PUT', url: `/api/v1/comments/${parent.id}`, token: editor.token, body: { text: 'back' } })).status).toBe(410);
    expect((await t.request({ method: 'DELETE', url: `/api/v1/comments/${parent.id}`, token: editor.token })).status).toBe(410);
    const replyToDeleted = await comment(editor, { pageId: page.id, workspaceId: workspace.id, text: 'x', parentId: parent.id });
    expect(replyToDeleted.status).toBe(422);

    // The workspace admin deletes the reply: with no live reply left, the deleted parent leaves the list too.
    expect((await t.request({ method: 'DELETE', url: `/api/v1/comments/${reply.id}`, token: admin.token })).status).toBe(200);
    const after = await t.request({ url: '/api/v1/comments', query: { pageId: page.id, workspaceId: workspace.id }, token: viewer.token });
    expect(after.body.data).toEqual([]);
  });

  it('resolves and reopens, recording who and when', async () => {
    const { workspace, editor, viewer, admin, page } = await setup();
    const c = (await comment(editor, { pageId: page.id, workspaceId: workspace.id, text: 'fix this' })).body.data;
    const url = `/api/v1/comments/${c.id}/resolve`;
    const resolved = await t.request({ method: 'POST', url, token: admin.token, body: { workspaceId: workspace.id, resolved: true } });
    expect(resolved.status).toBe(200);
    expect(resolved.body.data).toMatchObject({ resolved: true, resolvedBy: admin.id, resolvedAt: expect.any(String) });
    // Resolving again keeps the first resolution.
    const again = await t.request({ method: 'POST', url, token: editor.token, body: { workspaceId: workspace.id, resolved: true } });
    expect(again.body.data).toMatchObject({ resolvedBy: admin.id, resolvedAt: resolved.body.data.resolvedAt });
    const reopened = await t.request({ method: 'POST', url, token: editor.token, body: { workspaceId: workspace.id, resolved: false } });
    expect(reopened.body.data).toMatchObject({ resolved: false, resolvedBy: null, resolvedAt: null });
    expect((await t.request({ method: 'POST', url, token: viewer.token, body: { workspaceId: workspace.id, resolved: true } })).status).toBe(403);
    expect((await t.request({ method: 'POST', url, token: editor.token, body: { workspaceId: workspace.id } })).status).toBe(400);
    expect((await t.request({ method: 'POST', url, token: editor.token, body: { workspaceId: workspace.id, resolved: 'yes' } })).status).toBe(422);
    expect((await t.request({ method: 'POST', url, token: editor.token, body: { resolved: true } })).status).toBe(400);
  });

  it('answers 410 for comments on a trashed page', async () => {
    const { workspace, editor, viewer, page } = await setup();
    const c = (await comment(editor, { pageId: page.id, workspaceId: workspace.id, text: 'soon gone' })).body.data;
    const trashed = await t.request({ method: 'DELETE', url: `/api/v1/pages/${page.id}`, query: { workspaceId: workspace.id }, token: editor.token });
    expect(trashed.status).toBe(200);
    const create = await comment(editor, { pageId: page.id, workspaceId: workspace.id, text: 'x' });
    expect(create.status).toBe(410);
    expect(create.body.error.code).toBe('DELETED');
    expect((await t.request({ url: '/api/v1/comments', query: { pageId: page.id, workspaceId: workspace.id }, token: viewer.token })).status).toBe(410);
    expect((await t.request({ url: `/api/v1/comments/${c.id}`, token: viewer.token })).status).toBe(410);
    expect((await t.request({ method: 'PUT', url: `/api/v1/comments/${c.id}`, token: editor.token, body: { text: 'x' } })).status).toBe(410);
    expect(
      (await t.request({ method: 'POST', url: `/api/v1/comments/${c.id}/resolve`, token: editor.token, body: { workspaceId: workspace.id, resolved: true } }))
        .status,
    ).toBe(410);
  });

  it('keeps comments of a private space from non-members; the space role decides who may comment', async () => {
    const { workspace, admin, editor, viewer } = await setup();
    const priv = await createSpace(t, admin, workspace.id, { name: 'Secret', visibility: 'private' });
    const page = await createPage(t, admin, workspace.id, priv.id, 'Hidden');
    const c = (await comment(admin, { pageId: page.id, workspaceId: workspace.id, text: 'secret' })).body.data;
    for (const user of [editor, viewer]) {
      expect((await t.request({ url: '/api/v1/comments', query: { pageId: page.id, workspaceId: workspace.id }, token: user.token })).status).toBe(404);
      expect((await t.request({ url: `/api/v1/comments/${c.id}`, token: user.token })).status).toBe(404);
      expect((await comment(user, { pageId: page.id, workspaceId: workspace.id, text: 'x' })).status).toBe(404);
    }
    // A workspace viewer made a space editor may comment; a workspace editor made a space viewer may only read.
    await addSpaceMembers(t, admin, workspace.id, priv.id, { userIds: [viewer.id], role: 'editor' });
    await addSpaceMembers(t, admin, workspace.id, priv.id, { userIds: [editor.id], role: 'viewer' });
    expect((await comment(viewer, { pageId: page.id, workspaceId: workspace.id, text: 'now I can' })).status).toBe(201);
    expect((await comment(editor, { pageId: page.id, workspaceId: workspace.id, text: 'I cannot' })).status).toBe(403);
    const list = await t.request({ url: '/api/v1/comments', query: { pageId: page.id, workspaceId: workspace.id }, token: editor.token });
    expect(list.body.data.map((x: { text: string }) => x.text)).toEqual(['secret', 'now I can']);
  });
});

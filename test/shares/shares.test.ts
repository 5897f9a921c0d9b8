import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { workspaceWithRoles } from '../helpers/factories.js';
import { createPage, createSpace } from '../spaces/helpers.js';
import { allowPublicPages, publish, restrict, sharedSetup, tokenOf, visit } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://kb.example.com/' });
});
afterAll(async () => {
  await t.close();
});

function auditOf(workspaceId: string) {
  return t.database.db
    .selectFrom('auditLog')
    .select(['action', 'actorId', 'targetType', 'targetId', 'details', 'workspaceId'])
    .where('workspaceId', '=', workspaceId)
    .where('action', 'like', 'share.%')
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
}

describe('shares: who may publish', () => {
  it('refuses to publish while the workspace does not allow public pages', async () => {
    const roles = await workspaceWithRoles(t);
    const space = await createSpace(t, roles.admin, roles.workspace.id);
    const page = await createPage(t, roles.editor, roles.workspace.id, space.id, 'Private');
    const res = await publish(t, roles.editor, page.id);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'public_pages_disabled' } });
    // Nor does an admin get around it.
    expect((await publish(t, roles.admin, page.id)).status).toBe(403);
    expect(await t.database.db.selectFrom('shares').select('id').where('pageId', '=', page.id).execute()).toEqual([]);
  });

  it('refuses viewers (403), outsiders and strangers (404), and unauthenticated callers (401)', async () => {
    const { viewer, outsider, page } = await sharedSetup(t);
    const asViewer = await publish(t, viewer, page.id);
    expect(asViewer.status).toBe(403);
    expect(asViewer.body.error.code).toBe('FORBIDDEN');
    expect((await publish(t, outsider, page.id)).status).toBe(403);
    expect((await t.request({ method: 'POST', url: `/api/v1/pages/${page.id}/share`, body: {} })).status).toBe(401);
    expect((await publish(t, viewer, 'no-such-page')).status).toBe(404);
    expect((await t.request({ url: `/api/v1/pages/${page.id}/share`, token: viewer.token })).status).toBe(403);
  });

  it('refuses a restricted page, and a page under one (403 page_restricted)', async () => {
    const { workspace, editor, space, page } = await sharedSetup(t);
    const child = await createPage(t, editor, workspace.id, space.id, 'Child', page.id);
    await restrict(t, workspace.id, page.id, [child.id], [editor]);
    for (const id of [page.id, child.id]) {
      const res = await publish(t, editor, id);
      expect(res.status).toBe(403);
      expect(res.body.error.details).toMatchObject({ reason: 'page_restricted', pageId: id });
    }
  });

  it('rejects bad input with 422 and details', async () => {
    const { editor, page } = await sharedSetup(t);
    const res = await publish(t, editor, page.id, { includeSubtree: 'yes' as unknown as boolean });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toBeDefined();
  });
});

describe('shares: publishing, updating, new links and revoking', () => {
  it('publishes once with a link shown once; publishing again updates the settings and keeps the link', async () => {
    const { workspace, space, editor, page } = await sharedSetup(t);
    const res = await publish(t, editor, page.id, { includeSubtree: true });
    expect(res.status).toBe(201);
    const { share, url } = res.body.data;
    expect(url).toMatch(/^https:\/\/kb\.example\.com\/s\/[A-Za-z0-9_-]{43}$/);
    expect(share).toEqual({
      id: expect.any(String),
      workspaceId: workspace.id,
      spaceId: space.id,
      pageId: page.id,
      includeSubtree: true,
      allowIndexing: false,
      createdBy: editor.id,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      lastViewedAt: null,
    });
    // Only the hash is kept.
    const stored = await t.database.db.selectFrom('shares').select('tokenHash').where('id', '=', share.id).executeTakeFirstOrThrow();
    expect(stored.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(tokenOf(url));

    const again = await publish(t, editor, page.id, { includeSubtree: false, allowIndexing: true });
    expect(again.status).toBe(200);
    expect(again.body.data.url).toBeNull();
    expect(again.body.data.share).toMatchObject({ id: share.id, includeSubtree: false, allowIndexing: true });
    expect((await visit(t, tokenOf(url))).status).toBe(200);

    const read = await t.request({ url: `/api/v1/pages/${page.id}/share`, token: editor.token });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: share.id, allowIndexing: true });
    expect(JSON.stringify(read.body)).not.toContain(tokenOf(url));
  });

  it('makes a new link on request: the old one dies at once', async () => {
    const { editor, page } = await sharedSetup(t);
    const first = (await publish(t, editor, page.id)).body.data;
    const second = await publish(t, editor, page.id, { newLink: true });
    expect(second.status).toBe(201);
    expect(second.body.data.share.id).not.toBe(first.share.id);
    expect((await visit(t, tokenOf(first.url))).status).toBe(404);
    expect((await visit(t, tokenOf(second.body.data.url))).status).toBe(200);
  });

  it('revokes: the page editor or a workspace admin; the link dies at once', async () => {
    const { admin, editor, viewer, outsider, page } = await sharedSetup(t);
    const { share, url } = (await publish(t, editor, page.id)).body.data;
    expect((await t.request({ method: 'DELETE', url: `/api/v1/shares/${share.id}`, token: viewer.token })).status).toBe(403);
    expect((await t.request({ method: 'DELETE', url: `/api/v1/shares/${share.id}`, token: outsider.token })).status).toBe(404);
    const res = await t.request({ method: 'DELETE', url: `/api/v1/shares/${share.id}`, token: editor.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: share.id, revoked: true });
    const gone = await visit(t, tokenOf(url));
    expect(gone.status).toBe(404);
    expect((await t.request({ url: `/api/v1/pages/${page.id}/share`, token: editor.token })).body.data).toBeNull();
    // Revoking again: no active share by that id.
    expect((await t.request({ method: 'DELETE', url: `/api/v1/shares/${share.id}`, token: admin.token })).status).toBe(404);

    // A workspace admin may revoke what someone else published.
    const next = (await publish(t, editor, page.id)).body.data;
    expect((await t.request({ method: 'DELETE', url: `/api/v1/shares/${next.share.id}`, token: admin.token })).status).toBe(200);
    expect((await visit(t, tokenOf(next.url))).status).toBe(404);
  });

  it('lists the active shares of a workspace for admins, with page title and creator', async () => {
    const { workspace, admin, editor, space, page } = await sharedSetup(t);
    const other = await createPage(t, editor, workspace.id, space.id, 'Second');
    const a = (await publish(t, editor, page.id)).body.data.share;
    const b = (await publish(t, admin, other.id, { allowIndexing: true })).body.data.share;
    const revoked = (await publish(t, editor, other.id, { newLink: true })).body.data.share;
    const res = await t.request({ url: `/api/v1/workspaces/${workspace.id}/shares`, token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.data.map((s: { id: string }) => s.id)).toEqual([revoked.id, a.id]);
    expect(res.body.data.map((s: { id: string }) => s.id)).not.toContain(b.id);
    expect(res.body.data[1]).toMatchObject({
      id: a.id,
      page: { id: page.id, title: 'Welcome', trashed: false },
      creator: { id: editor.id, name: 'Editor' },
      createdAt: expect.any(String),
    });
    expect((await t.request({ url: `/api/v1/workspaces/${workspace.id}/shares`, token: editor.token })).status).toBe(403);
  });

  it('records share.created, share.updated and share.revoked in the audit log, with the workspace and the share', async () => {
    const { workspace, editor, admin, page } = await sharedSetup(t);
    const { share } = (await publish(t, editor, page.id)).body.data;
    await publish(t, editor, page.id, { allowIndexing: true });
    await t.request({ method: 'DELETE', url: `/api/v1/shares/${share.id}`, token: admin.token });
    const rows = await auditOf(workspace.id);
    expect(rows).toEqual([
      {
        action: 'share.created',
        actorId: editor.id,
        targetType: 'share',
        targetId: share.id,
        workspaceId: workspace.id,
        details: { pageId: page.id, includeSubtree: false, allowIndexing: false },
      },
      {
        action: 'share.updated',
        actorId: editor.id,
        targetType: 'share',
        targetId: share.id,
        workspaceId: workspace.id,
        details: { pageId: page.id, includeSubtree: false, allowIndexing: true },
      },
      { action: 'share.revoked', actorId: admin.id, targetType: 'share', targetId: share.id, workspaceId: workspace.id, details: { pageId: page.id } },
    ]);
  });

  it('turning public pages off kills every link at once', async () => {
    const { workspace, admin, editor, page } = await sharedSetup(t);
    const { url } = (await publish(t, editor, page.id)).body.data;
    expect((await visit(t, tokenOf(url))).status).toBe(200);
    await allowPublicPages(t, admin, workspace.id, false);
    const off = await visit(t, tokenOf(url));
    expect(off.status).toBe(404);
    expect(off.body).toEqual((await visit(t, 'no-such-token')).body);
  });
});

describe('shares: MCP tools', () => {
  it('share_create, share_list and share_revoke call the same service', async () => {
    const { workspace, admin, page } = await sharedSetup(t);
    const call = (name: string, args: object) =>
      t.request({ method: 'POST', url: '/api/mcp-standard/call_tool', token: admin.token, body: { name, arguments: args } });
    const created = await call('share_create', { pageId: page.id, includeSubtree: true });
    expect(created.status).toBe(200);
    const url = JSON.stringify(created.body).match(/https?:\/\/[^"\\]+\/s\/[A-Za-z0-9_-]+/)?.[0];
    expect(url).toBeTruthy();
    const listed = await call('share_list', { workspaceId: workspace.id });
    expect(JSON.stringify(listed.body)).toContain(page.id);
    const shareId = (await t.request({ url: `/api/v1/pages/${page.id}/share`, token: admin.token })).body.data.id;
    const revoked = await call('share_revoke', { shareId });
    expect(JSON.stringify(revoked.body)).toContain('"revoked":true');
    expect((await visit(t, tokenOf(url as string))).status).toBe(404);
  });
});

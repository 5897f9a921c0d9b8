import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { listenOnLoopback, mcpClients } from '../helpers/mcp.js';
import { childTitles, createSpace, doc, newPage } from './helpers.js';

let t: TestApp;
let ws: string;
let space: string;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;
let base: string;
const clients = mcpClients();

beforeAll(async () => {
  t = await createTestApp();
  base = await listenOnLoopback(t);
  const w = await workspaceWithRoles(t);
  ws = w.workspace.id;
  ({ admin, editor, viewer } = w);
  space = (await createSpace(t, admin, ws, { name: 'Docs' })).id;
});
afterAll(async () => {
  await clients.close();
  await t.close();
});

const duplicate = (u: TestUser, pageId: string, body: unknown = {}) =>
  t.request({ method: 'POST', url: `/api/v1/pages/${pageId}/duplicate`, token: u.token, body });

const mcp = (u: TestUser) => clients.connect(base, u.token);
const textOf = (r: unknown) => (r as { content: Array<{ text: string }> }).content[0].text;

describe('POST /v1/pages/:pageId/duplicate', () => {
  it('copies a page beside the original as "Copy of …", with its content and icon, history and search', async () => {
    const a = await newPage(t, editor, ws, space, { title: 'Runbook', icon: '📕', content: doc('Restart the zeppelin service') });
    await newPage(t, editor, ws, space, { title: 'After' });
    const res = await duplicate(editor, a.id);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ title: 'Copy of Runbook', icon: '📕', parentId: null, copiedPages: 1, createdBy: editor.id });
    expect(await childTitles(t, editor, ws, space, 'null')).toEqual(expect.arrayContaining(['Runbook', 'Copy of Runbook', 'After']));
    const titles = await childTitles(t, editor, ws, space, 'null');
    expect(titles.indexOf('Copy of Runbook')).toBe(titles.indexOf('Runbook') + 1);
    expect(titles.indexOf('After')).toBeGreaterThan(titles.indexOf('Copy of Runbook'));
    const read = await t.request({ url: `/api/v1/pages/${res.body.data.id}`, token: viewer.token });
    expect(read.body.data.content).toEqual(doc('Restart the zeppelin service'));
    const history = await t.request({ url: `/api/v1/pages/${res.body.data.id}/history`, token: editor.token });
    expect(history.body.data).toHaveLength(1);
    const events = await t.database.db.selectFrom('domainEvents').select('type').where('pageId', '=', res.body.data.id).execute();
    expect(events.map((e) => e.type)).toEqual(['page.created']);
    const search = await t.request({ url: '/api/v1/search', token: editor.token, query: { workspaceId: ws, query: 'zeppelin' } });
    expect(JSON.stringify(search.body)).toContain('Copy of Runbook');
  });

  it('copies the subtree with includeChildren, leaving out pages the actor cannot open; the copied restriction stays', async () => {
    const root = await newPage(t, editor, ws, space, { title: 'Guide' });
    const child = await newPage(t, editor, ws, space, { title: 'Chapter 1', parentId: root.id });
    await newPage(t, editor, ws, space, { title: 'Section 1.1', parentId: child.id });
    const closed = await newPage(t, admin, ws, space, { title: 'Admin notes', parentId: root.id });
    await newPage(t, admin, ws, space, { title: 'Below admin notes', parentId: closed.id });
    const shared = await newPage(t, editor, ws, space, { title: 'Shared with viewer', parentId: root.id });
    await t.request({
      method: 'PUT',
      url: `/api/v1/pages/${closed.id}/restriction`,
      token: admin.token,
      body: { grants: [{ userId: admin.id, role: 'editor' }] },
    });
    await t.request({
      method: 'PUT',
      url: `/api/v1/pages/${shared.id}/restriction`,
      token: editor.token,
      body: { grants: [{ userId: editor.id, role: 'editor' }] },
    });

    const alone = await duplicate(editor, root.id, { title: 'Guide alone' });
    expect(alone.body.data).toMatchObject({ title: 'Guide alone', copiedPages: 1 });

    const res = await duplicate(editor, root.id, { includeChildren: true });
    expect(res.status).toBe(201);
    expect(res.body.data.copiedPages).toBe(4);
    const copy = res.body.data.id;
    expect((await childTitles(t, editor, ws, space, copy)).sort()).toEqual(['Chapter 1', 'Shared with viewer']);
    const copiedChapter = (
      await t.request({ url: '/api/v1/pages', token: editor.token, query: { workspaceId: ws, spaceId: space, parentId: copy } })
    ).body.data.find((p: { title: string }) => p.title === 'Chapter 1');
    expect(await childTitles(t, editor, ws, space, copiedChapter.id)).toEqual(['Section 1.1']);
    // the copy of a restricted page is as closed as the original: the viewer sees neither
    expect(await childTitles(t, viewer, ws, space, copy)).toEqual(['Chapter 1']);
    // the admin's closed page was not copied by the editor who cannot open it
    expect(await childTitles(t, admin, ws, space, copy)).not.toContain('Admin notes');
  });

  it('places the copy under parentId; refuses a viewer (403), an unknown page (404), a parent in the trash (422), bad input (422)', async () => {
    const p = await newPage(t, editor, ws, space, { title: 'Source' });
    const target = await newPage(t, editor, ws, space, { title: 'Target' });
    const under = await duplicate(editor, p.id, { parentId: target.id });
    expect(under.status).toBe(201);
    expect(under.body.data.parentId).toBe(target.id);
    const toRoot = await duplicate(editor, under.body.data.id, { parentId: null });
    expect(toRoot.body.data).toMatchObject({ parentId: null, title: 'Copy of Copy of Source' });

    const denied = await duplicate(viewer, p.id);
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('FORBIDDEN');
    expect((await duplicate(editor, 'nope')).status).toBe(404);
    expect((await duplicate(editor, p.id, { parentId: 'nope' })).status).toBe(404);
    const bin = await newPage(t, editor, ws, space, { title: 'Bin' });
    await t.request({ method: 'DELETE', url: `/api/v1/pages/${bin.id}`, token: editor.token });
    expect((await duplicate(editor, p.id, { parentId: bin.id })).status).toBe(422);
    expect((await duplicate(editor, bin.id)).status).toBe(410);
    expect((await duplicate(editor, p.id, { includeChildren: 'yes' })).status).toBe(422);
    expect((await duplicate(editor, p.id, { title: 'x'.repeat(501) })).status).toBe(422);
  });

  it('refuses a subtree of more than 500 pages with a clear 422', async () => {
    const root = await newPage(t, editor, ws, space, { title: 'Huge' });
    const now = new Date();
    await t.database.db
      .insertInto('pages')
      .values(
        Array.from({ length: 500 }, (_, i) => ({
          id: `huge-${i}`,
          workspaceId: ws,
          spaceId: space,
          parentId: root.id,
          title: `Leaf ${i}`,
          slug: `leaf-${i}`,
          icon: null,
          content: JSON.stringify(doc('x')),
          position: `a${String(i).padStart(3, '0')}`,
          version: 1,
          createdBy: editor.id,
          updatedBy: editor.id,
          createdAt: now,
          updatedAt: now,
        })),
      )
      .execute();
    const res = await duplicate(editor, root.id, { includeChildren: true });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'includeChildren', reason: 'too_many_pages' } });
    expect(res.body.error.message).toContain('500');
    expect((await duplicate(editor, root.id)).status).toBe(201);
  });
});

describe('MCP: page_duplicate and favourites through the SDK client', () => {
  it('duplicates, stars, lists favourites and recent pages, unstars', async () => {
    const client = await mcp(editor);
    const p = await newPage(t, editor, ws, space, { title: 'Agent page' });
    const dup = await client.callTool({ name: 'page_duplicate', arguments: { pageId: p.id } });
    expect(dup.isError).toBeFalsy();
    const copy = JSON.parse(textOf(dup));
    expect(copy).toMatchObject({ title: 'Copy of Agent page', copiedPages: 1 });

    expect((await client.callTool({ name: 'page_favorite_add', arguments: { pageId: copy.id } })).isError).toBeFalsy();
    const list = JSON.parse(textOf(await client.callTool({ name: 'page_favorite_list', arguments: { workspaceId: ws } })));
    expect(list.items.map((i: { id: string }) => i.id)).toContain(copy.id);
    const recent = JSON.parse(textOf(await client.callTool({ name: 'page_recent', arguments: { workspaceId: ws } })));
    expect(recent.updated[0]).toMatchObject({ id: copy.id, spaceName: 'Docs' });
    await client.callTool({ name: 'page_favorite_remove', arguments: { pageId: copy.id } });
    const after = JSON.parse(textOf(await client.callTool({ name: 'page_favorite_list', arguments: { workspaceId: ws } })));
    expect(after.items.map((i: { id: string }) => i.id)).not.toContain(copy.id);

    const bad = await client.callTool({ name: 'page_favorite_add', arguments: { pageId: 'nope' } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('NOT_FOUND');
  });
});

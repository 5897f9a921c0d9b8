import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { createSpace, doc, newPage } from './helpers.js';

/** The tree view of the page list, concurrent creates in one space, and history that skips identical writes. */
let t: TestApp;
let ws: string;
let space: string;
let editor: TestUser;
let viewer: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  const w = await workspaceWithRoles(t);
  ws = w.workspace.id;
  editor = w.editor;
  viewer = w.viewer;
  space = (await createSpace(t, w.admin, ws, { name: 'Tree' })).id;
});
afterAll(() => t.close());

const list = (query: Record<string, string>) => t.request({ url: '/api/v1/pages', token: viewer.token, query: { workspaceId: ws, spaceId: space, ...query } });

describe('pages: the tree view of a list', () => {
  it('gives what a tree shows, with live children only', async () => {
    const root = await newPage(t, editor, ws, space, { title: 'Handbook', icon: '📘' });
    const kids = [];
    for (const title of ['Onboarding', 'Benefits', 'Travel']) kids.push(await newPage(t, editor, ws, space, { title, parentId: root.id }));
    const del = await t.request({ method: 'DELETE', url: `/api/v1/pages/${kids[2].id}`, token: editor.token, query: { workspaceId: ws } });
    expect(del.status).toBe(200);

    const tree = await list({ parentId: 'null', view: 'tree' });
    expect(tree.status).toBe(200);
    const node = tree.body.data.find((p: { id: string }) => p.id === root.id);
    expect(Object.keys(node).sort()).toEqual(['hasChildren', 'icon', 'id', 'parentId', 'position', 'title', 'updatedAt']);
    expect(node).toMatchObject({ title: 'Handbook', icon: '📘', parentId: null, hasChildren: true });
    expect(tree.body.meta).toMatchObject({ page: 1, limit: 20, total: tree.body.data.length });

    // The full list (default) keeps every field, with the same order and counts.
    const full = await list({ parentId: 'null' });
    expect(full.status).toBe(200);
    expect(full.body.data.map((p: { id: string }) => p.id)).toEqual(tree.body.data.map((p: { id: string }) => p.id));
    expect(full.body.data.find((p: { id: string }) => p.id === root.id)).toMatchObject({ slug: 'handbook', spaceId: space, workspaceId: ws, childCount: 2 });
    expect(JSON.stringify(tree.body).length).toBeLessThan(JSON.stringify(full.body).length);

    const children = await list({ parentId: root.id, view: 'tree' });
    expect(children.body.data.map((p: { title: string }) => p.title)).toEqual(['Onboarding', 'Benefits']);
    expect(children.body.data.every((p: { hasChildren: boolean; parentId: string }) => p.hasChildren === false && p.parentId === root.id)).toBe(true);
    // Its last live child trashed, a page shows no expander.
    for (const kid of kids.slice(0, 2)) await t.request({ method: 'DELETE', url: `/api/v1/pages/${kid.id}`, token: editor.token, query: { workspaceId: ws } });
    expect((await list({ parentId: 'null', view: 'tree' })).body.data.find((p: { id: string }) => p.id === root.id).hasChildren).toBe(false);
  });

  it('refuses an unknown view in the error shape', async () => {
    const bad = await list({ parentId: 'null', view: 'everything' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'INVALID_PARAMETER' });
  });
});

describe('pages: concurrent creates in one space', () => {
  it('creates every page with a distinct order key, under one parent and at the root', async () => {
    const parent = await newPage(t, editor, ws, space, { title: 'Meeting notes' });
    const made = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t.request({
          method: 'POST',
          url: '/api/v1/pages',
          token: editor.token,
          body: { workspaceId: ws, spaceId: space, parentId: parent.id, title: `Week ${i}`, content: doc(`Notes ${i}`) },
        }),
      ),
    );
    expect(made.map((r) => r.status)).toEqual(Array(10).fill(201));
    const positions = made.map((r) => r.body.data.position as string);
    expect(new Set(positions).size).toBe(10);
    const children = await list({ parentId: parent.id, view: 'tree', limit: '100' });
    expect(children.body.data.map((p: { id: string }) => p.id).sort()).toEqual(made.map((r) => r.body.data.id).sort());
    expect((await list({ parentId: 'null', limit: '100' })).body.data.find((p: { id: string }) => p.id === parent.id).childCount).toBe(10);

    const roots = await Promise.all(Array.from({ length: 5 }, (_, i) => newPage(t, editor, ws, space, { title: `Root ${i}` })));
    expect(new Set(roots.map((p) => p.position)).size).toBe(5);
  });

  it('does not create a child under a page in the trash', async () => {
    const parent = await newPage(t, editor, ws, space, { title: 'Old plans' });
    await t.request({ method: 'DELETE', url: `/api/v1/pages/${parent.id}`, token: editor.token, query: { workspaceId: ws } });
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: editor.token,
      body: { workspaceId: ws, spaceId: space, parentId: parent.id, title: 'Late', content: doc('x') },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toMatchObject({ field: 'parentId', reason: 'deleted' });
  });
});

describe('pages: compact history', () => {
  const history = async (id: string) => (await t.request({ url: `/api/v1/pages/${id}/history`, token: viewer.token })).body;

  it('writes no entry for an update identical to the current version', async () => {
    const page = await newPage(t, editor, ws, space, { title: 'Runbook', content: doc('Restart the queue.') });
    const put = (body: object) => t.request({ method: 'PUT', url: `/api/v1/pages/${page.id}`, token: editor.token, body: { workspaceId: ws, ...body } });
    for (let i = 0; i < 2; i++) expect((await put({ title: 'Runbook v2', content: doc('Restart the queue, then the worker.') })).status).toBe(200);
    expect((await put({ markdown: 'Restart the queue, then the worker.' })).status).toBe(200);
    const entries = await history(page.id);
    expect(entries.meta.total).toBe(2);
    expect(entries.data.map((e: { version: number; summary: string }) => [e.version, e.summary])).toEqual([
      [2, 'Edited title and content'],
      [1, 'Created page'],
    ]);
  });

  it('keeps every version readable, the current one included', async () => {
    const page = await newPage(t, editor, ws, space, { title: 'Policy', content: doc('First draft.') });
    const put = await t.request({
      method: 'PUT',
      url: `/api/v1/pages/${page.id}`,
      token: editor.token,
      body: { workspaceId: ws, content: doc('Second draft.') },
    });
    expect(put.status).toBe(200);
    const entries = (await history(page.id)).data as { id: string; version: number }[];
    const read = async (e: { id: string }) => (await t.request({ url: `/api/v1/pages/${page.id}/history/${e.id}`, token: viewer.token })).body.data;
    expect((await read(entries[0])).content).toEqual(doc('Second draft.'));
    expect((await read(entries[1])).content).toEqual(doc('First draft.'));
    // Restoring the first version makes a third entry; every entry still reads as it was written.
    const restored = await t.request({ method: 'POST', url: `/api/v1/pages/${page.id}/restore`, token: editor.token, body: { historyId: entries[1].id } });
    expect(restored.status).toBe(200);
    const after = (await history(page.id)).data as { id: string; version: number }[];
    expect(after.map((e) => e.version)).toEqual([3, 2, 1]);
    expect((await read(after[0])).content).toEqual(doc('First draft.'));
    expect((await read(after[1])).content).toEqual(doc('Second draft.'));
    expect((await read(after[2])).content).toEqual(doc('First draft.'));
    const current = await t.request({ url: `/api/v1/pages/${page.id}`, token: viewer.token });
    expect(current.body.data.content).toEqual(doc('First draft.'));
    // Stored once: the current version's content is the page row's; only superseded entries keep their own copy.
    const stored = await t.database.db.selectFrom('pageHistory').select(['version', 'content']).where('pageId', '=', page.id).orderBy('version').execute();
    expect(stored.map((e) => [e.version, e.content === null])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trashJobs } from '../../src/areas/pages/trash/trash.jobs.js';
import { purgeExpiredTrash } from '../../src/areas/pages/trash/trash.service.js';
import { BlobNotFoundError, createBlobStore } from '../../src/blobs/index.js';
import type { ServiceEnv } from '../../src/context.js';
import { enqueue } from '../../src/jobs/queue.js';
import { collectJobs } from '../../src/jobs/registry.js';
import { Worker } from '../../src/jobs/worker.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { childTitles, createSpace, doc, newPage } from './helpers.js';

let t: TestApp;
let ws: string;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  const w = await workspaceWithRoles(t);
  ws = w.workspace.id;
  admin = w.admin;
  editor = w.editor;
  viewer = w.viewer;
});
afterAll(() => t.close());

const put = (id: string, body: object, user = editor) => t.request({ method: 'PUT', url: `/api/v1/pages/${id}`, token: user.token, body });
const history = async (id: string, user = editor) => {
  const res = await t.request({ url: `/api/v1/pages/${id}/history`, token: user.token });
  expect(res.status).toBe(200);
  return res.body;
};

describe('history', () => {
  it('writes an entry per title or content change, none for a no-op, newest first', async () => {
    const space = (await createSpace(t, admin, ws)).id;
    const page = await newPage(t, editor, ws, space, { title: 'v1', content: doc('one') });
    expect((await put(page.id, { title: 'v2' })).status).toBe(200);
    expect((await put(page.id, { content: doc('two') })).status).toBe(200);
    expect((await put(page.id, { title: 'v3', markdown: 'three' })).status).toBe(200);
    // nothing changes: same title, same content (given as Markdown), icon unchanged
    expect((await put(page.id, { title: 'v3', markdown: 'three\n' })).status).toBe(200);
    // icon and moves are not history
    expect((await put(page.id, { icon: '📄' })).status).toBe(200);
    const h = await history(page.id);
    expect(h.meta).toEqual({ page: 1, limit: 20, total: 4 });
    expect(h.data.map((e: { version: number; summary: string; title: string }) => [e.version, e.summary, e.title])).toEqual([
      [4, 'Edited title and content', 'v3'],
      [3, 'Edited content', 'v2'],
      [2, 'Edited title', 'v2'],
      [1, 'Created page', 'v1'],
    ]);
    for (const e of h.data) {
      expect(e).toMatchObject({ pageId: page.id, createdBy: editor.id });
      expect(e).not.toHaveProperty('content');
      expect(Date.parse(e.createdAt)).not.toBeNaN();
    }
    const one = await t.request({ url: `/api/v1/pages/${page.id}/history/${h.data[2].id}`, token: viewer.token, query: { format: 'markdown' } });
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ version: 2, title: 'v2', content: doc('one'), markdown: 'one\n' });
    const missing = await t.request({ url: `/api/v1/pages/${page.id}/history/nope`, token: editor.token });
    expect(missing.status).toBe(404);
  });

  it('restores an earlier version as a new entry and makes it current', async () => {
    const space = (await createSpace(t, admin, ws)).id;
    const page = await newPage(t, editor, ws, space, { title: 'First', content: doc('original') });
    await put(page.id, { title: 'Second', content: doc('edited') });
    const [, v1] = (await history(page.id)).data;
    const restored = await t.request({ method: 'POST', url: `/api/v1/pages/${page.id}/restore`, token: editor.token, body: { historyId: v1.id } });
    expect(restored.status).toBe(200);
    expect(restored.body.data).toMatchObject({ id: page.id, title: 'First', slug: 'first' });
    const read = await t.request({ url: `/api/v1/pages/${page.id}`, token: editor.token });
    expect(read.body.data).toMatchObject({ title: 'First', content: doc('original') });
    const h = await history(page.id);
    expect(h.data.map((e: { version: number; summary: string }) => [e.version, e.summary])).toEqual([
      [3, 'Restored version 1'],
      [2, 'Edited title and content'],
      [1, 'Created page'],
    ]);
    // entries are immutable: version 2 still holds what it held
    const v2 = await t.request({ url: `/api/v1/pages/${page.id}/history/${h.data[1].id}`, token: editor.token });
    expect(v2.body.data).toMatchObject({ title: 'Second', content: doc('edited') });
    const row = await t.database.db.selectFrom('pages').select('textContent').where('id', '=', page.id).executeTakeFirstOrThrow();
    expect(row.textContent).toBe('original');
  });

  it('restore answers with the version it replaced, and restoring that one undoes it (a new version by the restorer)', async () => {
    const space = (await createSpace(t, admin, ws)).id;
    const page = await newPage(t, admin, ws, space, { title: 'Plan', content: doc('draft') });
    await put(page.id, { content: doc('final') }, admin);
    const [current, first] = (await history(page.id)).data;
    const restored = await t.request({ method: 'POST', url: `/api/v1/pages/${page.id}/restore`, token: editor.token, body: { historyId: first.id } });
    expect(restored.status).toBe(200);
    const { restore } = restored.body.data;
    expect(restore).toMatchObject({ version: 3, restoredHistoryId: first.id, restoredVersion: 1, previousHistoryId: current.id, previousVersion: 2 });
    expect((await t.request({ url: `/api/v1/pages/${page.id}`, token: editor.token })).body.data.content).toEqual(doc('draft'));

    // Undo: restore the version that was current just before
    const undone = await t.request({
      method: 'POST',
      url: `/api/v1/pages/${page.id}/restore`,
      token: editor.token,
      body: { historyId: restore.previousHistoryId },
    });
    expect(undone.status).toBe(200);
    expect(undone.body.data.restore).toMatchObject({ version: 4, restoredVersion: 2, previousHistoryId: restore.historyId, previousVersion: 3 });
    expect((await t.request({ url: `/api/v1/pages/${page.id}`, token: editor.token })).body.data).toMatchObject({ title: 'Plan', content: doc('final') });
    const h = await history(page.id);
    expect(h.data.map((e: { id: string; version: number; summary: string; createdBy: string }) => [e.version, e.summary, e.createdBy])).toEqual([
      [4, 'Restored version 2', editor.id],
      [3, 'Restored version 1', editor.id],
      [2, 'Edited content', admin.id],
      [1, 'Created page', admin.id],
    ]);
    expect(h.data[1].id).toBe(restore.historyId);
    // the restore's own version still reads as what it restored
    const v3 = await t.request({ url: `/api/v1/pages/${page.id}/history/${restore.historyId}`, token: editor.token });
    expect(v3.body.data.content).toEqual(doc('draft'));
  });

  it('refuses to restore an entry of another page, and viewers cannot restore', async () => {
    const space = (await createSpace(t, admin, ws)).id;
    const a = await newPage(t, editor, ws, space, { title: 'A' });
    const b = await newPage(t, editor, ws, space, { title: 'B' });
    const entryOfB = (await history(b.id)).data[0].id;
    const cross = await t.request({ method: 'POST', url: `/api/v1/pages/${a.id}/restore`, token: editor.token, body: { historyId: entryOfB } });
    expect(cross.status).toBe(404);
    const noBody = await t.request({ method: 'POST', url: `/api/v1/pages/${a.id}/restore`, token: editor.token, body: {} });
    expect(noBody.status).toBe(400);
    expect(noBody.body.error).toMatchObject({ code: 'MISSING_REQUIRED', details: { field: 'historyId' } });
    const entryOfA = (await history(a.id)).data[0].id;
    const denied = await t.request({ method: 'POST', url: `/api/v1/pages/${a.id}/restore`, token: viewer.token, body: { historyId: entryOfA } });
    expect(denied.status).toBe(403);
    expect((await history(a.id)).meta.total).toBe(1);
  });

  it('keeps the history of a page across moves', async () => {
    const space = (await createSpace(t, admin, ws)).id;
    const parent = await newPage(t, editor, ws, space, { title: 'Parent' });
    const page = await newPage(t, editor, ws, space, { title: 'Mover' });
    await put(page.id, { content: doc('edited before the move') });
    expect((await put(page.id, { parentId: parent.id })).status).toBe(200);
    expect((await put(page.id, { title: 'Moved and renamed' })).status).toBe(200);
    const h = await history(page.id);
    expect(h.data.map((e: { version: number }) => e.version)).toEqual([3, 2, 1]);
  });
});

describe('trash', () => {
  it('trashes a page with all its descendants; reads give 410; lists and counts leave them out', async () => {
    const space = (await createSpace(t, admin, ws, { name: 'Trash space' })).id;
    const root = await newPage(t, editor, ws, space, { title: 'Root' });
    const child = await newPage(t, editor, ws, space, { title: 'Child', parentId: root.id });
    const grandchild = await newPage(t, editor, ws, space, { title: 'Grandchild', parentId: child.id });
    const keep = await newPage(t, editor, ws, space, { title: 'Keep' });

    const del = await t.request({ method: 'DELETE', url: `/api/v1/pages/${root.id}`, token: editor.token, query: { workspaceId: ws } });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ data: { id: root.id, deleted: true } });

    for (const id of [root.id, child.id, grandchild.id]) {
      const read = await t.request({ url: `/api/v1/pages/${id}`, token: editor.token });
      expect(read.status).toBe(410);
      expect(read.body.error.code).toBe('DELETED');
    }
    expect((await t.request({ url: `/api/v1/pages/${child.id}/history`, token: editor.token })).status).toBe(410);
    expect((await put(child.id, { title: 'x' })).status).toBe(410);
    expect((await t.request({ method: 'DELETE', url: `/api/v1/pages/${root.id}`, token: editor.token })).status).toBe(410);

    const list = await t.request({ url: '/api/v1/pages', token: editor.token, query: { workspaceId: ws, spaceId: space } });
    expect(list.body.data.map((p: { id: string }) => p.id)).toEqual([keep.id]);
    expect(list.body.meta.total).toBe(1);
    const spaceRead = await t.request({ url: `/api/v1/spaces/${space}`, token: editor.token, query: { workspaceId: ws } });
    expect(spaceRead.body.data.pageCount).toBe(1);

    const rows = await t.database.db
      .selectFrom('pages')
      .select(['id', 'deletedBy', 'trashRootId'])
      .where('id', 'in', [root.id, child.id, grandchild.id])
      .execute();
    expect(rows).toHaveLength(3);
    for (const r of rows) expect(r).toMatchObject({ deletedBy: editor.id, trashRootId: root.id });

    const trash = await t.request({ url: '/api/v1/trash', token: viewer.token, query: { workspaceId: ws, spaceId: space } });
    expect(trash.status).toBe(200);
    expect(trash.body.meta).toEqual({ page: 1, limit: 20, total: 1 });
    expect(trash.body.data[0]).toMatchObject({ id: root.id, title: 'Root', deletedBy: editor.id, descendantCount: 2 });
    const days = (Date.parse(trash.body.data[0].purgeAt) - Date.parse(trash.body.data[0].deletedAt)) / 86_400_000;
    expect(days).toBe(30);
  });

  it('recovers a page with the descendants trashed with it, not those trashed before', async () => {
    const space = (await createSpace(t, admin, ws)).id;
    const root = await newPage(t, editor, ws, space, { title: 'Root' });
    const a = await newPage(t, editor, ws, space, { title: 'A', parentId: root.id });
    const b = await newPage(t, editor, ws, space, { title: 'B', parentId: root.id });
    const deep = await newPage(t, editor, ws, space, { title: 'Deep', parentId: a.id });
    // B goes to the trash on its own first, then the whole tree
    await t.request({ method: 'DELETE', url: `/api/v1/pages/${b.id}`, token: editor.token });
    await t.request({ method: 'DELETE', url: `/api/v1/pages/${root.id}`, token: editor.token });
    const trash = await t.request({ url: '/api/v1/trash', token: editor.token, query: { workspaceId: ws, spaceId: space } });
    expect(trash.body.data.map((p: { title: string; descendantCount: number }) => [p.title, p.descendantCount])).toEqual([
      ['Root', 2],
      ['B', 0],
    ]);

    const viewerTry = await t.request({ method: 'POST', url: `/api/v1/pages/${root.id}/recover`, token: viewer.token });
    expect(viewerTry.status).toBe(403);
    const rec = await t.request({ method: 'POST', url: `/api/v1/pages/${root.id}/recover`, token: editor.token, body: { workspaceId: ws } });
    expect(rec.status).toBe(200);
    expect(rec.body.data).toMatchObject({ id: root.id, parentId: null });
    for (const id of [root.id, a.id, deep.id]) expect((await t.request({ url: `/api/v1/pages/${id}`, token: editor.token })).status).toBe(200);
    expect((await t.request({ url: `/api/v1/pages/${b.id}`, token: editor.token })).status).toBe(410);
    expect(await childTitles(t, editor, ws, space, root.id)).toEqual(['A']);
    expect(await childTitles(t, editor, ws, space, a.id)).toEqual(['Deep']);

    // B's parent is live again: B goes back under it
    const recB = await t.request({ method: 'POST', url: `/api/v1/pages/${b.id}/recover`, token: editor.token });
    expect(recB.body.data.parentId).toBe(root.id);
    const again = await t.request({ method: 'POST', url: `/api/v1/pages/${b.id}/recover`, token: editor.token });
    expect(again.status).toBe(422);
    expect(again.body.error.details.reason).toBe('not_in_trash');
    const empty = await t.request({ url: '/api/v1/trash', token: editor.token, query: { workspaceId: ws, spaceId: space } });
    expect(empty.body.data).toEqual([]);
  });

  it('recovers a descendant on its own to the space root while its parent stays in the trash', async () => {
    const space = (await createSpace(t, admin, ws)).id;
    const root = await newPage(t, editor, ws, space, { title: 'Root' });
    const child = await newPage(t, editor, ws, space, { title: 'Child', parentId: root.id });
    const grandchild = await newPage(t, editor, ws, space, { title: 'Grandchild', parentId: child.id });
    await t.request({ method: 'DELETE', url: `/api/v1/pages/${root.id}`, token: editor.token });
    const rec = await t.request({ method: 'POST', url: `/api/v1/pages/${child.id}/recover`, token: editor.token });
    expect(rec.status).toBe(200);
    expect(rec.body.data.parentId).toBeNull();
    expect(await childTitles(t, editor, ws, space, 'null')).toEqual(['Child']);
    expect(await childTitles(t, editor, ws, space, child.id)).toEqual(['Grandchild']);
    expect((await t.request({ url: `/api/v1/pages/${grandchild.id}`, token: editor.token })).status).toBe(200);
    expect((await t.request({ url: `/api/v1/pages/${root.id}`, token: editor.token })).status).toBe(410);
  });

  it('lists the trash of every readable space when no spaceId is given, and checks the workspace', async () => {
    const w = await workspaceWithRoles(t);
    const pub = (await createSpace(t, w.admin, w.workspace.id, { name: 'Pub' })).id;
    const priv = (await createSpace(t, w.admin, w.workspace.id, { name: 'Priv', visibility: 'private' })).id;
    const p1 = await newPage(t, w.admin, w.workspace.id, pub, { title: 'public gone' });
    const p2 = await newPage(t, w.admin, w.workspace.id, priv, { title: 'private gone' });
    await t.request({ method: 'DELETE', url: `/api/v1/pages/${p1.id}`, token: w.admin.token });
    await t.request({ method: 'DELETE', url: `/api/v1/pages/${p2.id}`, token: w.admin.token });
    const asAdmin = await t.request({ url: '/api/v1/trash', token: w.admin.token, query: { workspaceId: w.workspace.id } });
    expect(asAdmin.body.data.map((p: { title: string }) => p.title).sort()).toEqual(['private gone', 'public gone']);
    const asEditor = await t.request({ url: '/api/v1/trash', token: w.editor.token, query: { workspaceId: w.workspace.id } });
    expect(asEditor.body.data.map((p: { title: string }) => p.title)).toEqual(['public gone']);
    expect(asEditor.body.meta.total).toBe(1);
    const privateSpace = await t.request({ url: '/api/v1/trash', token: w.editor.token, query: { workspaceId: w.workspace.id, spaceId: priv } });
    expect(privateSpace.status).toBe(404);
    const outsider = await t.request({ url: '/api/v1/trash', token: w.outsider.token, query: { workspaceId: w.workspace.id } });
    expect(outsider.status).toBe(403);
    const noWs = await t.request({ url: '/api/v1/trash', token: w.admin.token });
    expect(noWs.status).toBe(400);
    expect(noWs.body.error.code).toBe('MISSING_REQUIRED');
  });

  it('purges pages trashed longer than the retention period, with their history and attachments', async () => {
    const space = (await createSpace(t, admin, ws)).id;
    const old = await newPage(t, editor, ws, space, { title: 'Old' });
    const oldChild = await newPage(t, editor, ws, space, { title: 'Old child', parentId: old.id });
    const recent = await newPage(t, editor, ws, space, { title: 'Recent' });
    const live = await newPage(t, editor, ws, space, { title: 'Live' });
    const file = await t.request({
      method: 'POST',
      url: '/api/v1/attachments',
      token: editor.token,
      body: { workspaceId: ws, pageId: oldChild.id, filename: 'a.txt', contentType: 'text/plain', data: Buffer.from('bytes').toString('base64') },
    });
    expect(file.status).toBe(201);
    const blobs = createBlobStore(t.config);
    const blobKey = (await t.database.db
      .selectFrom('attachments' as any)
      .select('blobKey' as any)
      .where('id', '=', file.body.data.id)
      .executeTakeFirstOrThrow()) as {
      blobKey: string;
    };
    await blobs.get(blobKey.blobKey); // stored
    await t.request({ method: 'DELETE', url: `/api/v1/pages/${old.id}`, token: editor.token });
    await t.request({ method: 'DELETE', url: `/api/v1/pages/${recent.id}`, token: editor.token });
    const db = t.database.db;
    const longAgo = new Date(Date.now() - 31 * 86_400_000);
    await db.updateTable('pages').set({ deletedAt: longAgo }).where('trashRootId', '=', old.id).execute();

    const purged = await purgeExpiredTrash(db, new Date(), 30, blobs);
    expect(purged).toBe(2);
    await expect(blobs.get(blobKey.blobKey)).rejects.toBeInstanceOf(BlobNotFoundError);
    expect((await t.request({ url: `/api/v1/attachments/${file.body.data.id}`, token: editor.token })).status).toBe(404);
    const left = await db.selectFrom('pages').select('id').where('id', 'in', [old.id, oldChild.id, recent.id, live.id]).execute();
    expect(left.map((r) => r.id).sort()).toEqual([recent.id, live.id].sort());
    const hist = await db.selectFrom('pageHistory').select('id').where('pageId', 'in', [old.id, oldChild.id]).execute();
    expect(hist).toEqual([]);

    expect((await t.request({ url: `/api/v1/pages/${old.id}`, token: editor.token })).status).toBe(404);
    expect((await t.request({ url: `/api/v1/pages/${recent.id}`, token: editor.token })).status).toBe(410);
    const trash = await t.request({ url: '/api/v1/trash', token: editor.token, query: { workspaceId: ws, spaceId: space } });
    expect(trash.body.data.map((p: { title: string }) => p.title)).toEqual(['Recent']);
    // nothing left to purge today
    expect(await purgeExpiredTrash(db, new Date(), 30)).toBe(0);
  });

  it('runs the purge periodically in the background', async () => {
    const space = (await createSpace(t, admin, ws)).id;
    const old = await newPage(t, editor, ws, space, { title: 'Old' });
    await t.request({ method: 'DELETE', url: `/api/v1/pages/${old.id}`, token: editor.token });
    await t.database.db
      .updateTable('pages')
      .set({ deletedAt: new Date(Date.now() - 2 * 86_400_000) })
      .where('id', '=', old.id)
      .execute();
    // The purge runs as a job on the durable queue, as the server's recurring scheduler enqueues it.
    const env = { config: { ...t.config, TRASH_RETENTION_DAYS: 1 }, blobs: createBlobStore(t.config) } as unknown as ServiceEnv;
    const worker = new Worker({ db: t.database.db, env, handlers: collectJobs([trashJobs]).handlers, concurrency: 1, pollMs: 20 });
    await enqueue(t.database.db, { kind: 'trash.purge', dedupeKey: 'recurring:trash.purge' });
    worker.start();
    try {
      await expect
        .poll(async () => (await t.request({ url: `/api/v1/pages/${old.id}`, token: editor.token })).status, { timeout: 5000, interval: 100 })
        .toBe(404);
    } finally {
      await worker.stop();
    }
  });
});

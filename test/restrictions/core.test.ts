import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addMember, createUser, createWorkspace, type TestUser } from '../helpers/factories.js';
import { doc, newPage } from '../pages/helpers.js';
import { createGroup, createSpace } from '../spaces/helpers.js';

/*
 * The core of page-level permissions (issue 15): `page_restricted_by` kept in step by the triggers of migration 0026
 * and the restriction service, and every read of one page (pages.policy) honouring it.
 */

let t: TestApp;
let ws: string;
let space: string;
let owner: TestUser;
let editor: TestUser;
let granted: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  [owner, editor, granted] = await Promise.all([createUser(t, 'Owner'), createUser(t, 'Editor'), createUser(t, 'Granted')]);
  ws = (await createWorkspace(t, owner)).id;
  await addMember(t, ws, owner, editor, 'editor');
  await addMember(t, ws, owner, granted, 'editor');
  space = (await createSpace(t, owner, ws, { name: 'Engineering' })).id;
});
afterAll(() => t.close());

const page = (title: string, parentId?: string) => newPage(t, owner, ws, space, { title, ...(parentId ? { parentId } : {}) });

async function restrict(pageId: string, grants: { userId?: string; groupId?: string; role: 'viewer' | 'editor' }[], as = owner) {
  const res = await t.request({ method: 'PUT', url: `/api/v1/pages/${pageId}/restriction`, token: as.token, body: { grants } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** `restriction page id` lists per page, for the pages asked about. */
async function restrictedBy(pageIds: string[]): Promise<Record<string, string[]>> {
  const rows = await t.database.db
    .selectFrom('pageRestrictedBy')
    .select(['pageId', 'restrictionPageId'])
    .where('pageId', 'in', pageIds)
    .orderBy('restrictionPageId')
    .execute();
  const out: Record<string, string[]> = Object.fromEntries(pageIds.map((id) => [id, []]));
  for (const r of rows) out[r.pageId].push(r.restrictionPageId);
  for (const id of pageIds) out[id].sort();
  return out;
}

const move = (pageId: string, parentId: string | null) =>
  t.request({ method: 'PUT', url: `/api/v1/pages/${pageId}`, token: owner.token, body: { workspaceId: ws, parentId } });

describe('page_restricted_by follows the tree', () => {
  it('restricting writes a row for the whole subtree (the trash included); a new child inherits its parent’s', async () => {
    const a = await page('A');
    const b = await page('B', a.id);
    const c = await page('C', b.id);
    const trashed = await page('Trashed', b.id);
    await t.request({ method: 'DELETE', url: `/api/v1/pages/${trashed.id}`, token: owner.token });
    await restrict(a.id, [{ userId: owner.id, role: 'editor' }]);
    const d = await page('D', c.id);
    expect(await restrictedBy([a.id, b.id, c.id, d.id, trashed.id])).toEqual({
      [a.id]: [a.id],
      [b.id]: [a.id],
      [c.id]: [a.id],
      [d.id]: [a.id],
      [trashed.id]: [a.id],
    });
  });

  it('a bulk insert (an import: parents before children, one statement) under a restricted parent restricts every page', async () => {
    const root = await page('Import target');
    await restrict(root.id, [{ userId: owner.id, role: 'editor' }]);
    const now = new Date();
    const mk = (id: string, parentId: string, position: string) => ({
      id,
      workspaceId: ws,
      spaceId: space,
      parentId,
      title: id,
      slug: id,
      icon: null,
      content: JSON.stringify(doc('x')),
      textContent: 'x',
      position,
      version: 1,
      createdBy: owner.id,
      updatedBy: owner.id,
      createdAt: now,
      updatedAt: now,
    });
    const [p1, p2, p3] = [newId(), newId(), newId()];
    await t.database.db
      .insertInto('pages')
      .values([mk(p1, root.id, 'a0'), mk(p2, p1, 'a0'), mk(p3, p2, 'a0')])
      .execute();
    expect(await restrictedBy([p1, p2, p3])).toEqual({ [p1]: [root.id], [p2]: [root.id], [p3]: [root.id] });
  });

  it('moving a subtree in takes the new parent’s rows; moving it out drops the ones from outside and keeps its own', async () => {
    const secret = await page('Secret');
    await restrict(secret.id, [{ userId: owner.id, role: 'editor' }]);
    const m = await page('Mover');
    const inner = await page('Inner', m.id);
    await restrict(inner.id, [{ userId: owner.id, role: 'editor' }]);
    const leaf = await page('Leaf', inner.id);

    expect((await move(m.id, secret.id)).status).toBe(200);
    expect(await restrictedBy([m.id, inner.id, leaf.id])).toEqual({
      [m.id]: [secret.id],
      [inner.id]: [inner.id, secret.id].sort(),
      [leaf.id]: [inner.id, secret.id].sort(),
    });

    const other = await page('Other');
    await restrict(other.id, [{ userId: owner.id, role: 'editor' }]);
    expect((await move(m.id, other.id)).status).toBe(200);
    expect(await restrictedBy([m.id, inner.id, leaf.id])).toEqual({
      [m.id]: [other.id],
      [inner.id]: [inner.id, other.id].sort(),
      [leaf.id]: [inner.id, other.id].sort(),
    });

    expect((await move(m.id, null)).status).toBe(200);
    expect(await restrictedBy([m.id, inner.id, leaf.id])).toEqual({ [m.id]: [], [inner.id]: [inner.id], [leaf.id]: [inner.id] });
  });

  it('opening a page up removes its rows only; nested restrictions stay', async () => {
    const outer = await page('Outer');
    const mid = await page('Mid', outer.id);
    const low = await page('Low', mid.id);
    await restrict(outer.id, [{ userId: owner.id, role: 'editor' }]);
    await restrict(mid.id, [{ userId: owner.id, role: 'editor' }]);
    expect((await restrictedBy([low.id]))[low.id]).toEqual([outer.id, mid.id].sort());
    const res = await t.request({ method: 'DELETE', url: `/api/v1/pages/${outer.id}/restriction`, token: owner.token });
    expect(res.status).toBe(200);
    expect(await restrictedBy([outer.id, mid.id, low.id])).toEqual({ [outer.id]: [], [mid.id]: [mid.id], [low.id]: [mid.id] });
  });
});

describe('single-page reads honour restrictions', () => {
  it('closed → 404 for everyone without a grant (workspace admins too); the grant caps the role', async () => {
    const p = await page('Capped');
    const child = await page('Capped child', p.id);
    await restrict(p.id, [
      { userId: granted.id, role: 'viewer' },
      { userId: editor.id, role: 'editor' },
    ]);
    // The owner (workspace admin) restricted it without a grant for themselves: closed to them.
    for (const id of [p.id, child.id]) {
      expect((await t.request({ url: `/api/v1/pages/${id}`, token: owner.token })).status).toBe(404);
      const read = await t.request({ url: `/api/v1/pages/${id}`, token: granted.token });
      expect(read.status).toBe(200);
      expect(read.body.data.role).toBe('viewer');
      const write = await t.request({ method: 'PUT', url: `/api/v1/pages/${id}`, token: granted.token, body: { title: 'nope' } });
      expect(write.status).toBe(403);
      const edited = await t.request({ method: 'PUT', url: `/api/v1/pages/${id}`, token: editor.token, body: { title: 'yes' } });
      expect(edited.status).toBe(200);
    }
  });
});

describe('every read path hides a restricted subtree from those it is closed to', () => {
  let grouped: TestUser;
  const ids = {} as { parent: string; r: string; rc: string; history: string; comment: string; attachment: string; group: string };
  const TITLE_WORD = 'Wombatique';
  const BODY_WORD = 'quarantinedlexeme';

  beforeAll(async () => {
    grouped = await createUser(t, 'Grouped');
    await addMember(t, ws, owner, grouped, 'editor');
    ids.group = await createGroup(t, owner, ws, 'Design', [grouped.id]);
    ids.parent = (await page('Visible parent')).id;
    ids.r = (await newPage(t, owner, ws, space, { title: `${TITLE_WORD} plan`, parentId: ids.parent, content: doc(`the ${BODY_WORD} notes`) })).id;
    ids.rc = (await newPage(t, owner, ws, space, { title: `${TITLE_WORD} child`, parentId: ids.r, content: doc(`more ${BODY_WORD}`) })).id;
    ids.history = (await t.request({ url: `/api/v1/pages/${ids.r}/history`, token: owner.token })).body.data[0].id;
    const comment = await t.request({ method: 'POST', url: '/api/v1/comments', token: owner.token, body: { pageId: ids.r, workspaceId: ws, text: 'hi' } });
    ids.comment = comment.body.data.id;
    const file = await t.request({
      method: 'POST',
      url: '/api/v1/attachments',
      token: owner.token,
      body: { pageId: ids.r, workspaceId: ws, filename: 'a.txt', contentType: 'text/plain', data: Buffer.from('secret').toString('base64') },
    });
    expect(file.status, JSON.stringify(file.body)).toBe(201);
    ids.attachment = file.body.data.id;
    await restrict(ids.r, [
      { userId: owner.id, role: 'editor' },
      { userId: granted.id, role: 'viewer' },
      { groupId: ids.group, role: 'editor' },
    ]);
  });

  it('single reads answer 404 to a space editor without a grant: page, child, history, comments, attachments', async () => {
    const calls: Record<string, Promise<{ status: number }>> = {
      page: t.request({ url: `/api/v1/pages/${ids.r}`, token: editor.token }),
      child: t.request({ url: `/api/v1/pages/${ids.rc}`, token: editor.token }),
      update: t.request({ method: 'PUT', url: `/api/v1/pages/${ids.r}`, token: editor.token, body: { title: 'x' } }),
      trash: t.request({ method: 'DELETE', url: `/api/v1/pages/${ids.rc}`, token: editor.token }),
      history: t.request({ url: `/api/v1/pages/${ids.r}/history`, token: editor.token }),
      entry: t.request({ url: `/api/v1/pages/${ids.r}/history/${ids.history}`, token: editor.token }),
      comments: t.request({ url: '/api/v1/comments', token: editor.token, query: { pageId: ids.r, workspaceId: ws } }),
      comment: t.request({ url: `/api/v1/comments/${ids.comment}`, token: editor.token }),
      commentCreate: t.request({ method: 'POST', url: '/api/v1/comments', token: editor.token, body: { pageId: ids.r, workspaceId: ws, text: 'x' } }),
      attachments: t.request({ url: '/api/v1/attachments', token: editor.token, query: { pageId: ids.r, workspaceId: ws } }),
      attachment: t.request({ url: `/api/v1/attachments/${ids.attachment}`, token: editor.token }),
      download: t.request({ url: `/api/v1/attachments/${ids.attachment}/download`, token: editor.token }),
      children: t.request({ url: '/api/v1/pages', token: editor.token, query: { workspaceId: ws, spaceId: space, parentId: ids.r } }),
      access: t.request({ url: `/api/v1/pages/${ids.r}/access`, token: editor.token }),
    };
    for (const [name, call] of Object.entries(calls)) expect.soft((await call).status, name).toBe(404);
    // The granted viewer reads them all.
    expect((await t.request({ url: `/api/v1/pages/${ids.rc}`, token: granted.token })).status).toBe(200);
    expect((await t.request({ url: `/api/v1/attachments/${ids.attachment}/download`, token: granted.token })).status).toBe(200);
    expect((await t.request({ url: '/api/v1/comments', token: granted.token, query: { pageId: ids.r, workspaceId: ws } })).status).toBe(200);
  });

  it('the tree and lists leave it out, and childCount counts only open children', async () => {
    const asUser = async (u: TestUser) => {
      const list = await t.request({ url: '/api/v1/pages', token: u.token, query: { workspaceId: ws, spaceId: space, limit: '100' } });
      const tree = await t.request({
        url: '/api/v1/pages',
        token: u.token,
        query: { workspaceId: ws, spaceId: space, parentId: 'null', view: 'tree', limit: '100' },
      });
      const parent = await t.request({ url: `/api/v1/pages/${ids.parent}`, token: u.token });
      const ids_ = list.body.data.map((p: { id: string }) => p.id);
      return {
        listed: ids_.includes(ids.r) || ids_.includes(ids.rc),
        total: list.body.meta.total as number,
        childCount: list.body.data.find((p: { id: string }) => p.id === ids.parent).childCount,
        parentChildCount: parent.body.data.childCount,
        hasChildren: tree.body.data.find((p: { id: string }) => p.id === ids.parent).hasChildren,
      };
    };
    const closed = await asUser(editor);
    const open = await asUser(granted);
    expect(closed).toMatchObject({ listed: false, childCount: 0, parentChildCount: 0, hasChildren: false });
    expect(open).toMatchObject({ listed: true, childCount: 1, parentChildCount: 1, hasChildren: true });
    expect(open.total - closed.total).toBeGreaterThanOrEqual(2);
  });

  it('search and suggest never return it, by title or body words', async () => {
    const search = (u: TestUser, query: string) => t.request({ url: '/api/v1/search', token: u.token, query: { workspaceId: ws, query } });
    const suggest = (u: TestUser, query: string) => t.request({ url: '/api/v1/search/suggest', token: u.token, query: { workspaceId: ws, query } });
    for (const q of [TITLE_WORD, BODY_WORD]) {
      expect((await search(editor, q)).body.data, q).toEqual([]);
      const found = (await search(granted, q)).body.data.map((r: { id: string }) => r.id);
      expect(found, q).toContain(ids.r);
    }
    for (const q of [BODY_WORD.slice(0, 8), TITLE_WORD.slice(0, 6).toLowerCase()]) {
      expect((await suggest(editor, q)).body.data, q).toEqual([]);
      expect((await suggest(granted, q)).body.data.length, q).toBeGreaterThan(0);
    }
  });

  it('a trashed restricted page stays out of the trash list of those it is closed to', async () => {
    const doomed = await newPage(t, grouped, ws, space, { title: 'Doomed', parentId: ids.r });
    expect((await t.request({ method: 'DELETE', url: `/api/v1/pages/${doomed.id}`, token: grouped.token })).status).toBe(200);
    const trash = (u: TestUser) => t.request({ url: '/api/v1/trash', token: u.token, query: { workspaceId: ws, spaceId: space } });
    const ids_ = async (u: TestUser) => (await trash(u)).body.data.map((p: { id: string }) => p.id);
    expect(await ids_(editor)).not.toContain(doomed.id);
    expect(await ids_(granted)).toContain(doomed.id);
    expect((await t.request({ method: 'POST', url: `/api/v1/pages/${doomed.id}/recover`, token: editor.token })).status).toBe(404);
  });

  it('grants cap the role: a viewer grant reads but cannot edit, comment or add pages; a group grant edits', async () => {
    expect((await t.request({ method: 'PUT', url: `/api/v1/pages/${ids.r}`, token: granted.token, body: { title: 'x' } })).status).toBe(403);
    const comment = await t.request({ method: 'POST', url: '/api/v1/comments', token: granted.token, body: { pageId: ids.r, workspaceId: ws, text: 'x' } });
    expect(comment.status).toBe(403);
    const child = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: granted.token,
      body: { workspaceId: ws, spaceId: space, title: 'x', parentId: ids.r, content: doc('x') },
    });
    expect(child.status).toBe(403);
    const hidden = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: editor.token,
      body: { workspaceId: ws, spaceId: space, title: 'x', parentId: ids.r, content: doc('x') },
    });
    expect(hidden.status).toBe(404);
    const edit = await t.request({
      method: 'PUT',
      url: `/api/v1/pages/${ids.r}`,
      token: grouped.token,
      body: { content: doc(`the ${BODY_WORD} notes, edited`) },
    });
    expect(edit.status).toBe(200);
    // Moving a page into the subtree needs editor rights on the new parent too.
    const mine = await newPage(t, granted, ws, space, { title: 'Mine' });
    expect((await t.request({ method: 'PUT', url: `/api/v1/pages/${mine.id}`, token: granted.token, body: { parentId: ids.r } })).status).toBe(403);
    expect((await t.request({ method: 'PUT', url: `/api/v1/pages/${mine.id}`, token: editor.token, body: { parentId: ids.r } })).status).toBe(404);
  });

  it('nested restrictions need a grant on each; moving a page out of the subtree opens it', async () => {
    const inner = await newPage(t, grouped, ws, space, { title: 'Inner room', parentId: ids.r });
    const res = await t.request({
      method: 'PUT',
      url: `/api/v1/pages/${inner.id}/restriction`,
      token: grouped.token,
      body: { grants: [{ groupId: ids.group, role: 'editor' }] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await t.request({ url: `/api/v1/pages/${inner.id}`, token: granted.token })).status).toBe(404);
    expect((await t.request({ url: `/api/v1/pages/${inner.id}`, token: grouped.token })).status).toBe(200);

    const leaving = await newPage(t, grouped, ws, space, { title: 'Leaving', parentId: ids.r });
    expect((await t.request({ url: `/api/v1/pages/${leaving.id}`, token: editor.token })).status).toBe(404);
    expect((await t.request({ method: 'PUT', url: `/api/v1/pages/${leaving.id}`, token: grouped.token, body: { parentId: ids.parent } })).status).toBe(200);
    expect((await t.request({ url: `/api/v1/pages/${leaving.id}`, token: editor.token })).status).toBe(200);
  });
});

describe('counts never tell of closed pages', () => {
  it('a space’s pageCount leaves out the pages restricted away from the caller, in the list and the single read', async () => {
    const own = (await createSpace(t, owner, ws, { name: 'Counted', visibility: 'public' })).id;
    const mk = (title: string, parentId?: string) => newPage(t, owner, ws, own, { title, ...(parentId ? { parentId } : {}) });
    const open = await mk('Open');
    const closed = await mk('Closed');
    await mk('Closed child', closed.id);
    await mk('Open child', open.id);
    await restrict(closed.id, [{ userId: owner.id, role: 'editor' }]);
    const countOf = async (who: TestUser) => {
      const one = await t.request({ url: `/api/v1/spaces/${own}?workspaceId=${ws}`, token: who.token });
      const all = await t.request({ url: `/api/v1/spaces?workspaceId=${ws}`, token: who.token });
      expect(one.status, JSON.stringify(one.body)).toBe(200);
      const listed = all.body.data.find((s: { id: string }) => s.id === own);
      return [one.body.data.pageCount, listed.pageCount];
    };
    expect(await countOf(owner)).toEqual([4, 4]);
    expect(await countOf(editor)).toEqual([2, 2]);
  });
});

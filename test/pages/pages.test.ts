import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { childTitles, createSpace, doc, newPage } from './helpers.js';

let t: TestApp;
let ws: string;
let space: string;
let admin: TestUser;
let editor: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  const w = await workspaceWithRoles(t);
  ws = w.workspace.id;
  admin = w.admin;
  editor = w.editor;
  space = (await createSpace(t, admin, ws, { name: 'Docs' })).id;
});
afterAll(() => t.close());

describe('pages: create, read, update', () => {
  it('creates a page (201, no content), reads it with content, and lists it without content', async () => {
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: editor.token,
      body: { workspaceId: ws, spaceId: space, title: '  Getting Started!  ', content: doc('Welcome', 'Second'), icon: '🚀' },
    });
    expect(created.status).toBe(201);
    const page = created.body.data;
    expect(page).toMatchObject({
      workspaceId: ws,
      spaceId: space,
      parentId: null,
      title: 'Getting Started!',
      slug: 'getting-started',
      icon: '🚀',
      createdBy: editor.id,
    });
    expect(page).not.toHaveProperty('content');
    expect(typeof page.position).toBe('string');

    const read = await t.request({ url: `/api/v1/pages/${page.id}`, token: admin.token });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: page.id, title: 'Getting Started!', content: doc('Welcome', 'Second') });
    expect(read.body.data).not.toHaveProperty('markdown');

    // also served without the version segment
    const alias = await t.request({ url: `/api/pages/${page.id}`, token: admin.token });
    expect(alias.status).toBe(200);

    const list = await t.request({ url: '/api/v1/pages', token: editor.token, query: { workspaceId: ws, spaceId: space } });
    expect(list.status).toBe(200);
    const listed = list.body.data.find((p: { id: string }) => p.id === page.id);
    expect(listed).toMatchObject({ title: 'Getting Started!' });
    expect(listed).not.toHaveProperty('content');
    expect(list.body.meta).toMatchObject({ page: 1, limit: 20 });
  });

  it('stores the plain text of the content on every write', async () => {
    const page = await newPage(t, editor, ws, space, { content: doc('alpha beta', 'gamma') });
    const row = await t.database.db.selectFrom('pages').select('textContent').where('id', '=', page.id).executeTakeFirstOrThrow();
    expect(row.textContent).toBe('alpha beta\ngamma');
    await t.request({ method: 'PUT', url: `/api/v1/pages/${page.id}`, token: editor.token, body: { workspaceId: ws, markdown: '# Head\n\nbody text' } });
    const after = await t.database.db.selectFrom('pages').select('textContent').where('id', '=', page.id).executeTakeFirstOrThrow();
    expect(after.textContent).toBe('Head\nbody text');
  });

  it('updates title, icon and content; the slug follows the title', async () => {
    const page = await newPage(t, editor, ws, space, { title: 'Old', icon: 'x' });
    const res = await t.request({
      method: 'PUT',
      url: `/api/v1/pages/${page.id}`,
      token: editor.token,
      body: { workspaceId: ws, title: 'New Name', icon: null, content: doc('changed') },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ title: 'New Name', slug: 'new-name', icon: null, updatedBy: editor.id });
    expect(res.body.data).not.toHaveProperty('content');
    const read = await t.request({ url: `/api/v1/pages/${page.id}`, token: editor.token });
    expect(read.body.data.content).toEqual(doc('changed'));
  });

  it('takes an empty title (a new page not named yet; the app shows "Untitled"), with the slug "untitled"', async () => {
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: editor.token,
      body: { workspaceId: ws, spaceId: space, title: '  ', content: { type: 'doc', content: [{ type: 'paragraph' }] } },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ title: '', slug: 'untitled' });
    const named = await t.request({ method: 'PUT', url: `/api/v1/pages/${created.body.data.id}`, token: editor.token, body: { title: 'Payments' } });
    expect(named.body.data).toMatchObject({ title: 'Payments', slug: 'payments' });
    const cleared = await t.request({ method: 'PUT', url: `/api/v1/pages/${created.body.data.id}`, token: editor.token, body: { title: '' } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.title).toBe('');
  });

  it('takes the workspace from the page; a different workspaceId gives 404', async () => {
    const page = await newPage(t, editor, ws, space);
    const wrong = await t.request({ url: `/api/v1/pages/${page.id}`, token: editor.token, query: { workspaceId: 'another-workspace' } });
    expect(wrong.status).toBe(404);
    const wrongPut = await t.request({ method: 'PUT', url: `/api/v1/pages/${page.id}`, token: editor.token, body: { workspaceId: 'nope', title: 'x' } });
    expect(wrongPut.status).toBe(404);
    expect((await t.request({ url: `/api/v1/pages/${page.id}`, token: editor.token })).body.data.title).toBe('Page');
  });

  it('answers 404 for unknown pages and spaces, 400/422 for bad input', async () => {
    expect((await t.request({ url: '/api/v1/pages/does-not-exist', token: editor.token })).status).toBe(404);
    const noSpace = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: editor.token,
      body: { workspaceId: ws, spaceId: 'nope', title: 'x', content: doc('a') },
    });
    expect(noSpace.status).toBe(404);
    const noTitle = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: editor.token,
      body: { workspaceId: ws, spaceId: space, content: doc('a') },
    });
    expect(noTitle.status).toBe(400);
    expect(noTitle.body.error).toMatchObject({ code: 'MISSING_REQUIRED', details: { field: 'title' } });
    const noContent = await t.request({ method: 'POST', url: '/api/v1/pages', token: editor.token, body: { workspaceId: ws, spaceId: space, title: 'x' } });
    expect(noContent.status).toBe(400);
    expect(noContent.body.error).toMatchObject({ code: 'MISSING_REQUIRED', details: { field: 'content' } });
    const both = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: editor.token,
      body: { workspaceId: ws, spaceId: space, title: 'x', content: doc('a'), markdown: 'a' },
    });
    expect(both.status).toBe(422);
    const longTitle = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: editor.token,
      body: { workspaceId: ws, spaceId: space, title: 'x'.repeat(501), content: doc('a') },
    });
    expect(longTitle.status).toBe(422);
    expect(longTitle.body.error.details.field).toBe('title');
    const badLimit = await t.request({ url: '/api/v1/pages', token: editor.token, query: { workspaceId: ws, spaceId: space, limit: '101' } });
    expect(badLimit.status).toBe(400);
    expect(badLimit.body.error.code).toBe('INVALID_PARAMETER');
    const zeroLimit = await t.request({ url: '/api/v1/pages', token: editor.token, query: { workspaceId: ws, spaceId: space, limit: '0' } });
    expect(zeroLimit.status).toBe(400);
    const noSpaceQuery = await t.request({ url: '/api/v1/pages', token: editor.token, query: { workspaceId: ws } });
    expect(noSpaceQuery.status).toBe(400);
    expect(noSpaceQuery.body.error.code).toBe('MISSING_REQUIRED');
  });
});

describe('pages: documents', () => {
  const create = (content: unknown) =>
    t.request({ method: 'POST', url: '/api/v1/pages', token: editor.token, body: { workspaceId: ws, spaceId: space, title: 'Bad', content } });

  it('refuses an unknown node type with the path of the node', async () => {
    const res = await create({ type: 'doc', content: [{ type: 'paragraph' }, { type: 'blockquote', content: [{ type: 'widget' }] }] });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'content', path: 'content[1].content[0]' } });
    expect(res.body.error.details.reason).toMatch(/unknown node type "widget"/);
  });

  it('refuses bad attributes (out of range, unknown, unsafe URL)', async () => {
    const level = await create({
      type: 'doc',
      content: [{ type: 'paragraph' }, { type: 'heading', attrs: { level: 9 }, content: [{ type: 'text', text: 'x' }] }],
    });
    expect(level.status).toBe(422);
    expect(level.body.error.details).toMatchObject({ field: 'content', path: 'content[1]' });
    expect(level.body.error.details.reason).toMatch(/1 to 6/);
    const unknown = await create({ type: 'doc', content: [{ type: 'paragraph', attrs: { colour: 'red' } }] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details).toMatchObject({ path: 'content[0]' });
    expect(unknown.body.error.details.reason).toMatch(/unknown attribute "colour"/);
    const link = await create({
      type: 'doc',
      content: [{ type: 'paragraph', content: [{ type: 'text', text: 'x', marks: [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }] }] }],
    });
    expect(link.status).toBe(422);
    expect(link.body.error.details.path).toBe('content[0].content[0]');
  });

  it('refuses marks that are not allowed where they are', async () => {
    const res = await create({
      type: 'doc',
      content: [
        {
          type: 'codeBlock',
          attrs: { language: 'js' },
          content: [
            { type: 'text', text: 'x' },
            { type: 'text', text: 'y', marks: [{ type: 'bold' }] },
          ],
        },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toMatchObject({ field: 'content', path: 'content[0].content[1]' });
    expect(res.body.error.details.reason).toMatch(/bold is not allowed inside codeBlock/);
    const unknownMark = await create({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'x', marks: [{ type: 'glow' }] }] }] });
    expect(unknownMark.status).toBe(422);
    expect(unknownMark.body.error.details.path).toBe('content[0].content[0].marks[0]');
  });

  it('refuses misplaced nodes and a wrong root', async () => {
    const misplaced = await create({ type: 'doc', content: [{ type: 'bulletList', content: [{ type: 'paragraph' }] }] });
    expect(misplaced.status).toBe(422);
    expect(misplaced.body.error.details.path).toBe('content[0].content[0]');
    const root = await create({ type: 'paragraph' });
    expect(root.status).toBe(422);
    expect(root.body.error.details.path).toBe('');
    const notArray = await create({ type: 'doc', content: 'text' });
    expect(notArray.status).toBe(422);
    const empty = await create({ type: 'doc', content: [] });
    expect(empty.status).toBe(422);
  });

  it('accepts the whole node set', async () => {
    const md = [
      '# Title',
      '',
      'Some **bold**, *italic*, ~~gone~~, `code`, [a link](https://example.com) and [@Ann](mention:user-1).',
      '',
      '- [ ] todo',
      '- [x] done',
      '',
      '| a | b |',
      '| --- | --- |',
      '| 1 | 2 |',
      '',
      '```python',
      'print(1)',
      '```',
      '',
      '![logo](https://example.com/logo.png)',
      '',
      '---',
    ].join('\n');
    const page = await newPage(t, editor, ws, space, { markdown: md });
    const read = await t.request({ url: `/api/v1/pages/${page.id}`, token: editor.token, query: { format: 'markdown' } });
    expect(read.status).toBe(200);
    const types = (read.body.data.content.content as { type: string }[]).map((n) => n.type);
    expect(types).toEqual(['heading', 'paragraph', 'taskList', 'table', 'codeBlock', 'image', 'horizontalRule']);
    expect(read.body.data.markdown).toBe(`${md}\n`);
    // the JSON read back is accepted as it is
    const again = await newPage(t, editor, ws, space, { content: read.body.data.content });
    const second = await t.request({ url: `/api/v1/pages/${again.id}`, token: editor.token });
    expect(second.body.data.content).toEqual(read.body.data.content);
  });
});

describe('pages: size limit', () => {
  let small: TestApp;
  let user: TestUser;
  let wsId: string;
  let spaceId: string;
  beforeAll(async () => {
    small = await createTestApp({ MAX_PAGE_BYTES: 2000 });
    const w = await workspaceWithRoles(small);
    user = w.admin;
    wsId = w.workspace.id;
    spaceId = (await createSpace(small, user, wsId)).id;
  });
  afterAll(() => small.close());

  it('refuses content and markdown over MAX_PAGE_BYTES with 422', async () => {
    const big = await small.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: user.token,
      body: { workspaceId: wsId, spaceId, title: 'Big', content: doc('x'.repeat(2100)) },
    });
    expect(big.status).toBe(422);
    expect(big.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'content', reason: 'too_large', maxBytes: 2000 } });
    const bigMd = await small.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: user.token,
      body: { workspaceId: wsId, spaceId, title: 'Big', markdown: 'y'.repeat(2100) },
    });
    expect(bigMd.status).toBe(422);
    expect(bigMd.body.error.details).toMatchObject({ field: 'markdown', reason: 'too_large' });
    const fits = await newPage(small, user, wsId, spaceId, { content: doc('x'.repeat(1500)) });
    const grow = await small.request({ method: 'PUT', url: `/api/v1/pages/${fits.id}`, token: user.token, body: { content: doc('x'.repeat(2100)) } });
    expect(grow.status).toBe(422);
    const list = await small.request({ url: '/api/v1/pages', token: user.token, query: { workspaceId: wsId, spaceId } });
    expect(list.body.meta.total).toBe(1);
  });
});

describe('pages: tree', () => {
  it('nests pages, lists direct children with parentId and every page without it', async () => {
    const s = (await createSpace(t, admin, ws, { name: 'Tree' })).id;
    const root = await newPage(t, editor, ws, s, { title: 'Root' });
    const child = await newPage(t, editor, ws, s, { title: 'Child', parentId: root.id });
    await newPage(t, editor, ws, s, { title: 'Grandchild', parentId: child.id });
    await newPage(t, editor, ws, s, { title: 'Other root' });
    expect(child.parentId).toBe(root.id);
    expect(await childTitles(t, editor, ws, s, root.id)).toEqual(['Child']);
    expect(await childTitles(t, editor, ws, s, 'null')).toEqual(['Root', 'Other root']);
    const all = await t.request({ url: '/api/v1/pages', token: editor.token, query: { workspaceId: ws, spaceId: s } });
    expect(all.body.meta.total).toBe(4);
    expect(all.body.data.map((p: { title: string }) => p.title).sort()).toEqual(['Child', 'Grandchild', 'Other root', 'Root']);
  });

  it('gives each listed page and the single read its count of live children, following moves and the trash', async () => {
    const s = (await createSpace(t, admin, ws, { name: 'Counts' })).id;
    const root = await newPage(t, editor, ws, s, { title: 'Root' });
    expect(root).toMatchObject({ childCount: 0 });
    const a = await newPage(t, editor, ws, s, { title: 'A', parentId: root.id });
    const b = await newPage(t, editor, ws, s, { title: 'B', parentId: root.id });
    await newPage(t, editor, ws, s, { title: 'A1', parentId: a.id });
    const counts = async (parentId: string) => {
      const res = await t.request({ url: '/api/v1/pages', token: editor.token, query: { workspaceId: ws, spaceId: s, parentId } });
      return Object.fromEntries(res.body.data.map((p: { title: string; childCount: number }) => [p.title, p.childCount]));
    };
    const read = async (id: string) => (await t.request({ url: `/api/v1/pages/${id}`, token: editor.token })).body.data.childCount;
    expect(await counts('null')).toEqual({ Root: 2 });
    expect(await counts(root.id)).toEqual({ A: 1, B: 0 });
    expect(await read(root.id)).toBe(2);
    // B moves under A; A's child goes to the trash, then comes back.
    const moved = await t.request({ method: 'PUT', url: `/api/v1/pages/${b.id}`, token: editor.token, body: { parentId: a.id } });
    expect(moved.body.data).toMatchObject({ parentId: a.id, childCount: 0 });
    expect(await counts(root.id)).toEqual({ A: 2 });
    expect(await read(root.id)).toBe(1);
    const a1 = (await t.request({ url: '/api/v1/pages', token: editor.token, query: { workspaceId: ws, spaceId: s, parentId: a.id } })).body.data.find(
      (p: { title: string }) => p.title === 'A1',
    );
    await t.request({ method: 'DELETE', url: `/api/v1/pages/${a1.id}`, token: editor.token, query: { workspaceId: ws } });
    expect(await read(a.id)).toBe(1);
    const recovered = await t.request({ method: 'POST', url: `/api/v1/pages/${a1.id}/recover`, token: editor.token, body: { workspaceId: ws } });
    expect(recovered.body.data).toMatchObject({ id: a1.id, childCount: 0 });
    expect(await read(a.id)).toBe(2);
  });

  it('requires the parent in the same space (422), existing (404) and live (422)', async () => {
    const a = (await createSpace(t, admin, ws, { name: 'A' })).id;
    const b = (await createSpace(t, admin, ws, { name: 'B' })).id;
    const inA = await newPage(t, editor, ws, a, { title: 'In A' });
    const inB = await newPage(t, editor, ws, b, { title: 'In B' });
    const cross = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: editor.token,
      body: { workspaceId: ws, spaceId: b, title: 'x', content: doc('a'), parentId: inA.id },
    });
    expect(cross.status).toBe(422);
    expect(cross.body.error.details).toMatchObject({ field: 'parentId', reason: 'other_space' });
    const moveAcross = await t.request({ method: 'PUT', url: `/api/v1/pages/${inB.id}`, token: editor.token, body: { parentId: inA.id } });
    expect(moveAcross.status).toBe(422);
    const missing = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: editor.token,
      body: { workspaceId: ws, spaceId: a, title: 'x', content: doc('a'), parentId: 'nope' },
    });
    expect(missing.status).toBe(404);
    const trashed = await newPage(t, editor, ws, a, { title: 'Trashed' });
    await t.request({ method: 'DELETE', url: `/api/v1/pages/${trashed.id}`, token: editor.token, query: { workspaceId: ws } });
    const underTrash = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: editor.token,
      body: { workspaceId: ws, spaceId: a, title: 'x', content: doc('a'), parentId: trashed.id },
    });
    expect(underTrash.status).toBe(422);
    expect(underTrash.body.error.details.reason).toBe('deleted');
    const listOtherSpace = await t.request({ url: '/api/v1/pages', token: editor.token, query: { workspaceId: ws, spaceId: b, parentId: inA.id } });
    expect(listOtherSpace.status).toBe(404);
  });

  it('moves pages and refuses a cycle with 422', async () => {
    const s = (await createSpace(t, admin, ws, { name: 'Moves' })).id;
    const a = await newPage(t, editor, ws, s, { title: 'A' });
    const b = await newPage(t, editor, ws, s, { title: 'B', parentId: a.id });
    const c = await newPage(t, editor, ws, s, { title: 'C', parentId: b.id });
    const self = await t.request({ method: 'PUT', url: `/api/v1/pages/${a.id}`, token: editor.token, body: { parentId: a.id } });
    expect(self.status).toBe(422);
    expect(self.body.error.details).toMatchObject({ field: 'parentId', reason: 'cycle' });
    const under = await t.request({ method: 'PUT', url: `/api/v1/pages/${a.id}`, token: editor.token, body: { parentId: c.id } });
    expect(under.status).toBe(422);
    expect(under.body.error.details.reason).toBe('cycle');
    // C to the root, then A under C: fine
    const toRoot = await t.request({ method: 'PUT', url: `/api/v1/pages/${c.id}`, token: editor.token, body: { parentId: null } });
    expect(toRoot.status).toBe(200);
    expect(toRoot.body.data.parentId).toBeNull();
    const aUnderC = await t.request({ method: 'PUT', url: `/api/v1/pages/${a.id}`, token: editor.token, body: { parentId: c.id } });
    expect(aUnderC.status).toBe(200);
    expect(await childTitles(t, editor, ws, s, c.id)).toEqual(['A']);
    expect(await childTitles(t, editor, ws, s, a.id)).toEqual(['B']);
    expect(await childTitles(t, editor, ws, s, 'null')).toEqual(['C']);
  });
});

describe('pages: ordering and pagination', () => {
  it('appends siblings at the end and places them by afterId, beforeId or position', async () => {
    const s = (await createSpace(t, admin, ws, { name: 'Order' })).id;
    const one = await newPage(t, editor, ws, s, { title: 'one' });
    const three = await newPage(t, editor, ws, s, { title: 'three' });
    await newPage(t, editor, ws, s, { title: 'two', afterId: one.id });
    await newPage(t, editor, ws, s, { title: 'zero', beforeId: one.id });
    expect(await childTitles(t, editor, ws, s, 'null')).toEqual(['zero', 'one', 'two', 'three']);
    // move "three" to the front, then "one" to the end by an explicit key
    const front = await t.request({ method: 'PUT', url: `/api/v1/pages/${three.id}`, token: editor.token, body: { beforeId: await firstId(s) } });
    expect(front.status).toBe(200);
    expect(await childTitles(t, editor, ws, s, 'null')).toEqual(['three', 'zero', 'one', 'two']);
    const last = await t.request({ method: 'PUT', url: `/api/v1/pages/${one.id}`, token: editor.token, body: { position: 'az' } });
    expect(last.status).toBe(200);
    expect(last.body.data.position).toBe('az');
    expect(await childTitles(t, editor, ws, s, 'null')).toEqual(['three', 'zero', 'two', 'one']);
    // bad placements
    const badKey = await t.request({ method: 'PUT', url: `/api/v1/pages/${one.id}`, token: editor.token, body: { position: 'a00' } });
    expect(badKey.status).toBe(422);
    expect(badKey.body.error.details).toMatchObject({ field: 'position', reason: 'invalid_key' });
    const badChars = await t.request({ method: 'PUT', url: `/api/v1/pages/${one.id}`, token: editor.token, body: { position: 'a-1' } });
    expect(badChars.status).toBe(422);
    const two = await t.request({ method: 'PUT', url: `/api/v1/pages/${one.id}`, token: editor.token, body: { afterId: three.id, beforeId: three.id } });
    expect(two.status).toBe(422);
    const child = await newPage(t, editor, ws, s, { title: 'child', parentId: three.id });
    const notSibling = await t.request({ method: 'PUT', url: `/api/v1/pages/${one.id}`, token: editor.token, body: { afterId: child.id } });
    expect(notSibling.status).toBe(422);
    expect(notSibling.body.error.details).toMatchObject({ field: 'afterId', reason: 'not_a_sibling' });
    // a move with a placement places among the new siblings
    const moved = await t.request({ method: 'PUT', url: `/api/v1/pages/${one.id}`, token: editor.token, body: { parentId: three.id, beforeId: child.id } });
    expect(moved.status).toBe(200);
    expect(await childTitles(t, editor, ws, s, three.id)).toEqual(['one', 'child']);

    async function firstId(spaceId: string) {
      const res = await t.request({ url: '/api/v1/pages', token: editor.token, query: { workspaceId: ws, spaceId, parentId: 'null', limit: '1' } });
      return res.body.data[0].id as string;
    }
  });

  it('pages through a list with limit and page, reporting the total', async () => {
    const s = (await createSpace(t, admin, ws, { name: 'Many' })).id;
    for (let i = 0; i < 25; i++) await newPage(t, editor, ws, s, { title: `p${String(i).padStart(2, '0')}` });
    const first = await t.request({ url: '/api/v1/pages', token: editor.token, query: { workspaceId: ws, spaceId: s } });
    expect(first.body.meta).toEqual({ page: 1, limit: 20, total: 25 });
    expect(first.body.data).toHaveLength(20);
    const second = await t.request({ url: '/api/v1/pages', token: editor.token, query: { workspaceId: ws, spaceId: s, page: '2' } });
    expect(second.body.data.map((p: { title: string }) => p.title)).toEqual(['p20', 'p21', 'p22', 'p23', 'p24']);
    const small = await t.request({ url: '/api/v1/pages', token: editor.token, query: { workspaceId: ws, spaceId: s, limit: '10', page: '3' } });
    expect(small.body.meta).toEqual({ page: 3, limit: 10, total: 25 });
    expect(small.body.data).toHaveLength(5);
    const past = await t.request({ url: '/api/v1/pages', token: editor.token, query: { workspaceId: ws, spaceId: s, page: '9' } });
    expect(past.body.data).toEqual([]);
    expect(past.body.meta.total).toBe(25);
  });
});

describe('pages: markdown', () => {
  it('creates from markdown, reads markdown back, and updates from markdown', async () => {
    const md = '## Plan\n\n1. first\n2. second\n\n> note with *emphasis*\n';
    const page = await newPage(t, editor, ws, space, { title: 'MD', markdown: md });
    const read = await t.request({ url: `/api/v1/pages/${page.id}`, token: editor.token, query: { format: 'markdown' } });
    expect(read.body.data.markdown).toBe(md);
    expect(read.body.data.content.content[0]).toEqual({ type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Plan' }] });
    const upd = await t.request({ method: 'PUT', url: `/api/v1/pages/${page.id}`, token: editor.token, body: { markdown: 'just text' } });
    expect(upd.status).toBe(200);
    const after = await t.request({ url: `/api/v1/pages/${page.id}`, token: editor.token, query: { format: 'markdown' } });
    expect(after.body.data.content).toEqual(doc('just text'));
    expect(after.body.data.markdown).toBe('just text\n');
    const badFormat = await t.request({ url: `/api/v1/pages/${page.id}`, token: editor.token, query: { format: 'html' } });
    expect(badFormat.status).toBe(400);
    expect(badFormat.body.error.code).toBe('INVALID_PARAMETER');
  });
});

describe('pages: highlight', () => {
  it('creates a page from Markdown with ==highlight==, stores the mark, searches its text and gives the Markdown back', async () => {
    const md = 'Ship ==before the freeze== and *not* after.\n';
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: editor.token,
      body: { workspaceId: ws, spaceId: space, title: 'Freeze', markdown: md },
    });
    expect(created.status).toBe(201);
    const read = await t.request({ url: `/api/v1/pages/${created.body.data.id}`, token: editor.token, query: { format: 'markdown' } });
    expect(read.body.data.markdown).toBe(md);
    expect(read.body.data.content.content[0].content[1]).toEqual({ type: 'text', text: 'before the freeze', marks: [{ type: 'highlight' }] });
    const found = await t.request({ url: '/api/v1/search', token: editor.token, query: { workspaceId: ws, query: 'before the freeze' } });
    expect(found.body.data.map((r: { id: string }) => r.id)).toContain(created.body.data.id);
    // JSON content with the mark is validated like any other: no attributes.
    const bad = await t.request({
      method: 'PUT',
      url: `/api/v1/pages/${created.body.data.id}`,
      token: editor.token,
      body: {
        content: {
          type: 'doc',
          content: [{ type: 'paragraph', content: [{ type: 'text', text: 'x', marks: [{ type: 'highlight', attrs: { color: 'red' } }] }] }],
        },
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
  });
});

describe('pages: API reference', () => {
  it('documents every pages endpoint in the OpenAPI document', async () => {
    const res = await t.request({ url: '/api/openapi.json' });
    expect(res.status).toBe(200);
    const paths = Object.keys(res.body.paths);
    for (const p of [
      '/api/v1/pages',
      '/api/v1/pages/{pageId}',
      '/api/v1/pages/{pageId}/history',
      '/api/v1/pages/{pageId}/history/{historyId}',
      '/api/v1/pages/{pageId}/restore',
      '/api/v1/pages/{pageId}/recover',
      '/api/v1/trash',
    ])
      expect(paths).toContain(p);
  });
});

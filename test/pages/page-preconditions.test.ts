import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { createSpace, doc, newPage } from './helpers.js';

let t: TestApp;
let ws: string;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;
let space: string;

beforeAll(async () => {
  t = await createTestApp();
  const w = await workspaceWithRoles(t);
  ({ admin, editor, viewer } = w);
  ws = w.workspace.id;
  space = (await createSpace(t, admin, ws, { name: 'Docs' })).id;
});
afterAll(() => t.close());

const read = (id: string, user = editor) => t.request({ url: `/api/v1/pages/${id}`, token: user.token });
const put = (id: string, body: Record<string, unknown>, ifMatch?: string) =>
  t.request({ method: 'PUT', url: `/api/v1/pages/${id}`, token: editor.token, body, headers: ifMatch === undefined ? {} : { 'if-match': ifMatch } });

describe('ETag on the page read', () => {
  it('answers a strong tag and the caller’s role in the space', async () => {
    const page = await newPage(t, editor, ws, space, { title: 'Tagged' });
    const res = await read(page.id);
    expect(res.status).toBe(200);
    expect(res.headers.etag).toMatch(/^"[^"]+"$/);
    expect(res.body.data.role).toBe('editor');
    expect((await read(page.id, viewer)).body.data.role).toBe('viewer');
  });

  it('keeps the tag while nothing changes and moves it when the content does', async () => {
    const page = await newPage(t, editor, ws, space, { title: 'Stable' });
    const first = (await read(page.id)).headers.etag;
    expect((await read(page.id)).headers.etag).toBe(first);
    await put(page.id, { content: doc('changed') });
    expect((await read(page.id)).headers.etag).not.toBe(first);
  });
});

describe('If-Match on PUT /pages/{id}', () => {
  it('a matching tag saves and answers the new tag, which the next read repeats', async () => {
    const page = await newPage(t, editor, ws, space, { title: 'Match' });
    const etag = (await read(page.id)).headers.etag as string;
    const res = await put(page.id, { content: doc('mine') }, etag);
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBeDefined();
    expect(res.headers.etag).not.toBe(etag);
    const after = await read(page.id);
    expect(after.headers.etag).toBe(res.headers.etag);
    expect(after.body.data.content).toEqual(doc('mine'));
  });

  it('a stale tag answers 412 in the error shape with the current tag, and the page is unchanged', async () => {
    const page = await newPage(t, editor, ws, space, { title: 'Stale', content: doc('original') });
    const stale = (await read(page.id)).headers.etag as string;
    const theirs = await put(page.id, { content: doc('theirs') });
    expect(theirs.status).toBe(200);
    const res = await put(page.id, { title: 'Mine', content: doc('mine') }, stale);
    expect(res.status).toBe(412);
    expect(res.body.error.code).toBe('PRECONDITION_FAILED');
    expect(res.body.error.message).toMatch(/changed/);
    expect(res.body.error.details).toMatchObject({ field: 'If-Match', reason: 'stale', etag: theirs.headers.etag });
    expect(Date.parse(res.body.error.details.updatedAt)).not.toBeNaN();
    const back = await read(page.id);
    expect(back.body.data.title).toBe('Stale');
    expect(back.body.data.content).toEqual(doc('theirs'));
    expect(back.headers.etag).toBe(theirs.headers.etag);
  });

  it('without the header the last write wins, as before', async () => {
    const page = await newPage(t, editor, ws, space, { title: 'Absent' });
    await put(page.id, { content: doc('first') });
    const res = await put(page.id, { content: doc('second') });
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBeDefined();
    expect((await read(page.id)).body.data.content).toEqual(doc('second'));
  });

  it('`*` matches any live page, a list matches when one entry does, and a weak or garbled tag never does', async () => {
    const page = await newPage(t, editor, ws, space, { title: 'Lists' });
    expect((await put(page.id, { content: doc('a') }, '*')).status).toBe(200);
    const etag = (await read(page.id)).headers.etag as string;
    expect((await put(page.id, { content: doc('b') }, `"nope", ${etag}`)).status).toBe(200);
    const now = (await read(page.id)).headers.etag as string;
    expect((await put(page.id, { content: doc('c') }, `W/${now}`)).status).toBe(412);
    expect((await put(page.id, { content: doc('c') }, 'not a tag')).status).toBe(412);
    expect((await read(page.id)).body.data.content).toEqual(doc('b'));
  });

  it('checks access before the precondition: a viewer gets 403 whatever the tag', async () => {
    const page = await newPage(t, editor, ws, space, { title: 'Guarded' });
    const res = await t.request({
      method: 'PUT',
      url: `/api/v1/pages/${page.id}`,
      token: viewer.token,
      body: { title: 'X' },
      headers: { 'if-match': '"v999"' },
    });
    expect(res.status).toBe(403);
  });

  it('a restore moves the tag, so an editor holding the old one is told', async () => {
    const page = await newPage(t, editor, ws, space, { title: 'Restored', content: doc('one') });
    await put(page.id, { content: doc('two') });
    const before = (await read(page.id)).headers.etag as string;
    const history = await t.request({ url: `/api/v1/pages/${page.id}/history`, token: editor.token });
    const oldest = history.body.data.at(-1).id;
    expect((await t.request({ method: 'POST', url: `/api/v1/pages/${page.id}/restore`, token: editor.token, body: { historyId: oldest } })).status).toBe(200);
    expect((await put(page.id, { content: doc('three') }, before)).status).toBe(412);
  });
});

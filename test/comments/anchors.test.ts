import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { type CollabClient, connect, eventually, putParagraphs } from '../collab/helpers.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { workspaceWithRoles } from '../helpers/factories.js';
import { createSpace, doc, newPage } from '../pages/helpers.js';

/**
 * Comments on a range of text: anchored with Yjs relative positions (given by the editor, or found from a quote), the
 * range follows edits made before it — over REST and by a co-editor — and reactions on comments.
 */
let t: TestApp;
let base: string;
let w: Awaited<ReturnType<typeof workspaceWithRoles>>;
let space: string;
const clients: CollabClient[] = [];

beforeAll(async () => {
  t = await createTestApp({ COLLAB_SAVE_DEBOUNCE_MS: 100, COLLAB_SAVE_MAX_WAIT_MS: 500 } as never);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  w = await workspaceWithRoles(t);
  space = (await createSpace(t, w.admin, w.workspace.id, { name: 'Reviewed' })).id;
});

afterAll(async () => {
  for (const c of clients) c.destroy();
  await t.close();
});

const page = (title: string, ...paragraphs: string[]) => newPage(t, w.editor, w.workspace.id, space, { title, content: doc(...paragraphs) });
const comment = (token: string, body: object) => t.request({ method: 'POST', url: '/api/v1/comments', token, body });
const comments = async (pageId: string) =>
  (await t.request({ url: '/api/v1/comments', query: { pageId, workspaceId: w.workspace.id }, token: w.viewer.token })).body.data;

const decode = (value: string) => Y.decodeRelativePosition(new Uint8Array(Buffer.from(value, 'base64')));

/** The plain text an anchor covers in a Yjs document (one run of text). */
function covered(ydoc: Y.Doc, anchor: { start: string; end: string }): string | null {
  const start = Y.createAbsolutePositionFromRelativePosition(decode(anchor.start), ydoc);
  const end = Y.createAbsolutePositionFromRelativePosition(decode(anchor.end), ydoc);
  if (!start || !end || start.type !== end.type || !(start.type instanceof Y.XmlText)) return null;
  return start.type.toString().slice(start.index, end.index);
}

/** The page's stored live document. */
async function storedDoc(pageId: string): Promise<Y.Doc> {
  const row = await t.database.db.selectFrom('pages').select('ydoc').where('id', '=', pageId).executeTakeFirstOrThrow();
  const ydoc = new Y.Doc();
  Y.applyUpdate(ydoc, row.ydoc!);
  return ydoc;
}

function open(pageId: string, token: string) {
  const client = connect(base, pageId, token);
  clients.push(client);
  return client;
}

describe('comments on text', () => {
  it('anchors a thread on a quoted passage, which stays on that text when the page is edited before it over REST', async () => {
    const p = await page('Launch plan', 'Intro', 'The launch is on Friday.');
    const made = await comment(w.editor.token, { pageId: p.id, workspaceId: w.workspace.id, text: 'Which Friday?', quote: 'launch is on Friday' });
    expect(made.status).toBe(201);
    expect(made.body.data.anchor).toEqual({ start: expect.any(String), end: expect.any(String), quote: 'launch is on Friday' });
    expect(covered(await storedDoc(p.id), made.body.data.anchor)).toBe('launch is on Friday');

    // Text typed before the passage, in its paragraph, and a new paragraph above it: the range moves with its text.
    expect(await putParagraphs(t.request, p.id, w.admin.token, 'Intro', 'Update: the launch is on Friday.')).toBe(200);
    expect(await putParagraphs(t.request, p.id, w.admin.token, 'Summary first', 'Intro', 'Update: the launch is on Friday.')).toBe(200);
    expect(covered(await storedDoc(p.id), made.body.data.anchor)).toBe('launch is on Friday');
    // Both in one write, with the paragraphs above replaced: the edited paragraph is updated in place, not rewritten.
    expect(await putParagraphs(t.request, p.id, w.admin.token, 'Read this first', 'Update: the launch is on Friday, at noon.')).toBe(200);
    expect(covered(await storedDoc(p.id), made.body.data.anchor)).toBe('launch is on Friday');

    // A reply takes its thread's text; the list gives the anchor with the thread's first comment.
    const reply = await comment(w.editor.token, { pageId: p.id, workspaceId: w.workspace.id, text: 'The 12th', parentId: made.body.data.id });
    expect(reply.status).toBe(201);
    expect((await comments(p.id)).map((c: { text: string; anchor: unknown }) => [c.text, c.anchor !== null])).toEqual([
      ['Which Friday?', true],
      ['The 12th', false],
    ]);
  });

  it('keeps the range of an anchor made in a co-editor while another one types before it', async () => {
    const p = await page('Live anchors', 'Ship the beta to ten teams.');
    const ann = open(p.id, w.editor.token);
    const bob = open(p.id, w.admin.token);
    await Promise.all([ann.synced, bob.synced]);
    // Ann selects "ten teams" as the web editor does (relative positions in her copy of the document).
    const text = (ann.doc.getXmlFragment('default').get(0) as Y.XmlElement).get(0) as Y.XmlText;
    const at = text.toString().indexOf('ten teams');
    const encode = (index: number, assoc: number) =>
      Buffer.from(Y.encodeRelativePosition(Y.createRelativePositionFromTypeIndex(text, index, assoc))).toString('base64');
    const anchor = { start: encode(at, 0), end: encode(at + 'ten teams'.length, -1), quote: 'ten teams' };
    const made = await comment(w.editor.token, { pageId: p.id, workspaceId: w.workspace.id, text: 'Which ones?', anchor });
    expect(made.status).toBe(201);
    expect(made.body.data.anchor).toEqual(anchor);

    bob.doc.transact(() => ((bob.doc.getXmlFragment('default').get(0) as Y.XmlElement).get(0) as Y.XmlText).insert(0, 'Next week: '));
    await eventually('Ann to see Bob’s typing', () => ann.text().startsWith('Next week: '));
    expect(covered(ann.doc, anchor)).toBe('ten teams');
    expect(covered(bob.doc, anchor)).toBe('ten teams');
    // Typing at the range's edges stays outside it.
    ann.doc.transact(() => {
      text.insert(at + 'Next week: '.length + 'ten teams'.length, ' first');
    });
    expect(covered(ann.doc, anchor)).toBe('ten teams');
    await eventually(
      'the page to store the typing',
      async () => covered(await storedDoc(p.id), anchor) === 'ten teams' && (await storedDoc(p.id)).getXmlFragment('default').toString().includes('Next week'),
    );
  });

  it('refuses what cannot anchor: unknown text, an anchor on a reply, both forms, and positions that are not Yjs ones (422)', async () => {
    const p = await page('Refusals', 'Only this text.');
    const base = { pageId: p.id, workspaceId: w.workspace.id, text: 'Hm' };
    const refused = async (body: object, field: string) => {
      const res = await comment(w.editor.token, { ...base, ...body });
      expect(res.status).toBe(422);
      expect(res.body.error.details).toMatchObject({ field });
      return res.body.error.message as string;
    };
    expect(await refused({ quote: 'not in the page' }, 'quote')).toMatch(/no such text/);
    const root = await comment(w.editor.token, base);
    expect(await refused({ quote: 'Only', parentId: root.body.data.id }, 'quote')).toMatch(/reply/);
    const real = (await comment(w.editor.token, { ...base, quote: 'this' })).body.data.anchor;
    expect(await refused({ quote: 'Only', anchor: real }, 'quote')).toMatch(/either/);
    await refused({ anchor: { ...real, start: 'not base64!' } }, 'anchor.start');
    await refused({ anchor: { ...real, end: Buffer.from('hello').toString('base64') } }, 'anchor.end');
    await refused({ anchor: { ...real, start: 'A'.repeat(400) } }, 'anchor.start');
    expect((await comments(p.id)).length).toBe(2);
  });
});

describe('reactions', () => {
  it('adds, repeats, counts per person and takes back emoji reactions; refuses what is not one emoji and viewers', async () => {
    const p = await page('Reactions', 'Text.');
    const made = (await comment(w.editor.token, { pageId: p.id, workspaceId: w.workspace.id, text: 'Ship it?' })).body.data;
    const react = (token: string, body: object) => t.request({ method: 'POST', url: `/api/v1/comments/${made.id}/reactions`, token, body });

    expect((await react(w.editor.token, { emoji: '👍' })).body.data.reactions).toEqual([{ emoji: '👍', userIds: [w.editor.id] }]);
    expect((await react(w.editor.token, { emoji: '👍', reacted: true })).status).toBe(200);
    await react(w.admin.token, { emoji: '🎉' });
    const both = await react(w.admin.token, { emoji: '👍' });
    expect(both.body.data.reactions).toEqual([
      { emoji: '👍', userIds: [w.editor.id, w.admin.id] },
      { emoji: '🎉', userIds: [w.admin.id] },
    ]);
    expect((await comments(p.id))[0].reactions).toEqual(both.body.data.reactions);

    const back = await react(w.editor.token, { emoji: '👍', reacted: false });
    // In the order the remaining reactions were given: the admin's 🎉 came before their 👍.
    expect(back.body.data.reactions).toEqual([
      { emoji: '🎉', userIds: [w.admin.id] },
      { emoji: '👍', userIds: [w.admin.id] },
    ]);
    for (const emoji of ['ok', '👍👍', '<b>', '']) expect((await react(w.editor.token, { emoji })).status).toBe(422);
    expect((await react(w.viewer.token, { emoji: '👀' })).status).toBe(403);
    expect((await react(w.outsider.token, { emoji: '👀' })).status).toBe(403);
  });
});

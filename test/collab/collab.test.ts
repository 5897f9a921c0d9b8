import { yXmlFragmentToProsemirrorJSON } from '@tiptap/y-tiptap';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addMember, createApiKey, createUser, type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { connectMcp, listenOnLoopback } from '../helpers/mcp.js';
import { createSpace, doc, newPage } from '../pages/helpers.js';
import { colourOf } from '../../src/editor/presence.js';
import { type CollabClient, connect, eventually, paragraphsOf, putParagraphs } from './helpers.js';

/** Co-editing at /api/collab with real sockets and @hocuspocus/provider clients, against a real database. */
let t: TestApp;
let base: string;
let w: Awaited<ReturnType<typeof workspaceWithRoles>>;
let space: string;
const clients: CollabClient[] = [];

function open(pageId: string, token: string, headers?: Record<string, string>) {
  const client = connect(base, pageId, token, headers);
  clients.push(client);
  return client;
}

async function page(title: string, ...paragraphs: string[]) {
  return newPage(t, w.editor, w.workspace.id, space, { title, content: doc(...paragraphs) });
}

/** A new page open for the editor and, read-only, for the viewer: both synced. */
async function editorAndViewer(title: string, ...paragraphs: string[]) {
  const p = await page(title, ...paragraphs);
  const editor = open(p.id, w.editor.token);
  const viewer = open(p.id, w.viewer.token);
  expect(await viewer.authenticated).toBe('readonly');
  await Promise.all([editor.synced, viewer.synced]);
  return { p, editor, viewer };
}

const storedText = async (pageId: string, user: TestUser = w.admin) => {
  const res = await t.request({ url: `/api/v1/pages/${pageId}`, token: user.token });
  return paragraphsOf(res.body.data.content);
};

beforeAll(async () => {
  t = await createTestApp({ COLLAB_SAVE_DEBOUNCE_MS: 100, COLLAB_SAVE_MAX_WAIT_MS: 500, COLLAB_ACCESS_RECHECK_MS: 100, MAX_PAGE_BYTES: 50_000 } as never);
  base = await listenOnLoopback(t);
  w = await workspaceWithRoles(t);
  space = (await createSpace(t, w.admin, w.workspace.id, { name: 'Live' })).id;
});

afterAll(async () => {
  for (const c of clients) c.destroy();
  await t.close();
});

describe('co-editing: who may connect', () => {
  it('lets two editors converge, and stores their text as the page (REST and search read it)', async () => {
    const p = await page('Together', 'Hello');
    const one = open(p.id, w.editor.token);
    const two = open(p.id, await createApiKey(t, w.admin));
    expect(await one.authenticated).toBe('read-write');
    await Promise.all([one.synced, two.synced]);
    expect(one.text()).toBe('Hello');
    one.type(' from one');
    two.type('Second line', 1);
    await eventually('both clients to see both edits', () => one.text() === 'Hello from one\nSecond line' && two.text() === one.text());
    await eventually('the page to store the live text', async () => (await storedText(p.id)) === 'Hello from one\nSecond line');
    const read = await t.request({ url: `/api/v1/pages/${p.id}`, token: w.viewer.token });
    expect(read.headers.etag).not.toBe('"v1"');
    // Search sees it too: the page's text is kept in step.
    const found = await t.request({ url: '/api/v1/search', token: w.viewer.token, query: { workspaceId: w.workspace.id, query: 'Second line' } });
    expect(JSON.stringify(found.body)).toContain(p.id);
  });

  it('connects a viewer read-only and refuses their updates', async () => {
    const { p, editor, viewer } = await editorAndViewer('Read only', 'Original');
    viewer.type(' vandalised');
    editor.type(' edited');
    await eventually('the editor’s edit to reach the viewer', () => viewer.text().includes('edited'));
    await eventually('the page to store the editor’s text', async () => (await storedText(p.id)) === 'Original edited');
    expect(editor.text()).toBe('Original edited');
  });

  it('connects an editor’s read-only API key read-only', async () => {
    const p = await page('Key read only', 'Original');
    const created = await t.request({ method: 'POST', url: '/api/v1/api-keys', token: w.editor.token, body: { name: 'reader', access: 'read-only' } });
    expect(created.status).toBe(201);
    const reader = open(p.id, created.body.data.key);
    expect(await reader.authenticated).toBe('readonly');
    await reader.synced;
    reader.type(' vandalised');
    await new Promise((r) => setTimeout(r, 1500));
    expect(await storedText(p.id)).toBe('Original');
  });

  it('refuses a stranger, a bad token, an unknown page and a session cookie from a foreign origin', async () => {
    const p = await page('Private', 'Secret');
    expect(await open(p.id, w.outsider.token).refused).toBe('FORBIDDEN');
    expect(await open(p.id, 'kb_not-a-real-key').refused).toBe('UNAUTHORIZED');
    expect(await open('0000000000000000000000000', w.editor.token).refused).toBe('NOT_FOUND');
    const cookie = `kb_session=${w.editor.token}`;
    expect(await open(p.id, 'cookie', { cookie, origin: 'https://evil.example' }).refused).toBe('FORBIDDEN');
    const own = open(p.id, 'cookie', { cookie, origin: base });
    expect(await own.authenticated).toBe('read-write');
    await own.synced;
    expect(own.text()).toBe('Secret');
    // The name a Secure deployment gives the cookie (PUBLIC_URL https) is read too.
    const prefixed = open(p.id, 'cookie', { cookie: `__Host-kb_session=${w.editor.token}`, origin: base });
    expect(await prefixed.authenticated).toBe('read-write');
  });

  it('closes a connection when the person is removed from the workspace, and refuses them after', async () => {
    const p = await page('Revoked', 'Text');
    const member = await createUser(t, 'Temp');
    await addMember(t, w.workspace.id, w.admin, member, 'editor');
    const client = open(p.id, member.token);
    await client.synced;
    const removed = await t.request({ method: 'DELETE', url: `/api/v1/workspaces/${w.workspace.id}/members/${member.id}`, token: w.admin.token });
    expect(removed.status).toBe(200);
    expect((await client.closed).reason).toBe('access-changed');
    expect(await open(p.id, member.token).refused).toBe('FORBIDDEN');
  });

  it('closes open connections when the page is trashed, and refuses new ones', async () => {
    const p = await page('Trashed', 'Bye');
    const client = open(p.id, w.editor.token);
    await client.synced;
    expect((await t.request({ method: 'DELETE', url: `/api/v1/pages/${p.id}`, token: w.editor.token })).status).toBe(200);
    expect((await client.closed).reason).toBe('access-changed');
    expect(await open(p.id, w.editor.token).refused).toBe('DELETED');
  });
});

describe('co-editing: writes from outside are merged, not written over', () => {
  it('merges a REST PUT into the live document while someone types elsewhere in the page', async () => {
    const p = await page('Merge', 'First paragraph', 'Second paragraph');
    const client = open(p.id, w.editor.token);
    await client.synced;
    client.type(' typed live', 1);
    // The REST writer changes the first paragraph only; the typing in the second must survive.
    expect(await putParagraphs(t.request, p.id, w.admin.token, 'First paragraph, edited over REST', 'Second paragraph')).toBe(200);
    const merged = 'First paragraph, edited over REST\nSecond paragraph typed live';
    await eventually('the live client to see the REST edit merged with its typing', () => client.text() === merged);
    await eventually('the page to store the merged text', async () => (await storedText(p.id)) === merged);
  });

  it('merges a Markdown update, an MCP edit and a history restore into the live document', async () => {
    const p = await page('Agents', 'Alpha', 'Beta');
    const client = open(p.id, w.editor.token);
    await client.synced;
    client.type(' (live)', 1);
    await eventually('the live edit to be stored', async () => (await storedText(p.id)) === 'Alpha\nBeta (live)');

    const md = await t.request({ method: 'PUT', url: `/api/v1/pages/${p.id}`, token: w.admin.token, body: { markdown: 'Alpha from Markdown\n\nBeta (live)' } });
    expect(md.status).toBe(200);
    await eventually('the Markdown edit to reach the client', () => client.text() === 'Alpha from Markdown\nBeta (live)');

    const key = await createApiKey(t, w.editor, 'agent');
    const mcp = await connectMcp(base, key, 'agent');
    client.type(' and more', 1);
    const result = await mcp.callTool({ name: 'page_update', arguments: { pageId: p.id, markdown: 'Alpha from the agent\n\nBeta (live)' } });
    await mcp.close();
    expect(result.isError).toBeFalsy();
    // Typing not stored yet when the write reads the page is concurrent with it, and kept. On a loaded machine the
    // typing can be stored (100 ms after it) before the agent's write reads the page: then the write, which did not
    // see it, replaces that paragraph as a PUT would (last write wins). Either way the agent's edit is in, once.
    const merged = 'Alpha from the agent\nBeta (live) and more';
    const afterStoredTyping = 'Alpha from the agent\nBeta (live)';
    await eventually('the agent’s edit to merge with the typing', () => client.text() === merged || client.text() === afterStoredTyping);
    const settled = client.text();
    await eventually('the merged text to be stored', async () => (await storedText(p.id)) === settled);

    const history = await t.request({ url: `/api/v1/pages/${p.id}/history`, token: w.admin.token });
    const first = history.body.data.find((e: { version: number }) => e.version === 1);
    const restored = await t.request({ method: 'POST', url: `/api/v1/pages/${p.id}/restore`, token: w.admin.token, body: { historyId: first.id } });
    expect(restored.status).toBe(200);
    await eventually(
      'the restore to reach the live client',
      () => client.text() === 'Alpha\nBeta',
      20_000,
      () => client.text(),
    );
    await eventually('the page to store the restored text', async () => (await storedText(p.id)) === 'Alpha\nBeta');
  });
});

describe('co-editing: history and persistence', () => {
  it('makes versions on a cadence, attributed to everyone who edited, not one per keystroke', async () => {
    const p = await newPage(t, w.editor, w.workspace.id, space, { title: 'Cadence', content: { type: 'doc', content: [{ type: 'paragraph' }] } });
    const one = open(p.id, w.editor.token);
    const two = open(p.id, w.admin.token);
    await Promise.all([one.synced, two.synced]);
    for (let i = 0; i < 10; i++) {
      one.type('a');
      two.type('b', 1);
      await new Promise((r) => setTimeout(r, 60));
    }
    await eventually('all typing to be stored', async () => (await storedText(p.id)).replace(/\n/g, '').length === 20);
    const history = await t.request({ url: `/api/v1/pages/${p.id}/history`, token: w.admin.token });
    // Created + one live version (the run of typing), however many saves it took.
    expect(history.body.data).toHaveLength(2);
    const live = history.body.data[0];
    expect(live.summary).toBe('Edited together');
    expect([...live.contributors].sort()).toEqual([w.admin.id, w.editor.id].sort());
    expect(history.body.data[1].summary).toBe('Created page');
  });

  it('keeps the same rules as REST: a javascript: link typed through the socket is not stored', async () => {
    const p = await page('Rules', 'Safe');
    const client = open(p.id, w.editor.token);
    await client.synced;
    const fragment = client.doc.getXmlFragment('default');
    const { XmlElement, XmlText } = await import('yjs');
    client.doc.transact(() => {
      const paragraph = new XmlElement('paragraph');
      const text = new XmlText();
      paragraph.insert(0, [text]);
      fragment.push([paragraph]);
      text.insert(0, 'click me', { link: { href: 'javascript:alert(1)' } });
      const safe = new XmlElement('paragraph');
      const kept = new XmlText();
      safe.insert(0, [kept]);
      fragment.push([safe]);
      kept.insert(0, 'a real link', { link: { href: 'https://example.com/' } });
    });
    // The schema cannot build the javascript: link, as a PUT would refuse it: the text it marks is left out of the
    // page, and taken out of the live document too, so no client keeps it; the https link stays.
    const raw = () => JSON.stringify(yXmlFragmentToProsemirrorJSON(fragment));
    await eventually('the live document to lose the javascript: link', () => !raw().includes('javascript:'), 20_000, raw);
    expect(raw()).toContain('https://example.com/');
    await eventually('the page to store the safe link', async () => (await storedText(p.id)).includes('a real link'));
    const read = await t.request({ url: `/api/v1/pages/${p.id}`, token: w.editor.token });
    expect(JSON.stringify(read.body.data.content)).not.toContain('javascript:');
    expect(JSON.stringify(read.body.data.content)).toContain('https://example.com/');
  });

  it('holds a live document to MAX_PAGE_BYTES: past it, the document goes back to the stored page', async () => {
    const p = await page('Bounded', 'Kept');
    const client = open(p.id, w.editor.token);
    await client.synced;
    client.type(' and stored', 0);
    await eventually('the small edit to be stored', async () => (await storedText(p.id)) === 'Kept and stored');
    client.type('x'.repeat(60_000), 1);
    await eventually(
      'the live document to go back to the stored page',
      () => client.text() === 'Kept and stored',
      20_000,
      () => client.text().length,
    );
    expect(await storedText(p.id)).toBe('Kept and stored');
  });
});

describe('co-editing: presence is the server’s word', () => {
  const statesOf = (client: CollabClient) => client.provider.awareness?.getStates() ?? new Map();
  const userOf = (observer: CollabClient, of: CollabClient) => statesOf(observer).get(of.doc.clientID)?.user as Record<string, unknown> | undefined;

  it('shows each connection as its authenticated user, whatever name and colour its client claims (a read-only one too)', async () => {
    const { editor: ann, viewer: mallory } = await editorAndViewer('Presence', 'Hello');
    ann.provider.setAwarenessField('user', { id: w.editor.id, name: w.editor.name, color: '#1864ab' });
    // Mallory claims to be Ann, with CSS in her colour.
    mallory.provider.setAwarenessField('user', { id: w.editor.id, name: 'Mallory-as-Ann', color: 'red;background:url(https://evil.example/x)' });
    mallory.provider.setAwarenessField('cursor', { anchor: null, head: null });
    const seen = await eventually(
      'Ann to see Mallory’s presence',
      () => userOf(ann, mallory),
      20_000,
      () => [...statesOf(ann).entries()],
    );
    expect(seen).toEqual({ id: w.viewer.id, name: w.viewer.name, color: colourOf(w.viewer.id) });
    expect(seen?.color).toMatch(/^#[0-9a-f]{6}$/);
    // The other fields of the state pass unchanged.
    expect(statesOf(ann).get(mallory.doc.clientID)?.cursor).toEqual({ anchor: null, head: null });
    // And Ann herself shows as Ann, to Mallory.
    await eventually('Mallory to see Ann', () => userOf(mallory, ann)?.name === w.editor.name);
    expect(userOf(mallory, ann)).toEqual({ id: w.editor.id, name: w.editor.name, color: colourOf(w.editor.id) });
  });

  it('lets no connection speak for another’s client (a forged state for Ann’s client id is dropped)', async () => {
    const p = await page('Presence forged', 'Hello');
    const ann = open(p.id, w.editor.token);
    const mallory = open(p.id, w.viewer.token);
    const observer = open(p.id, w.admin.token);
    await Promise.all([ann.synced, mallory.synced, observer.synced]);
    ann.provider.setAwarenessField('user', { id: w.editor.id, name: w.editor.name, color: '#1864ab' });
    await eventually(
      'the observer and Mallory to see Ann',
      () => userOf(observer, ann)?.name === w.editor.name && userOf(mallory, ann)?.name === w.editor.name,
    );
    // Mallory's client sends a newer state for Ann's client id (as a modified provider could)...
    const awareness = mallory.provider.awareness!;
    const annId = ann.doc.clientID;
    awareness.states.set(annId, { user: { id: w.editor.id, name: 'Ann (forged)', color: '#000000' } });
    awareness.meta.set(annId, { clock: (awareness.meta.get(annId)?.clock ?? 0) + 100, lastUpdated: Date.now() });
    awareness.emit('update', [{ added: [], updated: [annId], removed: [] }, 'forged']);
    // ...then one of its own, so the observer knows the forged one has been through the server.
    mallory.provider.setAwarenessField('marker', 'after-the-forgery');
    await eventually('the observer to see Mallory’s marker', () => statesOf(observer).get(mallory.doc.clientID)?.marker === 'after-the-forgery');
    expect(userOf(observer, ann)).toMatchObject({ id: w.editor.id, name: w.editor.name });
  });
});

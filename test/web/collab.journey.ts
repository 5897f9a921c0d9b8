import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser, createWorkspace, type TestUser } from '../helpers/factories.js';
import { createPage, editorOf, pageAddress, readPage, sessionSignedIn, typeIn, useWebApp, visible } from './harness.js';

const web = useWebApp();

let ada: TestUser;
let grace: TestUser;
let ws: { id: string; hostname: string };
let space: { id: string; slug: string };

const doc = (...texts: string[]) => ({ type: 'doc', content: texts.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })) });

const newPage = (title: string, ...texts: string[]) =>
  createPage(web, { token: ada.token, workspaceId: ws.id, spaceId: space.id }, title, { content: doc(...texts) });
const pageUrl = (p: { id: string; slug: string }) => pageAddress(ws.hostname, space.slug, p);
/** The page's text as REST reads it: what search, MCP and sync see, stored from the live document. */
const storedText = async (id: string) => (await readPage(web, ada.token, id)).markdown.trim();

/** A person in a browser context of their own, signed in with the cookie session, on the page. */
async function openAs(user: TestUser, target: { id: string; slug: string }): Promise<Page> {
  const page = await sessionSignedIn(web, user);
  await page.goto(pageUrl(target));
  await visible(editorOf(page));
  return page;
}

const status = (page: Page, text: string, timeout = 15_000) => visible(page.getByRole('status').getByText(text, { exact: true }), timeout);
/** The editor's paragraphs as text, without the name labels of the others' carets. */
const paragraphsOf = (page: Page) =>
  editorOf(page)
    .locator('p')
    .evaluateAll((ps) =>
      ps.map((p) => {
        const copy = p.cloneNode(true) as HTMLElement;
        for (const caret of copy.querySelectorAll('.kb-caret')) caret.remove();
        return copy.textContent;
      }),
    );
const OFFLINE = 'Offline — changes kept on this device';

beforeAll(async () => {
  ada = await createUser(web.t, 'Ada Lovelace');
  grace = await createUser(web.t, 'Grace Hopper');
  ws = await createWorkspace(web.t, ada, 'Engines');
  await addMember(web.t, ws.id, ada, grace, 'editor');
  space = (await web.t.request({ method: 'POST', url: '/api/v1/spaces', token: ada.token, body: { workspaceId: ws.id, name: 'Notes' } })).body.data;
});

describe('co-editing in the web app', () => {
  it('two people type into one page and see each other’s text, carets and avatars', async () => {
    const target = await newPage('Shared notes', 'The analytical engine');
    const a = await openAs(ada, target);
    const g = await openAs(grace, target);
    for (const page of [a, g]) {
      await visible(editorOf(page).getByText('The analytical engine'));
      await status(page, 'Saved');
    }
    // Each sees the other in the header.
    await visible(a.getByRole('group', { name: 'Also here: Grace Hopper' }));
    await visible(g.getByRole('group', { name: 'Also here: Ada Lovelace' }));

    await editorOf(a).getByText('The analytical engine').click();
    await a.keyboard.press('End');
    await typeIn(a, ' weaves algebraic patterns');
    await visible(editorOf(g).getByText('The analytical engine weaves algebraic patterns'));
    await visible(editorOf(g).getByText('Ada Lovelace', { exact: true })); // her caret's label

    await editorOf(g).click();
    await g.keyboard.press('Control+End');
    await g.keyboard.press('Enter');
    await typeIn(g, 'Grace adds a compiler');
    await visible(editorOf(a).getByText('Grace adds a compiler'));
    await visible(editorOf(a).getByText('Grace Hopper', { exact: true }));
    // Ada types again while Grace's line is there: both paragraphs stay, in order.
    await typeIn(a, ' like a loom');
    await visible(editorOf(g).getByText('The analytical engine weaves algebraic patterns like a loom'));
    // A selection shows too, tinted in her colour.
    await editorOf(a)
      .getByText('Grace adds a compiler')
      .dblclick({ position: { x: 150, y: 8 } });
    await visible(editorOf(g).locator('.kb-remote-selection', { hasText: 'compiler' }));
    await status(a, 'Saved');
    await status(g, 'Saved');
    await web.shot(a, 'collab-ada');
    await web.shot(g, 'collab-grace');

    expect(await paragraphsOf(a)).toEqual(['The analytical engine weaves algebraic patterns like a loom', 'Grace adds a compiler']);
    await expect
      .poll(() => storedText(target.id), { timeout: 5_000 })
      .toBe('The analytical engine weaves algebraic patterns like a loom\n\nGrace adds a compiler');

    // Ada renames the page: Grace's title changes at once, with no reload (the title is not in the Yjs document).
    await a.getByLabel('Title').fill('Notes on the engine');
    await status(a, 'Saved');
    await expect.poll(() => g.getByLabel('Title').inputValue(), { timeout: 10_000 }).toBe('Notes on the engine');
  });

  it('keeps what is typed offline on the device, across a reload, and merges it on reconnect', async () => {
    const target = await newPage('Field notes', 'Base camp');
    const a = await openAs(ada, target);
    const g = await openAs(grace, target);
    await status(a, 'Saved');
    await status(g, 'Saved');

    await a.context().setOffline(true);
    await status(a, OFFLINE);
    await editorOf(a).getByText('Base camp').click();
    await a.keyboard.press('End');
    await typeIn(a, ' reached offline');
    await visible(editorOf(a).getByText('Base camp reached offline'));
    await web.shot(a, 'collab-offline');
    expect(await storedText(target.id)).not.toContain('reached offline');

    // The network is back, but the co-editing socket is not: after a reload the text still comes from IndexedDB.
    let socketBlocked = true;
    await a.routeWebSocket('**/api/collab', (socket) => {
      if (socketBlocked) socket.close();
      else socket.connectToServer();
    });
    await a.context().setOffline(false);
    await a.reload();
    await visible(editorOf(a).getByText('Base camp reached offline'));
    await status(a, OFFLINE);
    await web.shot(a, 'collab-offline-reloaded');

    // Meanwhile Grace keeps writing.
    await editorOf(g).click();
    await g.keyboard.press('Control+End');
    await g.keyboard.press('Enter');
    await typeIn(g, 'Grace logs the weather');
    await status(g, 'Saved');

    // The socket is allowed again: both edits merge, everywhere.
    socketBlocked = false;
    await a.reload();
    await status(a, 'Saved');
    await visible(editorOf(a).getByText('Grace logs the weather'));
    await visible(editorOf(g).getByText('Base camp reached offline'));
    await visible(editorOf(a).getByText('Grace Hopper', { exact: true }));
    expect(await editorOf(a).getByText('Ada Lovelace', { exact: true }).count()).toBe(0); // never one's own caret, nor the one before the reload
    await web.shot(a, 'collab-reconnected');
    await expect.poll(() => storedText(target.id), { timeout: 5_000 }).toBe('Base camp reached offline\n\nGrace logs the weather');

    // Signing out deletes the copies kept on this device: the next person at this browser finds none.
    const kept = () => a.evaluate(async () => (await indexedDB.databases()).map((db) => db.name));
    expect(await kept()).toContain(`kb-page-${target.id}`);
    await a.getByRole('button', { name: 'Account' }).click();
    await a.getByRole('menuitem', { name: 'Sign out' }).click();
    await a.waitForURL(/\/login(\?|$)/);
    await expect.poll(kept).not.toContain(`kb-page-${target.id}`);
  });

  it('follows the person’s access while the page is open: read-only when made a viewer, closed when removed', async () => {
    const katherine = await createUser(web.t, 'Katherine Johnson');
    await addMember(web.t, ws.id, ada, katherine, 'editor');
    const target = await newPage('Trajectories', 'Orbit figures');
    const k = await openAs(katherine, target);
    await status(k, 'Saved');
    expect(await editorOf(k).getAttribute('contenteditable')).toBe('true');

    const demoted = await web.t.request({
      method: 'PUT',
      url: `/api/v1/workspaces/${ws.id}/members/${katherine.id}`,
      token: ada.token,
      body: { role: 'viewer' },
    });
    expect(demoted.status).toBe(200);
    await status(k, 'Read-only');
    expect(await editorOf(k).getAttribute('contenteditable')).toBe('false');
    expect(await k.getByLabel('Title').getAttribute('readonly')).not.toBeNull();

    const removed = await web.t.request({ method: 'DELETE', url: `/api/v1/workspaces/${ws.id}/members/${katherine.id}`, token: ada.token });
    expect(removed.status).toBe(200);
    await status(k, 'You no longer have access to this page');
    await visible(editorOf(k).getByText('Orbit figures')); // what was on screen stays readable
    expect(await editorOf(k).getAttribute('contenteditable')).toBe('false');
    await web.shot(k, 'collab-access-removed');
  });
});

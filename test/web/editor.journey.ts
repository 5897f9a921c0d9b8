import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../helpers/factories.js';
import {
  createPage,
  editorOf,
  formSignedIn,
  ownerViewerHandbook,
  pageAddress,
  pasteText,
  readPage,
  storedWith as storedIn,
  typeIn,
  useWebApp,
  visible,
} from './harness.js';

const web = useWebApp();

let owner: TestUser;
let viewer: TestUser;
let ws: { id: string; hostname: string };
let space: { id: string; slug: string };

const doc = (...texts: string[]) => ({ type: 'doc', content: texts.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })) });

const newPage = (title: string, body: { content?: unknown; markdown?: string }) =>
  createPage(web, { token: owner.token, workspaceId: ws.id, spaceId: space.id }, title, body);
const pageUrl = (p: { id: string; slug: string }) => pageAddress(ws.hostname, space.slug, p);
const readBack = (id: string) => readPage(web, owner.token, id);
/** The stored Markdown once it has `text`: "Saved" means the co-editing server has the edit; the page row follows within 2 s. */
const storedWith = (id: string, text: string, timeout = 5_000) => storedIn(web, owner.token, id, text, timeout);

const saved = (page: Page, timeout = 15_000) => visible(page.getByRole('status').getByText('Saved', { exact: true }), timeout);

beforeAll(async () => {
  ({ owner, viewer, ws, space } = await ownerViewerHandbook(web, 'Editors'));
});

describe('the page editor', () => {
  it('types formatted text with shortcuts and the slash menu, saves it, and shows it unchanged after a reload', async () => {
    const target = await newPage('Draft', { content: doc('Original text') });
    const page = await formSignedIn(web, owner);
    await page.goto(pageUrl(target));
    const editor = await visible(editorOf(page));
    await page.getByLabel('Title').fill('Launch plan');

    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await typeIn(page, '/');
    await visible(page.getByRole('listbox', { name: 'Insert block' }));
    await web.shot(page, 'editor-slash-menu');
    await page.getByRole('option', { name: /Heading 1/ }).click();
    await typeIn(page, 'Goals');
    await page.keyboard.press('Enter');
    await typeIn(page, 'We ship **fast** now.');
    await page.keyboard.press('Enter');
    await typeIn(page, '- first item');
    await page.keyboard.press('Enter');
    await typeIn(page, 'second item');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await typeIn(page, '/task');
    await visible(page.getByRole('option', { name: /Task list/ }));
    await page.keyboard.press('Enter');
    await typeIn(page, 'call the printer');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await typeIn(page, '```js ');
    await typeIn(page, 'const answer = 42;');
    await saved(page);

    const back = await storedWith(target.id, 'const answer = 42;');
    expect(back.title).toBe('Launch plan');
    expect(back.markdown).toContain('Original text');
    expect(back.markdown).toContain('# Goals');
    expect(back.markdown).toContain('We ship **fast** now.');
    expect(back.markdown).toMatch(/[-*] first item\n[-*] second item/);
    expect(back.markdown).toMatch(/[-*] \[ \] call the printer/);
    expect(back.markdown).toContain('```js\nconst answer = 42;\n```');

    await page.reload();
    await visible(editorOf(page));
    expect(await page.getByLabel('Title').inputValue()).toBe('Launch plan');
    await visible(editorOf(page).getByRole('heading', { name: 'Goals', level: 1 }));
    expect(await editorOf(page).locator('strong').textContent()).toBe('fast');
    expect(await editorOf(page).locator('ul li').allTextContents()).toEqual(expect.arrayContaining(['first item', 'second item']));
    expect(await editorOf(page).locator('ul[data-type="taskList"] li').textContent()).toContain('call the printer');
    expect(await editorOf(page).locator('pre code').textContent()).toBe('const answer = 42;');
    // Highlighted by decorations only: the stored document above has no trace of them.
    expect(await editorOf(page).locator('pre code span[class^="hljs-"]').count()).toBeGreaterThan(0);
    await web.shot(page, 'editor-page-light');
    await page.getByRole('button', { name: 'Use dark theme' }).click();
    await web.shot(page, 'editor-page-dark');
    await page.getByRole('button', { name: 'Use light theme' }).click();

    // History: one more edit, then the first version comes back.
    await editorOf(page).click();
    await page.keyboard.press('Control+End');
    await typeIn(page, ' // and more');
    await saved(page);
    await storedWith(target.id, '// and more');
    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'History' }).click();
    await page.waitForURL(/\/history$/);
    const first = await visible(page.getByRole('button', { name: /^Version 1\b/ }));
    await first.click();
    await page.getByRole('radio', { name: 'Current page' }).evaluate((el) => (el as HTMLInputElement).click());
    await visible(page.getByText('Version 1 compared with the current page'));
    await visible(page.getByLabel('Differences').locator('ins'));
    expect(await page.getByLabel('Differences').getByText('Added', { exact: true }).count()).toBeGreaterThan(0);
    await web.shot(page, 'editor-history-diff');
    await page.getByRole('button', { name: 'Restore version 1' }).click();
    await page.getByRole('dialog', { name: 'Restore version 1?' }).getByRole('button', { name: 'Restore' }).click();
    await page.waitForURL((url) => !url.pathname.endsWith('/history'));
    await visible(editorOf(page).getByText('Original text'));
    // This device's copy shows first; the restore arrives from the server as it syncs.
    await expect.poll(() => editorOf(page).textContent(), { timeout: 15_000 }).not.toContain('Goals');
    expect(await page.getByLabel('Title').inputValue()).toBe('Draft');
    expect((await readBack(target.id)).markdown.trim()).toBe('Original text');
  });

  it('gives a page created "Untitled" the URL of the name it is given, kept after a reload and after a rename elsewhere', async () => {
    // (The title field by its role: a label search for "Title" would also find the tree's "Untitled" row.)
    const titleOf = (p: Page) => p.getByRole('textbox', { name: 'Title', exact: true });
    const target = await newPage('Untitled', { content: doc('Body') });
    expect(target.slug).toBe('untitled');
    const page = await formSignedIn(web, owner);
    await page.goto(`/w/${ws.hostname}/s/${space.slug}`);
    await page.goto(pageUrl(target));
    await visible(editorOf(page));
    await titleOf(page).fill('Road map');
    await page.waitForURL(`**/p/road-map-${target.id}`, { timeout: 15_000 });
    await page.reload();
    await visible(editorOf(page));
    expect(new URL(page.url()).pathname).toBe(`/w/${ws.hostname}/s/${space.slug}/p/road-map-${target.id}`);
    expect(await titleOf(page).inputValue()).toBe('Road map');
    // A rename made elsewhere (here the API) moves the open page's URL too.
    const renamed = await web.t.request({ method: 'PUT', url: `/api/v1/pages/${target.id}`, token: owner.token, body: { title: 'Q3 road map' } });
    expect(renamed.status).toBe(200);
    await page.waitForURL(`**/p/q3-road-map-${target.id}`, { timeout: 15_000 });
    expect(await titleOf(page).inputValue()).toBe('Q3 road map');
    await web.shot(page, 'editor-renamed-url');
    // Back leaves the page: its old names were replaced in the history, not added to it.
    await page.goBack();
    await page.waitForURL(`**/w/${ws.hostname}/s/${space.slug}`);
  });

  it('shows a viewer the page read-only and never saves', async () => {
    const target = await newPage('Policy', { content: doc('Read me') });
    const page = await formSignedIn(web, viewer, { width: 375, height: 800 });
    const writes: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT' && r.url().includes('/api/v1/pages/')) writes.push(r.url());
    });
    await page.goto(pageUrl(target));
    const editor = await visible(editorOf(page));
    await visible(editor.getByText('Read me'));
    expect(await editor.getAttribute('contenteditable')).toBe('false');
    expect(await page.getByLabel('Title').getAttribute('readonly')).not.toBeNull();
    expect(await page.getByRole('button', { name: 'Move to trash' }).count()).toBe(0);
    await visible(page.getByRole('status').getByText('Read-only'));
    await editor.click();
    await typeIn(page, 'sneaky');
    await page.waitForTimeout(1200); // longer than the title's save debounce
    expect(writes).toEqual([]);
    expect(await editor.textContent()).not.toContain('sneaky');
    await web.shot(page, 'editor-viewer-mobile');
  });

  it('merges a change made elsewhere into the open page while the person types, losing neither', async () => {
    const target = await newPage('Shared', { content: doc('Base text') });
    const page = await formSignedIn(web, owner);
    // Hold what the browser sends until the script has written: the person's typing and the script's write cross.
    let holding = false;
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.routeWebSocket('**/api/collab', (socket) => {
      const server = socket.connectToServer();
      socket.onMessage(async (message) => {
        if (holding) await released;
        server.send(message);
      });
    });
    await page.goto(pageUrl(target));
    const editor = await visible(editorOf(page));
    await visible(editor.getByText('Base text'));
    await saved(page);

    holding = true;
    await editor.getByText('Base text').click();
    await page.keyboard.press('End');
    await typeIn(page, ' plus my words');
    await visible(page.getByRole('status').getByText('Saving…'));
    const theirs = await web.t.request({
      method: 'PUT',
      url: `/api/v1/pages/${target.id}`,
      token: owner.token,
      body: { content: doc('Base text', 'Added by a script') },
    });
    expect(theirs.status).toBe(200);
    await visible(editor.getByText('Added by a script')); // arrives while the person's words are still on their way
    holding = false;
    release();

    await saved(page);
    await web.shot(page, 'editor-outside-write-merged');
    expect(await editor.locator('p').allTextContents()).toEqual(['Base text plus my words', 'Added by a script']);
    const back = await storedWith(target.id, 'plus my words');
    expect(back.markdown.trim()).toBe('Base text plus my words\n\nAdded by a script');
  });

  it('converts pasted Markdown, uploads a pasted image, and mentions a person with "@"', async () => {
    const target = await newPage('Pasted', { content: doc('Start') });
    const page = await formSignedIn(web, owner);
    await page.goto(pageUrl(target));
    const editor = await visible(editorOf(page));
    await editor.getByText('Start').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');

    // Plain text that looks like Markdown becomes structure (parsed in the browser by the shared src/editor/markdown.ts).
    await pasteText(page, '## Pasted heading\n\n- one\n- two\n\nSome **bold** words');
    await visible(editor.getByRole('heading', { name: 'Pasted heading', level: 2 }));
    expect(await editor.locator('strong').textContent()).toBe('bold');

    // A pasted image is uploaded to the page and inserted as an image node pointing at the attachment.
    await page.evaluate(() => {
      const png = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='), (c) =>
        c.charCodeAt(0),
      );
      const dt = new DataTransfer();
      dt.items.add(new File([png], 'dot.png', { type: 'image/png' }));
      document.querySelector('[aria-label="Page content"]')?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    });
    const image = await visible(editor.locator('img[alt="dot.png"]'));
    expect(await image.getAttribute('src')).toMatch(/^\/api\/v1\/attachments\/[^/]+\/download$/);
    await visible(page.getByText('Uploaded dot.png'));

    await page.keyboard.press('Control+End');
    await typeIn(page, ' cc @Vie');
    const mentions = await visible(page.getByRole('listbox', { name: 'Mention' }));
    await visible(mentions.getByRole('option', { name: /Viewer/ }));
    await page.keyboard.press('Enter');
    await visible(editor.locator('[data-type="mention"]'));
    await saved(page);

    const back = await storedWith(target.id, 'mention:');
    expect(back.markdown).toContain('## Pasted heading');
    expect(back.markdown).toMatch(/!\[dot\.png\]\(\/api\/v1\/attachments\/[^)]+\/download\)/);
    expect(back.markdown).toContain(`[@Viewer](mention:${viewer.id})`);
    const files = await web.t.request({ url: '/api/v1/attachments', token: owner.token, query: { workspaceId: ws.id, pageId: target.id } });
    expect(files.body.data.map((f: { filename: string }) => f.filename)).toEqual(['dot.png']);
  });

  it('opens a 1 MB page and shows typing at its end promptly', async () => {
    const paragraph = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. ';
    const sections: string[] = [];
    for (let i = 0, size = 0; size < 1_000_000; i++) {
      const block = i % 20 === 0 ? `## Section ${i / 20}` : i % 7 === 0 ? `- item ${i}\n- item ${i + 1}` : `${paragraph}${paragraph}${i}`;
      sections.push(block);
      size += block.length + 2;
    }
    sections.push('The very end.');
    const big = await newPage('Big page', { markdown: sections.join('\n\n') });
    const page = await formSignedIn(web, owner);
    const opening = Date.now();
    await page.goto(pageUrl(big));
    const editor = await visible(editorOf(page), 30_000);
    await visible(editor.getByText('The very end.'), 30_000);
    const openMs = Date.now() - opening;

    await editor.getByText('The very end.').click();
    await page.keyboard.press('Control+End');
    await page.evaluate(() => {
      const w = window as unknown as { __latency: number[]; __down: number };
      w.__latency = [];
      const el = document.querySelector('[aria-label="Page content"]') as HTMLElement;
      document.addEventListener('keydown', () => (w.__down = performance.now()), true);
      new MutationObserver(() => requestAnimationFrame(() => w.__latency.push(performance.now() - w.__down))).observe(el, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    });
    for (const ch of ' Fin') {
      await typeIn(page, ch);
      await page.waitForTimeout(50);
    }
    await visible(editor.getByText('The very end. Fin'), 30_000);
    const latency = await page.evaluate(() => (window as unknown as { __latency: number[] }).__latency);
    console.log(`[editor] 1 MB page: opened in ${openMs} ms; keystroke to paint ${latency.map((l) => l.toFixed(1)).join(', ')} ms`);
    // Blocks out of view are skipped by the browser: typing at once into a block that was far away, and into a new
    // block, loses no key.
    await page.keyboard.press('Control+Home');
    await typeIn(page, 'Intro ');
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await typeIn(page, 'Last words.');
    await page.keyboard.press('Control+Home');
    for (let i = 0; i < 3; i++) await page.keyboard.press('PageDown');
    await typeIn(page, 'Paged');
    await saved(page, 60_000);
    const stored = await storedWith(big.id, 'Last words.', 60_000); // a 1 MB page is validated, diffed and indexed server-side
    expect(stored.markdown).toContain('The very end. Fin\n\nLast words.');
    expect(stored.markdown.startsWith('## Intro Section 0')).toBe(true);
    expect(stored.markdown).toContain('Paged');
  }, 180_000);
});

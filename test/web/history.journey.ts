import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiSignedInWorkspace, createPage, editorOf, handbookWithPage, pageAddress, readPage, useWebApp, visible } from './harness.js';

/**
 * History as people read it (a block diff with mentions by name and links by text, inline or side by side, with the
 * previous version or the current page), restore with a confirmation and Undo, a 1 MB page's diff off the main
 * thread, and mentions as chips whose page mentions open the page.
 */
const web = useWebApp();

let owner: Awaited<ReturnType<typeof apiSignedInWorkspace>>;
let ownerId: string;
let ownerName: string;
let spaceId: string;
let guide: { id: string; slug: string };

const pageUrl = (p: { id: string; slug: string }) => pageAddress(owner.hostname, 'handbook', p);
const diffOf = (page: Page) => page.getByLabel('Differences');
/** A segmented control's option (its radio input is under its label, which Playwright's check() calls outside the viewport). */
const choose = (page: Page, label: string) => page.getByRole('radio', { name: label }).evaluate((el) => (el as HTMLInputElement).click());

const newPage = (title: string, markdown: string) => createPage(web, { token: owner.token, workspaceId: owner.workspaceId, spaceId }, title, { markdown });
async function update(id: string, markdown: string) {
  const res = await web.t.request({ method: 'PUT', url: `/api/v1/pages/${id}`, token: owner.token, body: { workspaceId: owner.workspaceId, markdown } });
  expect(res.status).toBe(200);
}
const readBack = (id: string) => readPage(web, owner.token, id);

const filler = Array.from({ length: 12 }, (_, i) => `Background paragraph ${i + 1} that nobody touched.`).join('\n\n');
const v1 = () => `# Launch plan

Intro paragraph that stays the same.

${filler}

- first item
- second item

| Name | Role |
| --- | --- |
| Ada | Lead |

Ask [@${ownerName}](mention:${ownerId}) and read [@Onboarding guide](mention:page:${guide.id}).

See [the spec](https://example.com/spec-v1) for details.

\`\`\`js
const answer = 41;
\`\`\`

Closing words to remove.
`;
const v2 = () => `# Launch plan

Intro paragraph that stays the same.

${filler}

- first item
- second item, revised

| Name | Role |
| --- | --- |
| Ada | Owner |

Ask [@${ownerName}](mention:${ownerId}) today and read [@Onboarding guide](mention:page:${guide.id}).

See [the spec](https://example.com/spec-v2) for details.

\`\`\`js
const answer = 42;
\`\`\`

A brand new paragraph
`;

beforeAll(async () => {
  owner = await apiSignedInWorkspace(web, 'historian');
  const users = await web.t.request({ url: '/api/v1/users', token: owner.token, query: { workspaceId: owner.workspaceId } });
  ownerId = users.body.data[0].id;
  ownerName = users.body.data[0].name;
  const made = await handbookWithPage(web, owner.token, owner.workspaceId, 'Onboarding guide', 'Welcome aboard.');
  spaceId = made.spaceId;
  guide = { id: made.pageId, slug: made.slug };
});

describe('history', () => {
  it('shows what a version changed block by block: words marked, mentions by name, links by text, unchanged blocks collapsed', async () => {
    const plan = await newPage('Launch plan', v1());
    await update(plan.id, v2());
    const { page } = owner;
    await page.goto(`${pageUrl(plan)}/history`);
    await visible(page.getByText('What version 2 changed (from version 1)'));
    const diff = await visible(diffOf(page));
    await expect.poll(() => page.getByTestId('diff-summary').textContent()).toBe('Blocks: 5 changed, 1 added, 1 removed');
    // Words: added underlined (<ins>), removed struck (<del>), each block labelled; never colour alone.
    expect(await diff.locator('ins').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('revised'), expect.stringContaining('Owner')]));
    expect(await diff.locator('del').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('Lead'), expect.stringContaining('41')]));
    expect(await diff.getByText('Changed', { exact: true }).count()).toBe(5);
    await visible(diff.getByText('Added', { exact: true }));
    await visible(diff.getByText('Removed', { exact: true }));
    expect(await diff.locator('del', { hasText: 'Closing words to remove.' }).count()).toBe(1);
    // Mentions by name, a page by its title; no ids anywhere.
    await visible(diff.getByText(`@${ownerName}`));
    await visible(diff.getByText('Onboarding guide'));
    expect(await diff.textContent()).not.toContain(ownerId);
    expect(await diff.textContent()).not.toContain('mention:');
    // A link is its text; its address (old and new) on hover.
    expect(await diff.locator('[title="https://example.com/spec-v1"]').textContent()).toBe('the spec');
    expect(await diff.locator('[title="https://example.com/spec-v2"]').textContent()).toBe('the spec');
    // The untouched blocks before the list are one row, opened on request.
    const skip = await visible(diff.getByRole('button', { name: /^\d+ unchanged blocks$/ }));
    expect(await skip.textContent()).toBe('14 unchanged blocks'); // the heading, the intro and the 12 background paragraphs
    await web.shot(page, 'history-inline-light');
    await skip.click();
    await visible(diff.getByText('Background paragraph 7 that nobody touched.'));

    // Side by side: the older version on the left.
    await page.reload();
    await visible(diffOf(page));
    await choose(page, 'Side by side');
    await visible(diffOf(page).getByText('Version 1', { exact: true }));
    await visible(diffOf(page).getByText('Version 2', { exact: true }));
    await web.shot(page, 'history-split-light');
    await page.getByRole('button', { name: 'Use dark theme' }).click();
    await web.shot(page, 'history-split-dark');
    await choose(page, 'Inline');
    await web.shot(page, 'history-inline-dark');
    await page.getByRole('button', { name: 'Use light theme' }).click();

    // Version 1 with the current page; then the first version on its own (the whole page added).
    await page.getByRole('button', { name: /^Version 1\b/ }).click();
    await visible(page.getByText('Version 1: the page as it was created'));
    await choose(page, 'Current page');
    await visible(page.getByText('Version 1 compared with the current page'));
    await expect.poll(() => page.getByTestId('diff-summary').textContent()).toBe('Blocks: 5 changed, 1 added, 1 removed');

    const phone = await web.newPage({ width: 375, height: 800 });
    await phone.request.post('/api/v1/auth/session', { data: { email: owner.who.email, password: owner.who.password } });
    await phone.goto(`${pageUrl(plan)}/history`);
    await visible(diffOf(phone).locator('ins'));
    await web.shot(phone, 'history-inline-375');
    await choose(phone, 'Side by side');
    await web.shot(phone, 'history-split-375');
  });

  it('restores a version after asking, and Undo brings back the page as it was (each a new version)', async () => {
    const plan = await newPage('Restore me', 'The first draft.');
    await update(plan.id, 'The final text.');
    const { page } = owner;
    await page.goto(`${pageUrl(plan)}/history`);
    await page.getByRole('button', { name: /^Version 1\b/ }).click();
    await page.getByRole('button', { name: 'Restore version 1' }).click();
    const dialog = await visible(page.getByRole('dialog', { name: 'Restore version 1?' }));
    await visible(dialog.getByText(/Restore this version\? The current page is kept in history/));
    await web.shot(page, 'history-restore-confirm');
    // Cancel leaves everything as it was.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect((await readBack(plan.id)).markdown.trim()).toBe('The final text.');

    await page.getByRole('button', { name: 'Restore version 1' }).click();
    await page.getByRole('dialog', { name: 'Restore version 1?' }).getByRole('button', { name: 'Restore' }).click();
    await page.waitForURL((url) => !url.pathname.endsWith('/history'));
    await expect.poll(() => editorOf(page).textContent(), { timeout: 15_000 }).toContain('The first draft.');
    expect((await readBack(plan.id)).markdown.trim()).toBe('The first draft.');
    const note = await visible(page.getByText('Restored version 1 as version 3.'));
    await web.shot(page, 'history-restored-undo');
    await page.getByRole('button', { name: 'Undo' }).click();
    await visible(page.getByText('Undone: the page is back to version 2 (kept as a new version).'));
    expect(await note.isVisible()).toBe(false);
    await expect.poll(() => editorOf(page).textContent(), { timeout: 15_000 }).toContain('The final text.');
    expect((await readBack(plan.id)).markdown.trim()).toBe('The final text.');
    const history = await web.t.request({ url: `/api/v1/pages/${plan.id}/history`, token: owner.token });
    expect(history.body.data.map((e: { version: number; summary: string }) => [e.version, e.summary])).toEqual([
      [4, 'Restored version 2'],
      [3, 'Restored version 1'],
      [2, 'Edited content'],
      [1, 'Created page'],
    ]);
  });

  it('diffs a 1 MB page in a worker: the main thread keeps painting', async () => {
    const paragraph = (i: number) => `Paragraph ${i}: ${'lorem ipsum dolor sit amet consectetur '.repeat(6).trim()}.`;
    const blocks = Array.from({ length: 4_200 }, (_, i) => paragraph(i));
    const big = await newPage('Big page', blocks.join('\n\n'));
    const edited = blocks.map((b, i) => (i % 400 === 7 ? b.replace('dolor', 'DOLOR changed') : b));
    edited.splice(2_000, 0, 'An inserted paragraph in the middle.');
    await update(big.id, edited.join('\n\n'));
    const size = (await readBack(big.id)).markdown.length;
    expect(size).toBeGreaterThan(1_000_000);

    const { page } = owner;
    await page.goto(pageUrl(guide));
    await visible(editorOf(page));
    // Frames painted while the history screen loads and compares: the longest gap between two is the longest freeze.
    await page.evaluate(() => {
      const w = window as unknown as { __gaps: number[] };
      w.__gaps = [];
      let last = performance.now();
      const tick = (now: number) => {
        w.__gaps.push(now - last);
        last = now;
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const started = Date.now();
    await page.evaluate(
      (url) => {
        history.pushState(null, '', url);
        dispatchEvent(new PopStateEvent('popstate'));
      },
      `${pageUrl(big)}/history`,
    );
    const summary = await visible(page.getByTestId('diff-summary'), 30_000);
    await expect.poll(() => summary.textContent(), { timeout: 30_000 }).toBe('Blocks: 11 changed, 1 added');
    const shownAfter = Date.now() - started;
    const workerMs = Number(await summary.getAttribute('data-diff-ms'));
    const gaps = await page.evaluate(() => (window as unknown as { __gaps: number[] }).__gaps);
    const longest = Math.max(...gaps);
    console.log(
      `[1 MB diff] ${size} chars of Markdown; worker ${workerMs} ms; shown ${shownAfter} ms after navigating; longest frame gap ${Math.round(longest)} ms`,
    );
    expect(workerMs).toBeGreaterThan(0);
    await page.screenshot({ path: '.tmp/screens/history-1mb.png' });
  }, 240_000);
});

describe('mentions', () => {
  it('shows people and pages as chips; a page mention opens the page (Ctrl-click in the editor, a click when reading)', async () => {
    const plan = await newPage('Team notes', 'Notes: ');
    const { page } = owner;
    await page.goto(pageUrl(plan));
    const editor = await visible(editorOf(page));
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' ask @', { delay: 20 });
    const menu = await visible(page.getByRole('listbox', { name: 'Mention' }));
    await menu.getByRole('option', { name: new RegExp(ownerName) }).click();
    await page.keyboard.type('about @Onboard', { delay: 20 });
    await visible(page.getByRole('listbox', { name: 'Mention' }).getByRole('option', { name: /Onboarding guide/ }), 15_000);
    await page
      .getByRole('listbox', { name: 'Mention' })
      .getByRole('option', { name: /Onboarding guide/ })
      .click();
    const person = await visible(editor.locator('.kb-mention-person'));
    expect(await person.textContent()).toBe(`@${ownerName}`);
    const chip = await visible(editor.locator('.kb-mention-page'));
    expect(await chip.textContent()).toBe('Onboarding guide');
    expect(await chip.getAttribute('title')).toMatch(/Ctrl-click/);
    // The chips are styled (a tinted background), not plain text.
    const background = await person.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).not.toBe('rgba(0, 0, 0, 0)');
    await expect.poll(async () => (await readBack(plan.id)).markdown, { timeout: 10_000 }).toContain(`(mention:page%3A${guide.id})`);
    await web.shot(page, 'mentions-editor-light');
    await page.getByRole('button', { name: 'Use dark theme' }).click();
    await web.shot(page, 'mentions-editor-dark');
    await page.getByRole('button', { name: 'Use light theme' }).click();

    // A plain click in the editor places the caret; Ctrl-click opens the page.
    await chip.click();
    expect(page.url()).toContain(plan.id);
    await chip.click({ modifiers: ['Control'] });
    await page.waitForURL(`**/p/*${guide.id}`);
    await visible(editorOf(page).getByText('Welcome aboard.'));

    // On a phone.
    const phone = await web.newPage({ width: 375, height: 800 });
    await phone.request.post('/api/v1/auth/session', { data: { email: owner.who.email, password: owner.who.password } });
    await phone.goto(pageUrl(plan));
    await visible(editorOf(phone).locator('.kb-mention-page'));
    await web.shot(phone, 'mentions-editor-375');

    // Renamed and moved under another page (here by the API), the page is mentioned under its new name, and the
    // mention still opens it; the stored mention is untouched (its id is what it follows).
    const moved = await web.t.request({
      method: 'PUT',
      url: `/api/v1/pages/${guide.id}`,
      token: owner.token,
      body: { title: 'Welcome handbook', parentId: plan.id },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await page.goto(pageUrl(plan));
    const renamed = await visible(editorOf(page).locator('.kb-mention-page'));
    await expect.poll(() => renamed.textContent()).toBe('Welcome handbook');
    expect(await renamed.getAttribute('title')).toMatch(/“Welcome handbook”: Ctrl-click/);
    expect((await readBack(plan.id)).markdown).toContain(`(mention:page%3A${guide.id})`);
    await renamed.click({ modifiers: ['Control'] });
    await page.waitForURL(`**/p/welcome-handbook-${guide.id}`);
    await visible(editorOf(page).getByText('Welcome aboard.'));
  });
});

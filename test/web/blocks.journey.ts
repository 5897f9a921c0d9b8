import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createUser, createWorkspace, type TestUser } from '../helpers/factories.js';
import { createPage, editorOf, formSignedIn, pageAddress, readPage, useWebApp, visible } from './harness.js';

/** Callout, toggle, math and Mermaid diagram: inserted from the slash menu, reloaded, exported and imported back. */

const web = useWebApp();
let owner: TestUser;
let ws: { id: string; hostname: string };
let space: { id: string; slug: string };

const newPage = (title: string, markdown: string) => createPage(web, { token: owner.token, workspaceId: ws.id, spaceId: space.id }, title, { markdown });
const pageUrl = (p: { id: string; slug: string }) => pageAddress(ws.hostname, space.slug, p);
const markdownOf = async (id: string) => (await readPage(web, owner.token, id)).markdown;

async function slash(page: Page, name: RegExp) {
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('/', { delay: 15 });
  await visible(page.getByRole('listbox', { name: 'Insert block' }));
  await page.getByRole('option', { name }).click();
}

beforeAll(async () => {
  owner = await createUser(web.t, 'Owner');
  ws = await createWorkspace(web.t, owner, 'Blocks');
  const res = await web.t.request({ method: 'POST', url: '/api/v1/spaces', token: owner.token, body: { workspaceId: ws.id, name: 'Handbook' } });
  space = res.body.data;
});

describe('callout, toggle, math and diagram blocks', () => {
  it('inserts each from the slash menu, keeps them after a reload, and exports Markdown that imports back identical', async () => {
    const target = await newPage('Blocks', 'Start here.');
    const page = await formSignedIn(web, owner);
    await page.goto(pageUrl(target));
    const editor = await visible(editorOf(page));
    await editor.click();

    await slash(page, /Callout/);
    await page.keyboard.type('Mind the gap', { delay: 15 });
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await slash(page, /Diagram/);
    await page.keyboard.press('Control+End');
    await page.keyboard.press('ArrowDown');
    await slash(page, /Toggle/);
    // The caret is now in the toggle's body: open it, and the formula goes inside it.
    await page.getByRole('button', { name: 'Open toggle' }).click();
    await slash(page, /Math block/);
    const source = await visible(page.getByRole('textbox', { name: 'TeX source' }));
    await source.fill('E = mc^2');
    await source.press('Control+Enter');

    await expect.poll(() => markdownOf(target.id), { timeout: 10_000 }).toContain('E = mc^2');
    const md = await markdownOf(target.id);
    expect(md).toContain(':::info\nMind the gap');
    expect(md).toContain('$$\nE = mc^2\n$$');
    expect(md).toContain('```mermaid\ngraph TD');
    expect(md).toContain('<summary>Toggle</summary>');

    await page.reload();
    await visible(editorOf(page));
    await visible(page.locator('aside.callout-info'));
    await visible(page.locator('.kb-diagram svg'), 30_000);
    // Opened before the reload: still open for this reader (kept in the browser, not in the page).
    await visible(page.getByRole('button', { name: 'Close toggle' }));
    await visible(page.locator('.kb-math-block .katex'), 15_000);
    await web.shot(page, 'blocks-desktop-light');

    const copy = await newPage('Blocks copy', md);
    expect(await markdownOf(copy.id)).toBe(md);

    await page.getByRole('button', { name: 'Use dark theme' }).click();
    await web.shot(page, 'blocks-desktop-dark');
    const phone = await formSignedIn(web, owner, { width: 375, height: 800 });
    await phone.goto(pageUrl(target));
    await visible(phone.locator('aside.callout-info'));
    await web.shot(phone, 'blocks-375-light');
  });
});

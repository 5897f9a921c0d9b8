import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiSignedInWorkspace, createPage, editorOf, handbookWithPage, pageAddress, readPage, useWebApp, visible, type WebApp } from './harness.js';

/**
 * The live blocks: "Subpages" and "Table of contents" inserted from the slash menu list the page's child pages and its
 * headings, follow a heading typed after and a child renamed in the tree, open a child and scroll to a heading on a
 * click, stay after a reload, and the page keeps `::subpages` and `::toc`.
 */

const web: WebApp = useWebApp();
const FILLER = Array.from({ length: 12 }, (_, i) => `Paragraph ${i + 1} of the handbook, long enough to take a line or two on a phone screen.`).join('\n\n');
const MARKDOWN = `# Overview\n\n${FILLER}\n\n## Setup\n\nInstall the tools.\n\n## Questions\n\nAsk in the channel.\n`;

let owner: Awaited<ReturnType<typeof apiSignedInWorkspace>>;
let parent: { id: string; slug: string };
let spaceId: string;

const markdownOf = async () => (await readPage(web, owner.token, parent.id)).markdown;

async function slash(page: Page, name: RegExp) {
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('/', { delay: 15 });
  await visible(page.getByRole('listbox', { name: 'Insert block' }));
  await page.getByRole('option', { name }).click();
}

beforeAll(async () => {
  owner = await apiSignedInWorkspace(web, 'owner');
  const made = await handbookWithPage(web, owner.token, owner.workspaceId, 'Team handbook', MARKDOWN);
  spaceId = made.spaceId;
  parent = { id: made.pageId, slug: made.slug };
  const child = await web.t.request({
    method: 'POST',
    url: '/api/v1/pages',
    token: owner.token,
    body: { workspaceId: owner.workspaceId, spaceId, parentId: parent.id, title: 'Onboarding checklist', icon: '🧭', markdown: 'Day one.\n' },
  });
  expect(child.status, JSON.stringify(child.body)).toBe(201);
});

describe('live blocks', () => {
  it('lists the child pages and the headings, opens a child, scrolls to a heading, and keeps both after a reload', async () => {
    const page = owner.page;
    await page.goto(pageAddress(owner.hostname, 'handbook', parent));
    const editor = await visible(editorOf(page));
    await editor.click();

    await slash(page, /^Subpages/);
    const subpages = page.locator('nav.kb-live-subpages');
    await visible(subpages.getByRole('link', { name: 'Onboarding checklist' }));
    expect(await subpages.getByRole('link', { name: 'Onboarding checklist' }).textContent()).toBe('🧭Onboarding checklist');

    await slash(page, /^Table of contents/);
    const toc = page.locator('nav.kb-live-toc');
    await visible(toc.getByRole('button', { name: 'Questions' }));
    expect(await toc.getByRole('listitem').allTextContents()).toEqual(['Overview', 'Setup', 'Questions']);

    // A heading typed after shows in the contents as the page is edited.
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('## Contacts', { delay: 15 });
    await visible(toc.getByRole('button', { name: 'Contacts' }));

    // A click scrolls to its heading (the first, far above the contents at the page's end).
    const overview = page.getByRole('heading', { name: 'Overview' });
    await toc.getByRole('button', { name: 'Overview' }).click();
    await expect.poll(async () => (await overview.boundingBox())?.y ?? -1000).toBeGreaterThan(-5);
    expect((await overview.boundingBox())!.y).toBeLessThan(200);

    await expect.poll(markdownOf, { timeout: 10_000 }).toContain('## Contacts');
    const md = await markdownOf();
    expect(md).toBe(`${MARKDOWN}\n::subpages\n\n::toc\n\n## Contacts\n`);
    await web.shot(page, 'live-blocks-light');
    await page.getByRole('button', { name: 'Use dark theme' }).click();
    await web.shot(page, 'live-blocks-dark');
    await page.getByRole('button', { name: 'Use light theme' }).click();

    // A child renamed in the sidebar's tree is renamed in the block at once (the same query).
    await page.getByRole('button', { name: 'Expand Team handbook' }).click();
    await page.getByRole('button', { name: 'Page actions: Onboarding checklist', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    const rename = page.getByRole('tree').getByLabel('Page title');
    await rename.fill('First week');
    await rename.press('Enter');
    await visible(subpages.getByRole('link', { name: 'First week' }));

    // After a reload both are still there, and a child added meanwhile is listed too; a click opens it.
    await createPage(web, { token: owner.token, workspaceId: owner.workspaceId, spaceId }, 'Release notes', { markdown: 'Soon.\n', parentId: parent.id });
    await page.reload();
    await visible(editorOf(page));
    await visible(toc.getByRole('button', { name: 'Contacts' }));
    await visible(subpages.getByRole('link', { name: 'Release notes' }));
    await expect.poll(() => subpages.getByRole('listitem').count()).toBe(2);
    await subpages.getByRole('link', { name: 'First week' }).click();
    await page.waitForURL(/first-week-/);
    // The address changes at the click; the title field follows once the child's read is in.
    const title = await visible(page.getByRole('textbox', { name: 'Title' }));
    await expect.poll(() => title.inputValue()).toBe('First week');
  });

  it('fits a phone at 375 px, and says so when a page has no children or headings', async () => {
    const phone = await web.newPage({ width: 375, height: 800 });
    await phone.context().addCookies(await owner.page.context().cookies());
    await phone.goto(pageAddress(owner.hostname, 'handbook', parent));
    await visible(phone.locator('nav.kb-live-subpages').getByRole('link', { name: 'First week' }));
    await phone.locator('nav.kb-live-toc').scrollIntoViewIfNeeded();
    await web.shot(phone, 'live-blocks-375');
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);

    const empty = await createPage(web, { token: owner.token, workspaceId: owner.workspaceId, spaceId }, 'Empty', { markdown: '::subpages\n\n::toc\n' });
    await phone.goto(pageAddress(owner.hostname, 'handbook', empty));
    await visible(phone.locator('nav.kb-live-subpages').getByText('No subpages yet'));
    await visible(phone.locator('nav.kb-live-toc').getByText(/No headings yet/));
    await web.shot(phone, 'live-blocks-empty-375');
  });
});

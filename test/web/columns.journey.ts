import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiSignedInWorkspace, caretInto, editorOf, handbookWithPage, pageAddress, readPage, typeIn, useWebApp, visible, type WebApp } from './harness.js';

/**
 * Columns: "/2 columns" puts two empty columns in, text typed in each stays side by side after a reload and is kept as
 * `::::columns` Markdown; a second tab on the page sees the columns as they are typed (co-editing); "3 columns" is not
 * offered inside a column; Backspace in an empty first column takes empty columns back to a paragraph; on a phone the
 * columns stack.
 */

const web: WebApp = useWebApp();
let owner: Awaited<ReturnType<typeof apiSignedInWorkspace>>;
let doc: { id: string; slug: string };

const markdownOf = async () => (await readPage(web, owner.token, doc.id)).markdown;

async function slash(page: Page, name: RegExp) {
  await page.keyboard.type('/', { delay: 15 });
  await visible(page.getByRole('listbox', { name: 'Insert block' }));
  await page.getByRole('option', { name }).click();
}

const columnsIn = (page: Page) => editorOf(page).locator('div[data-type="columns"]');

beforeAll(async () => {
  owner = await apiSignedInWorkspace(web, 'owner');
  const made = await handbookWithPage(web, owner.token, owner.workspaceId, 'Plan', '# Plan\n\nIntro line.\n');
  doc = { id: made.pageId, slug: made.slug };
});

describe('columns', () => {
  it('inserts two columns from "/", types in both, keeps them after a reload and in Markdown, and shows them to another tab as typed', async () => {
    const page = owner.page;
    await page.goto(pageAddress(owner.hostname, 'handbook', doc));
    const editor = await visible(editorOf(page));
    const other = await web.newPage();
    await other.context().addCookies(await page.context().cookies());
    await other.goto(pageAddress(owner.hostname, 'handbook', doc));
    await visible(editorOf(other));

    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await slash(page, /^2 columns/);
    const columns = await visible(columnsIn(page));
    const cols = columns.locator('div[data-type="column"]');
    expect(await cols.count()).toBe(2);
    // The caret is in the first column.
    await typeIn(page, 'Left side');
    await expect.poll(() => cols.nth(0).textContent()).toBe('Left side');
    await cols.nth(1).locator('p').click();
    await typeIn(page, 'Right side');
    await page.keyboard.press('Enter');
    await typeIn(page, '- a list in a column');
    await expect.poll(() => cols.nth(1).locator('li').count()).toBe(1);

    // Side by side: the second column starts to the right of the first, on the same line.
    const [a, b] = [await cols.nth(0).boundingBox(), await cols.nth(1).boundingBox()];
    expect(b!.x).toBeGreaterThan(a!.x + a!.width - 1);
    expect(Math.abs(b!.y - a!.y)).toBeLessThan(2);

    // The other tab sees them as they are typed.
    await expect.poll(() => columnsIn(other).locator('div[data-type="column"]').nth(1).textContent(), { timeout: 15_000 }).toContain('a list in a column');
    await other.close();

    await expect.poll(markdownOf, { timeout: 10_000 }).toContain('a list in a column');
    expect(await markdownOf()).toBe(
      '# Plan\n\nIntro line.\n\n::::columns\n:::column\nLeft side\n\n:::\n\n:::column\nRight side\n\n- a list in a column\n\n:::\n\n::::\n',
    );
    await web.shot(page, 'columns-light');
    await page.getByRole('button', { name: 'Use dark theme' }).click();
    await web.shot(page, 'columns-dark');
    await page.getByRole('button', { name: 'Use light theme' }).click();

    await page.reload();
    await visible(editorOf(page));
    const again = columnsIn(page).locator('div[data-type="column"]');
    await expect.poll(() => again.allTextContents()).toEqual(['Left side', 'Right sidea list in a column']);
  });

  it('offers no columns inside a column; Backspace at the start of a column keeps the columns, and empties columns back to a paragraph', async () => {
    const page = owner.page;
    const cols = columnsIn(page).locator('div[data-type="column"]');
    // At the start of the second column, Backspace leaves both columns as they are.
    await expect.poll(() => cols.allTextContents()).toEqual(['Left side', 'Right sidea list in a column']);
    await cols.nth(1).getByText('Right side', { exact: true }).click();
    await caretInto(page, 'Right side', 0);
    await page.keyboard.press('Backspace');
    await expect.poll(() => cols.allTextContents()).toEqual(['Left side', 'Right sidea list in a column']);
    expect(await markdownOf()).toContain(':::column\nRight side\n\n- a list in a column\n');

    // "/" inside a column offers no columns.
    await cols.nth(0).locator('p').click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('/col', { delay: 15 });
    const menu = page.getByRole('listbox', { name: 'Insert block' });
    await visible(menu.or(page.getByText('No block matches')));
    expect(await page.getByRole('option', { name: /columns/ }).count()).toBe(0);
    await page.keyboard.press('Escape');
    for (let i = 0; i < 5; i++) await page.keyboard.press('Backspace');
    await expect.poll(() => cols.allTextContents()).toEqual(['Left side', 'Right sidea list in a column']);

    // Three empty columns at the end: Backspace in the first takes them back to one empty paragraph.
    await page.keyboard.press('Control+End');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const before = await columnsIn(page).count();
    await slash(page, /^3 columns/);
    await expect.poll(() => columnsIn(page).count()).toBe(before + 1);
    expect(await columnsIn(page).last().locator('div[data-type="column"]').count()).toBe(3);
    await page.keyboard.press('Backspace');
    await expect.poll(() => columnsIn(page).count()).toBe(before);
    await typeIn(page, 'After');
    await expect.poll(markdownOf, { timeout: 10_000 }).toMatch(/::::\n+After\n$/);
  });

  it('stacks the columns on a 375 px phone, light and dark', async () => {
    const phone = await web.newPage({ width: 375, height: 800 });
    await phone.context().addCookies(await owner.page.context().cookies());
    await phone.goto(pageAddress(owner.hostname, 'handbook', doc));
    const cols = (await visible(columnsIn(phone))).locator('div[data-type="column"]');
    const [a, b] = [await cols.nth(0).boundingBox(), await cols.nth(1).boundingBox()];
    expect(b!.y).toBeGreaterThan(a!.y + a!.height - 1);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await web.shot(phone, 'columns-375-light');
    await phone.getByRole('button', { name: 'Use dark theme' }).click();
    await web.shot(phone, 'columns-375-dark');
  });
});

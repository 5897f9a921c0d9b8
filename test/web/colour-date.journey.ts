import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createUser, createWorkspace, type TestUser } from '../helpers/factories.js';
import { createPage, editorOf, formSignedIn, pageAddress, readPage, useWebApp, visible, wordAt } from './harness.js';

/**
 * Text colour and dates in the editor: a word coloured from the selection toolbar's "Text colour" menu, a date put in
 * from the slash menu (today) and changed in its field; both still there after a reload, in the stored Markdown, and
 * readable in the dark theme and on a phone.
 */

const web = useWebApp();
let owner: TestUser;
let ws: { id: string; hostname: string };
let space: { id: string; slug: string };

const markdownOf = async (id: string) => (await readPage(web, owner.token, id)).markdown;

/** A day as this browser shows a date chip ("Dec 24, 2026" in English). */
const shownDay = (page: Page, iso: string) =>
  page.evaluate((d) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${d}T00:00:00Z`)), iso);

/** Waits for a menu's opening transition to end (a screenshot mid-fade shows every colour paler than it is). */
const settled = (menu: Locator) => expect.poll(() => menu.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');

const colourOf = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => getComputedStyle(el).color);

beforeAll(async () => {
  owner = await createUser(web.t, 'Owner');
  ws = await createWorkspace(web.t, owner, 'Colours');
  const res = await web.t.request({ method: 'POST', url: '/api/v1/spaces', token: owner.token, body: { workspaceId: ws.id, name: 'Handbook' } });
  space = res.body.data;
});

describe('text colour and dates', () => {
  it('colours a word from the toolbar, inserts a date and changes it; both survive a reload and are stored as Markdown', async () => {
    const target = await createPage(web, { token: owner.token, workspaceId: ws.id, spaceId: space.id }, 'Launch', {
      markdown: 'The launch is blocked by the review.\n\nNext step:\n',
    });
    const url = pageAddress(ws.hostname, space.slug, target);
    const page = await formSignedIn(web, owner);
    await page.goto(url);
    const editor = await visible(editorOf(page));

    // Colour "blocked" red from the selection toolbar; every colour has its name.
    await editor.getByText(/is blocked by/).dblclick({ position: await wordAt(editor, 'blocked') });
    const toolbar = await visible(page.getByRole('toolbar', { name: 'Format the selection' }));
    await toolbar.getByRole('button', { name: 'Text colour' }).click();
    const menu = await visible(page.getByRole('menu', { name: 'Text colour' }));
    const names = await menu.getByRole('menuitem').allInnerTexts();
    const palette = ['Gray', 'Brown', 'Orange', 'Yellow', 'Green', 'Blue', 'Purple', 'Pink', 'Red'];
    expect(names.map((n) => n.replace(/^A\s*/, '').trim())).toEqual(['Default', ...palette, 'No background', ...palette.map((c) => `${c} background`)]);
    expect(await menu.getByRole('menuitem', { name: 'Default', exact: true }).getAttribute('aria-current')).toBe('true');
    await settled(menu);
    await web.shot(page, 'colour-menu-light');
    await menu.getByRole('menuitem', { name: 'Red', exact: true }).click();
    await visible(editor.locator('span[data-color="red"]', { hasText: 'blocked' }));
    expect(await colourOf(page, '.kb-prose span[data-color="red"]')).toBe('rgb(192, 57, 47)');
    // And a yellow background on "review".
    await editor.getByText(/by the review/).dblclick({ position: await wordAt(editor, 'review') });
    await page.getByRole('toolbar', { name: 'Format the selection' }).getByRole('button', { name: 'Text colour' }).click();
    await page.getByRole('menu', { name: 'Text colour' }).getByRole('menuitem', { name: 'Yellow background' }).click();
    await visible(editor.locator('mark[data-color="yellow"]', { hasText: 'review' }));
    expect(await editor.locator('mark[data-color="yellow"]').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(251, 243, 219)');

    // A date from the slash menu: today, shown in this browser's language.
    await editor.getByText('Next step:').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' /date', { delay: 15 });
    await visible(page.getByRole('listbox', { name: 'Insert block' }));
    await page.getByRole('option', { name: /^Date/ }).click();
    const chip = await visible(editor.locator('.kb-date'));
    const today = await page.evaluate(() => {
      const d = new Date();
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    });
    expect(await chip.innerText()).toBe(await shownDay(page, today));
    await expect.poll(() => markdownOf(target.id), { timeout: 10_000 }).toContain(`:date[${today}]`);

    // A click opens its field; a new day is written at once; Enter closes the field.
    await chip.locator('time').click();
    const field = await visible(page.getByLabel('Date', { exact: true }));
    expect(await field.inputValue()).toBe(today);
    await field.fill('2026-12-24');
    await web.shot(page, 'date-picker-light');
    await field.press('Enter');
    await expect.poll(() => chip.innerText()).toBe(await shownDay(page, '2026-12-24'));
    expect(await page.getByLabel('Date', { exact: true }).count()).toBe(0);

    await expect.poll(() => markdownOf(target.id), { timeout: 10_000 }).toContain(':date[2026-12-24]');
    expect(await markdownOf(target.id)).toBe(
      'The launch is <span data-color="red">blocked</span> by the <mark data-color="yellow">review</mark>.\n\nNext step: :date[2026-12-24]\n',
    );

    // After a reload: the red word and the changed date.
    await page.reload();
    await visible(editorOf(page));
    await visible(page.locator('.kb-prose span[data-color="red"]', { hasText: 'blocked' }));
    expect(await page.locator('.kb-prose .kb-date').innerText()).toBe(await shownDay(page, '2026-12-24'));
    expect(await page.locator('.kb-prose .kb-date time').getAttribute('datetime')).toBe('2026-12-24');
    await web.shot(page, 'colour-date-light');
    // From the keyboard: the arrow selects the date (after the space the slash menu put after it, where the line's
    // end is before or after that space), Enter opens its field, Escape goes back to the text.
    await editor.getByText('Next step:').click();
    // (Each key waits a moment: ProseMirror reads where the browser put the caret on the next selection change.)
    await page.keyboard.press('End');
    await page.waitForTimeout(150);
    const selected = editor.locator('.kb-date.ProseMirror-selectednode');
    for (let i = 0; i < 3 && (await selected.count()) === 0; i++) {
      await page.keyboard.press('ArrowLeft');
      await page.waitForTimeout(150);
    }
    await visible(selected);
    await page.keyboard.press('Enter');
    const again = await visible(page.getByLabel('Date', { exact: true }));
    expect(await again.inputValue()).toBe('2026-12-24');
    await again.press('Escape');
    await expect.poll(() => page.getByLabel('Date', { exact: true }).count()).toBe(0);
    expect(await markdownOf(target.id)).toBe(
      'The launch is <span data-color="red">blocked</span> by the <mark data-color="yellow">review</mark>.\n\nNext step: :date[2026-12-24]\n',
    );

    await page.getByRole('button', { name: 'Use dark theme' }).click();
    await expect.poll(() => colourOf(page, '.kb-prose span[data-color="red"]')).toBe('rgb(241, 130, 126)');
    await web.shot(page, 'colour-date-dark');
    // The menu in the dark theme.
    await editor.getByText('The launch is').dblclick({ position: await wordAt(editor, 'launch') });
    await page.getByRole('toolbar', { name: 'Format the selection' }).getByRole('button', { name: 'Text colour' }).click();
    await settled(await visible(page.getByRole('menu', { name: 'Text colour' })));
    await web.shot(page, 'colour-menu-dark');
    await page.keyboard.press('Escape');

    const phone = await formSignedIn(web, owner, { width: 375, height: 800 });
    await phone.goto(url);
    await visible(phone.locator('.kb-prose span[data-color="red"]'));
    await phone.locator('.kb-prose .kb-date time').click();
    await visible(phone.getByLabel('Date', { exact: true }));
    // The field stays on the screen.
    const box = await phone.locator('.kb-date-picker').boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    await web.shot(phone, 'colour-date-375');
  });
});

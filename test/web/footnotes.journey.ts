import { beforeAll, describe, expect, it } from 'vitest';
import { createUser, createWorkspace, type TestUser } from '../helpers/factories.js';
import { caretInto, createPage, editorOf, formSignedIn, pageAddress, readPage, storedWith, typeIn, useWebApp, visible } from './harness.js';

/**
 * Footnotes in the editor: one put in from the slash menu and written in its field, shown as a superscript number
 * with its text on hover or focus and in the Footnotes list under the page; still there after a reload, stored as
 * GFM Markdown (`[^1]` and its definition); a click opens it again for a change; a second one is numbered 2; readable
 * in the dark theme and on a phone.
 */

const web = useWebApp();
let owner: TestUser;
let ws: { id: string; hostname: string };
let space: { id: string; slug: string };

beforeAll(async () => {
  owner = await createUser(web.t, 'Owner');
  ws = await createWorkspace(web.t, owner, 'Notes');
  const res = await web.t.request({ method: 'POST', url: '/api/v1/spaces', token: owner.token, body: { workspaceId: ws.id, name: 'Handbook' } });
  space = res.body.data;
});

describe('footnotes', () => {
  it('inserts a footnote from the slash menu, writes its text, and keeps it numbered through a reload and in Markdown', async () => {
    const target = await createPage(web, { token: owner.token, workspaceId: ws.id, spaceId: space.id }, 'Boiling', {
      markdown: 'Water boils at 100 degrees.\n\nIce melts at zero.\n',
    });
    const url = pageAddress(ws.hostname, space.slug, target);
    const page = await formSignedIn(web, owner);
    await page.goto(url);
    const editor = await visible(editorOf(page));

    await editor.getByText('Water boils at 100 degrees.').click();
    await page.keyboard.press('End');
    await typeIn(page, ' /footn');
    await visible(page.getByRole('listbox', { name: 'Insert block' }));
    await page.getByRole('option', { name: /^Footnote/ }).click();
    const field = await visible(page.getByLabel('Footnote 1 text'));
    await field.fill('At sea level, under one atmosphere.');
    await web.shot(page, 'footnote-field-light');
    await field.press('Enter');
    await expect.poll(() => page.getByLabel('Footnote 1 text').count()).toBe(0);

    const ref = editor.locator('.kb-footnote-ref');
    expect(await ref.innerText()).toBe('1');
    expect(await ref.getAttribute('aria-label')).toBe('Footnote 1: At sea level, under one atmosphere. (press Enter to edit)');
    await visible(editor.locator('.kb-footnotes li', { hasText: 'At sea level, under one atmosphere.' }));
    // Typing goes on after it, in the same line.
    await typeIn(page, ' More');
    const stored = await storedWith(web, owner.token, target.id, '[^1] More', 15_000);
    expect(stored.markdown).toBe('Water boils at 100 degrees.[^1] More\n\nIce melts at zero.\n\n[^1]: At sea level, under one atmosphere.\n');

    // After a reload: the number, its text on hover, the list under the page.
    await page.reload();
    const again = await visible(editorOf(page));
    const number = await visible(again.locator('.kb-footnote-ref'));
    expect(await number.innerText()).toBe('1');
    await number.hover();
    await visible(again.locator('.kb-footnote-tip', { hasText: 'At sea level, under one atmosphere.' }));
    await web.shot(page, 'footnote-light');

    // A second one, before the first: it becomes 1 and the first becomes 2.
    await again.getByText('Water boils').click();
    await caretInto(page, 'Water', 'Water'.length);
    await typeIn(page, ' /footn');
    await visible(page.getByRole('listbox', { name: 'Insert block' }));
    await page.getByRole('option', { name: /^Footnote/ }).click();
    const second = await visible(page.getByLabel('Footnote 1 text'));
    await second.fill('Pure water.');
    await second.press('Enter');
    await expect.poll(() => again.locator('.kb-footnote-ref').allInnerTexts()).toEqual(['1', '2']);
    expect(await again.locator('.kb-footnote-ref').nth(1).getAttribute('aria-label')).toMatch(/^Footnote 2: At sea level, under/);
    expect(await again.locator('.kb-footnotes li').allInnerTexts()).toEqual(['Pure water.', 'At sea level, under one atmosphere.']);
    await storedWith(web, owner.token, target.id, '[^2]: At sea level', 15_000);

    // A click opens the second; a changed text is stored; Escape closes.
    await again.locator('.kb-footnote-ref').nth(1).click();
    const edit = await visible(page.getByLabel('Footnote 2 text'));
    expect(await edit.inputValue()).toBe('At sea level, under one atmosphere.');
    await edit.fill('At sea level.');
    await edit.press('Escape');
    const changed = await storedWith(web, owner.token, target.id, '[^2]: At sea level.\n', 15_000);
    expect(changed.markdown).toBe('Water[^1] boils at 100 degrees.[^2] More\n\nIce melts at zero.\n\n[^1]: Pure water.\n[^2]: At sea level.\n');

    // Opened and left empty, a new footnote goes away.
    await again.getByText('Ice melts at zero.').click();
    await page.keyboard.press('End');
    await typeIn(page, ' /footn');
    await page.getByRole('option', { name: /^Footnote/ }).click();
    const empty = await visible(page.getByLabel('Footnote 3 text'));
    await empty.press('Escape');
    await expect.poll(() => again.locator('.kb-footnote-ref').count()).toBe(2);

    await page.getByRole('button', { name: 'Use dark theme' }).click();
    await again.locator('.kb-footnote-ref').nth(1).hover();
    await visible(again.locator('.kb-footnote-tip', { hasText: 'At sea level.' }));
    await web.shot(page, 'footnote-dark');

    const phone = await formSignedIn(web, owner, { width: 375, height: 800 });
    await phone.goto(url);
    const small = await visible(editorOf(phone));
    await small.locator('.kb-footnote-ref').nth(1).click();
    await visible(phone.getByLabel('Footnote 2 text'));
    // The field stays on the screen.
    const box = await phone.locator('.kb-footnote-editor').boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    await web.shot(phone, 'footnote-375');
    expect((await readPage(web, owner.token, target.id)).markdown).toMatch(/\[\^1\].*\[\^2\]/s);
  });
});

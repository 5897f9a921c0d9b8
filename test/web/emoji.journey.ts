import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../helpers/factories.js';
import { createPage, editorOf, formSignedIn, ownerViewerHandbook, pageAddress, readPage, typeIn, useWebApp, visible } from './harness.js';

/**
 * Emoji and moving blocks in the editor: ":" and two letters list shortcodes (Enter, Tab or a click puts the emoji in
 * as text), a whole `:heart:` typed turns into ❤️; the slash menu's "Emoji" opens a picker (search, arrows, Enter,
 * Escape, a click); Alt+Shift+↓/↑ move the block with the caret, and the handle left of a block drags it. Every change
 * is read back from the stored Markdown and after a reload; a viewer gets no handle.
 */

const web = useWebApp();
let owner: TestUser;
let viewer: TestUser;
let ws: { id: string; hostname: string };
let space: { id: string; slug: string };

const newPage = (title: string, markdown: string) => createPage(web, { token: owner.token, workspaceId: ws.id, spaceId: space.id }, title, { markdown });
const pageUrl = (p: { id: string; slug: string }) => pageAddress(ws.hostname, space.slug, p);
const markdownOf = async (id: string) => (await readPage(web, owner.token, id)).markdown;
/** The editor's top-level blocks' text, in order. */
const blocksOf = (editor: Locator) => editor.evaluate((el) => Array.from(el.children, (c) => c.textContent ?? ''));
/** The system's colour scheme, which the app follows (a click on the theme button would take the focus, closing the popups). */
async function scheme(page: Page, which: 'dark' | 'light') {
  await page.emulateMedia({ colorScheme: which });
  await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme')).toBe(which);
}

/** A screenshot in both themes (the theme is put back to light). */
async function shots(page: Page, name: string) {
  await web.shot(page, `${name}-light`);
  await scheme(page, 'dark');
  await web.shot(page, `${name}-dark`);
  await scheme(page, 'light');
}

/** Opens the page and puts the caret at the end of the block holding `text`. */
async function caretAfter(page: Page, editor: Locator, text: string) {
  await editor.getByText(text, { exact: true }).click();
  await page.keyboard.press('End');
  // The editor takes the browser's caret a moment later (on selectionchange): keys pressed before would act where it was.
  const caret = () =>
    editor.evaluate((el) => {
      const { $from } = (el as unknown as { editor: { state: { selection: { $from: { parent: { textContent: string }; parentOffset: number } } } } }).editor
        .state.selection;
      return $from.parentOffset === $from.parent.textContent.length ? $from.parent.textContent : null;
    });
  await expect.poll(caret).toBe(text);
}

beforeAll(async () => {
  ({ owner, viewer, ws, space } = await ownerViewerHandbook(web, 'Emoji'));
});

describe('emoji', () => {
  it('lists shortcodes after ":" and two letters, puts the picked emoji in as text, converts a whole :code:, and keeps them after a reload', async () => {
    const target = await newPage('Release', 'Shipped\n\nAt 10:30 we met\n');
    const page = await formSignedIn(web, owner);
    await page.goto(pageUrl(target));
    const editor = await visible(editorOf(page));
    const list = page.getByRole('listbox', { name: 'Emoji' });

    // One letter opens nothing; the second does (the data loads then, on first use).
    await caretAfter(page, editor, 'Shipped');
    await typeIn(page, ' :s');
    await page.waitForTimeout(300);
    expect(await list.count()).toBe(0);
    await typeIn(page, 'mi');
    await visible(list.getByRole('option', { name: /:smile: grinning face with smiling eyes/ }));
    const labels = await list.getByRole('option').allInnerTexts();
    expect(labels.length).toBeGreaterThan(3);
    expect(labels.every((l) => /:[a-z_]*smi[a-z_]*:/.test(l))).toBe(true);
    await shots(page, 'emoji-autocomplete');

    // Enter takes the first (an exact shortcode comes first), Tab too, a click any.
    await typeIn(page, 'le');
    await visible(list.getByRole('option').first().getByText(':smile:', { exact: true }));
    await page.keyboard.press('Enter');
    await expect.poll(() => list.count()).toBe(0);
    await typeIn(page, ' :tada');
    await visible(list.getByRole('option').first().getByText(':tada:', { exact: true }));
    await page.keyboard.press('Tab');
    await typeIn(page, ' :rock');
    await list.getByRole('option', { name: /:rocket:/ }).click();
    await expect.poll(() => editor.getByText(/^Shipped/).textContent()).toBe('Shipped 😄 🎉 🚀');

    // A whole shortcode typed converts; one nobody knows stays text; a time's colon opens nothing.
    await typeIn(page, ' :heart: :nosuchcode: ok');
    await expect.poll(() => editor.getByText(/^Shipped/).textContent()).toBe('Shipped 😄 🎉 🚀 ❤️ :nosuchcode: ok');
    await caretAfter(page, editor, 'At 10:30 we met');
    await typeIn(page, ' until 11:45');
    await page.waitForTimeout(300);
    expect(await list.count()).toBe(0);

    // Plain text in the page: the stored Markdown has the characters, and a reload shows them.
    await expect.poll(() => markdownOf(target.id), { timeout: 10_000 }).toBe('Shipped 😄 🎉 🚀 ❤️ :nosuchcode: ok\n\nAt 10:30 we met until 11:45\n');
    await page.reload();
    const again = await visible(editorOf(page));
    await visible(again.getByText('Shipped 😄 🎉 🚀 ❤️ :nosuchcode: ok', { exact: true }));
  });

  it('picks from the slash menu’s picker by search and arrows, by a click, and closes on Escape', async () => {
    const target = await newPage('Picker', 'Mood\n');
    const page = await formSignedIn(web, owner);
    await page.goto(pageUrl(target));
    const editor = await visible(editorOf(page));
    const search = page.getByRole('combobox', { name: 'Search emoji' });
    const grid = page.getByRole('listbox', { name: 'Emoji' });
    const openPicker = async () => {
      await typeIn(page, ' /emo');
      await page.getByRole('option', { name: /^Emoji/ }).click();
      await visible(grid.getByRole('option', { name: 'grinning face', exact: true }));
    };

    await caretAfter(page, editor, 'Mood');
    await openPicker();
    await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await grid.getByRole('group').evaluateAll((gs) => gs.map((g) => g.getAttribute('aria-labelledby') && g.firstElementChild?.textContent))).toEqual([
      'Smileys & emotion',
      'People & body',
      'Animals & nature',
      'Food & drink',
      'Travel & places',
      'Activities',
      'Objects',
      'Symbols',
      'Flags',
    ]);
    await shots(page, 'emoji-picker');

    // The arrows move through the grid (down by a row of nine), Enter puts the highlighted one in.
    const selected = () => grid.locator('[aria-selected="true"]').getAttribute('aria-label');
    expect(await selected()).toBe('grinning face');
    await page.keyboard.press('ArrowRight');
    const second = await selected();
    await page.keyboard.press('ArrowDown');
    const below = await selected();
    expect(below).not.toBe(second);
    await page.keyboard.press('ArrowUp');
    expect(await selected()).toBe(second);
    await search.fill('rocket');
    expect(await selected()).toBe('rocket');
    await page.keyboard.press('Enter');
    await expect.poll(() => grid.count()).toBe(0);
    await expect.poll(() => editor.getByText(/^Mood/).textContent()).toBe('Mood 🚀');

    // A click puts one in; Escape closes and typing goes on in the text.
    await openPicker();
    await search.fill('cat');
    await grid.getByRole('option', { name: 'cat face', exact: true }).click();
    await expect.poll(() => editor.getByText(/^Mood/).textContent()).toBe('Mood 🚀 🐱');
    await openPicker();
    await page.keyboard.press('Escape');
    await expect.poll(() => grid.count()).toBe(0);
    await typeIn(page, '!');
    await expect.poll(() => editor.getByText(/^Mood/).textContent()).toBe('Mood 🚀 🐱 !');
    await expect.poll(() => markdownOf(target.id), { timeout: 10_000 }).toBe('Mood 🚀 🐱 !\n');

    // On a phone the picker fits the screen.
    const phone = await formSignedIn(web, owner, { width: 375, height: 800 });
    await phone.goto(pageUrl(target));
    const small = await visible(editorOf(phone));
    await caretAfter(phone, small, 'Mood 🚀 🐱 !');
    await typeIn(phone, ' :sm');
    await visible(phone.getByRole('listbox', { name: 'Emoji' }).getByRole('option').first());
    const listBox = await phone.getByRole('listbox', { name: 'Emoji' }).boundingBox();
    expect(listBox && listBox.x >= 0 && listBox.x + listBox.width <= 375).toBe(true); // kept on screen by LIST_PLACEMENT
    await shots(phone, 'emoji-autocomplete-375');
    await phone.keyboard.press('Escape');
    await typeIn(phone, ' /emoji');
    await phone.getByRole('option', { name: /^Emoji/ }).click();
    const phoneGrid = await visible(phone.getByRole('listbox', { name: 'Emoji' }));
    await visible(phoneGrid.getByRole('option', { name: 'grinning face', exact: true }));
    const box = await phone.locator('.kb-emoji-picker').boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    await shots(phone, 'emoji-picker-375');
  });
});

describe('moving blocks', () => {
  it('moves the block with the caret with Alt+Shift+↓ and ↑, and keeps the order after a reload', async () => {
    const target = await newPage('Order', 'Alpha\n\nBravo\n\nCharlie\n');
    const page = await formSignedIn(web, owner);
    await page.goto(pageUrl(target));
    const editor = await visible(editorOf(page));
    await caretAfter(page, editor, 'Alpha');
    await page.keyboard.press('Alt+Shift+ArrowDown');
    await page.keyboard.press('Alt+Shift+ArrowDown');
    await expect.poll(() => blocksOf(editor)).toEqual(['Bravo', 'Charlie', 'Alpha']);
    await page.keyboard.press('Alt+Shift+ArrowDown'); // already last: nothing moves
    await typeIn(page, ' moved'); // the caret went with its block
    await caretAfter(page, editor, 'Bravo');
    await page.keyboard.press('Alt+Shift+ArrowUp'); // already first
    await page.keyboard.press('Alt+Shift+ArrowDown');
    await expect.poll(() => blocksOf(editor)).toEqual(['Charlie', 'Bravo', 'Alpha moved']);
    await expect.poll(() => markdownOf(target.id), { timeout: 10_000 }).toBe('Charlie\n\nBravo\n\nAlpha moved\n');
    await page.reload();
    await expect.poll(async () => blocksOf(await visible(editorOf(page)))).toEqual(['Charlie', 'Bravo', 'Alpha moved']);
  });

  it('drags a block by its handle, and shows no handle to a viewer', async () => {
    const target = await newPage('Drag', '# Plan\n\nFirst step\n\nSecond step\n\nThird step\n');
    const page = await formSignedIn(web, owner);
    await page.goto(pageUrl(target));
    const editor = await visible(editorOf(page));
    const handle = page.getByRole('button', { name: 'Drag to move block' });

    await editor.getByText('First step', { exact: true }).hover();
    await visible(handle);
    const first = (await editor.getByText('First step', { exact: true }).boundingBox())!;
    const grip = (await handle.boundingBox())!;
    expect(grip.x + grip.width).toBeLessThanOrEqual(first.x + 1); // left of the block
    expect(Math.abs(grip.y - first.y)).toBeLessThan(12); // beside its first line
    await shots(page, 'drag-handle');

    // Drag "First step" onto the end of "Third step" (ProseMirror drops a block after one when it is let go past the middle of its text).
    const third = (await editor.getByText('Third step', { exact: true }).boundingBox())!;
    await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
    await page.mouse.down();
    await page.mouse.move(third.x + 40, third.y + third.height / 2, { steps: 8 });
    await page.mouse.move(third.x + third.width - 10, third.y + third.height / 2, { steps: 4 });
    await page.mouse.up();
    await expect.poll(() => blocksOf(editor)).toEqual(['Plan', 'Second step', 'Third step', 'First step']);
    await expect.poll(() => markdownOf(target.id), { timeout: 10_000 }).toBe('# Plan\n\nSecond step\n\nThird step\n\nFirst step\n');
    await page.reload();
    await expect.poll(async () => blocksOf(await visible(editorOf(page)))).toEqual(['Plan', 'Second step', 'Third step', 'First step']);

    // The handle is a button too: a click selects the block, which the keys then move.
    const moved = editorOf(page);
    await moved.getByText('Second step', { exact: true }).hover();
    await handle.click();
    await page.keyboard.press('Alt+Shift+ArrowUp');
    await expect.poll(() => blocksOf(moved)).toEqual(['Second step', 'Plan', 'Third step', 'First step']);

    // A viewer reads the page with no handle.
    const reader = await formSignedIn(web, viewer);
    await reader.goto(pageUrl(target));
    const readOnly = await visible(editorOf(reader));
    await visible(reader.getByRole('status').getByText('Read-only'));
    await readOnly.getByText('Third step', { exact: true }).hover();
    await reader.waitForTimeout(300);
    expect(await reader.getByRole('button', { name: 'Drag to move block' }).count()).toBe(0);
  });
});

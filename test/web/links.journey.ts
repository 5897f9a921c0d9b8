import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../helpers/factories.js';
import { createPage, editorOf, formSignedIn, ownerViewerHandbook, pageAddress, storedWith as storedIn, typeIn, useWebApp, visible, wordAt } from './harness.js';

const web = useWebApp();

let owner: TestUser;
let viewer: TestUser;
let ws: { id: string; hostname: string };
let space: { id: string; slug: string };

const newPage = (title: string, markdown: string) => createPage(web, { token: owner.token, workspaceId: ws.id, spaceId: space.id }, title, { markdown });
const pageUrl = (p: { id: string; slug: string }) => pageAddress(ws.hostname, space.slug, p);
const storedWith = (id: string, text: string, timeout = 10_000) => storedIn(web, owner.token, id, text, timeout);

const titleOf = (page: Page) => page.getByRole('textbox', { name: 'Title', exact: true });

beforeAll(async () => {
  ({ owner, viewer, ws, space } = await ownerViewerHandbook(web, 'Links'));
});

describe('a new page', () => {
  it('opens with an empty, focused title; typing names it, Enter moves to the body at once', async () => {
    const page = await formSignedIn(web, owner);
    await page.goto(`/w/${ws.hostname}/s/${space.slug}`);
    await page.getByRole('button', { name: 'New page' }).first().click();
    await page.waitForURL(/\/p\/untitled-/);
    const title = await visible(titleOf(page));
    expect(await title.inputValue()).toBe('');
    expect(await title.getAttribute('placeholder')).toBe('Untitled');
    await expect.poll(() => title.evaluate((el) => el === document.activeElement)).toBe(true);
    // Typed at once: no "Untitled" in front of it.
    await page.keyboard.type('Payments');
    // Enter then a letter straight away (no delay): the letter goes to the body, never the title.
    await page.keyboard.press('Enter');
    await page.keyboard.type('Cards first');
    await expect.poll(() => editorOf(page).textContent(), { timeout: 15_000 }).toContain('Cards first');
    expect(await title.inputValue()).toBe('Payments');
    const id = new URL(page.url()).pathname.split('-').slice(-5).join('-');
    const stored = await storedWith(id, 'Cards first');
    expect(stored.title).toBe('Payments');
    expect(stored.markdown).toBe('Cards first\n');
    await web.shot(page, 'new-page-named');
  });
});

describe('links in the editor', () => {
  it('makes links from typed Markdown, bare URLs and the Ctrl-K box; edits and removes them from the popover', async () => {
    const target = await newPage('Links', 'Start here.');
    const page = await formSignedIn(web, owner);
    await page.goto(pageUrl(target));
    const editor = await visible(editorOf(page));
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await typeIn(page, 'See [the docs](https://example.com/docs) and https://kb.example.org today. Also the guide here.');
    await visible(editor.getByRole('link', { name: 'the docs' }));
    expect(await editor.getByRole('link', { name: 'the docs' }).getAttribute('href')).toBe('https://example.com/docs');
    await visible(editor.getByRole('link', { name: 'https://kb.example.org' }));

    // Ctrl-K on a selection: the link box, not the search palette.
    await editor.getByText(/the guide here/).dblclick({ position: await wordAt(editor, 'guide') });
    await visible(page.getByRole('toolbar', { name: 'Format the selection' }));
    await page.keyboard.press('Control+K');
    const box = await visible(page.getByRole('combobox', { name: 'Link address or page' }));
    expect(await page.getByRole('dialog', { name: /search/i }).count()).toBe(0);
    await web.shot(page, 'link-box');
    await box.fill('example.org/guide');
    await page.keyboard.press('Enter');
    await visible(editor.getByRole('link', { name: 'guide' }));
    expect(await editor.getByRole('link', { name: 'guide' }).getAttribute('href')).toBe('https://example.org/guide');

    // The caret in a link: the popover offers Open / Edit / Remove.
    await editor.getByRole('link', { name: 'the docs' }).click();
    const popover = await visible(page.getByRole('toolbar', { name: 'Link' }));
    await web.shot(page, 'link-popover');
    await popover.getByRole('button', { name: 'Edit' }).click();
    const edit = await visible(page.getByRole('combobox', { name: 'Link address or page' }));
    expect(await edit.inputValue()).toBe('https://example.com/docs');
    await edit.fill('https://example.com/handbook');
    await page.keyboard.press('Enter');
    await expect.poll(() => editor.getByRole('link', { name: 'the docs' }).getAttribute('href')).toBe('https://example.com/handbook');
    await editor.getByRole('link', { name: 'https://kb.example.org' }).click();
    await (await visible(page.getByRole('toolbar', { name: 'Link' }))).getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => editor.getByRole('link', { name: 'https://kb.example.org' }).count()).toBe(0);

    // The removal is the last edit: once it is stored, so is everything before it.
    const stored = await storedWith(target.id, 'and https://kb.example.org today');
    expect(stored.markdown).toContain('[the docs](https://example.com/handbook)');
    expect(stored.markdown).toContain('[guide](https://example.org/guide) here.');
    expect(stored.markdown).not.toContain('](https://kb.example.org)');

    // Ctrl-K with nothing selected and the caret outside a link is still search.
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Control+K');
    await visible(page.getByPlaceholder(/search/i));
  });

  it('links a page found by name from the Ctrl-K box', async () => {
    const other = await newPage('Quarterly budget', 'Numbers.');
    const target = await newPage('Plans', 'Read the budget first.');
    const page = await formSignedIn(web, owner);
    await page.goto(pageUrl(target));
    const editor = await visible(editorOf(page));
    await editor.getByText('Read the budget first.').dblclick({ position: await wordAt(editor, 'budget') });
    await page.keyboard.press('Control+K');
    await (await visible(page.getByRole('combobox', { name: 'Link address or page' }))).fill('Quarterly');
    await visible(page.getByRole('option', { name: 'Quarterly budget' }));
    await page.keyboard.press('Enter');
    const link = await visible(editor.getByRole('link', { name: 'budget' }));
    expect(await link.getAttribute('href')).toBe(`/w/${ws.hostname}/s/${space.slug}/p/quarterly-budget-${other.id}`);
  });

  it('opens a link in a new tab on Ctrl-click for an editor, and on a click for a reader', async () => {
    const target = await newPage('Open me', 'Go to [the site](https://example.com/welcome).');
    const page = await formSignedIn(web, owner);
    await page.context().route('https://example.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Welcome</title>ok' }));
    await page.goto(pageUrl(target));
    const editor = await visible(editorOf(page));
    const link = await visible(editor.getByRole('link', { name: 'the site' }));
    // A plain click edits (the caret goes in, nothing opens).
    await link.click();
    await visible(page.getByRole('toolbar', { name: 'Link' }));
    expect(page.context().pages()).toHaveLength(1);
    const [popup] = await Promise.all([page.context().waitForEvent('page'), link.click({ modifiers: ['Control'] })]);
    await popup.waitForURL('https://example.com/welcome');
    expect(popup.url()).toBe('https://example.com/welcome');
    expect(await popup.evaluate(() => window.opener)).toBeNull();
    await popup.close();
    expect(new URL(page.url()).pathname).toContain(target.id);

    const reader = await formSignedIn(web, viewer);
    await reader.context().route('https://example.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: 'ok' }));
    await reader.goto(pageUrl(target));
    const readOnly = await visible(editorOf(reader));
    await expect.poll(() => readOnly.getAttribute('contenteditable')).toBe('false');
    const [opened] = await Promise.all([reader.context().waitForEvent('page'), readOnly.getByRole('link', { name: 'the site' }).click()]);
    await opened.waitForURL('https://example.com/welcome');
    expect(new URL(reader.url()).pathname).toContain(target.id);
  });
});

describe('the selection toolbar', () => {
  it('makes the selection bold and turns its block into a heading', async () => {
    const target = await newPage('Format', 'Release notes for March');
    const page = await formSignedIn(web, owner);
    await page.goto(pageUrl(target));
    const editor = await visible(editorOf(page));
    await editor.getByText('Release notes for March').dblclick({ position: await wordAt(editor, 'March') });
    const toolbar = await visible(page.getByRole('toolbar', { name: 'Format the selection' }));
    await web.shot(page, 'selection-toolbar-light');
    const bold = toolbar.getByRole('button', { name: 'Bold' });
    expect(await bold.getAttribute('aria-pressed')).toBe('false');
    await bold.click();
    await expect.poll(() => bold.getAttribute('aria-pressed')).toBe('true');
    await toolbar.getByRole('button', { name: /Turn into/ }).click();
    await page.getByRole('menuitem', { name: 'Heading 2' }).click();
    await visible(editor.getByRole('heading', { name: 'Release notes for March', level: 2 }));
    await toolbar.getByRole('button', { name: 'Highlight' }).click();
    const stored = await storedWith(target.id, '## Release notes for **==March==**');
    expect(stored.markdown).toBe('## Release notes for **==March==**\n');
    await page.getByRole('button', { name: 'Use dark theme' }).click();
    await web.shot(page, 'selection-toolbar-dark');
    await page.getByRole('button', { name: 'Use light theme' }).click();

    // Keyboard: Alt+F10 reaches the toolbar, arrows move along it, Escape goes back to the text.
    await editor.getByText('Release notes').dblclick({ position: await wordAt(editor, 'notes') });
    await visible(page.getByRole('toolbar', { name: 'Format the selection' }));
    await page.keyboard.press('Alt+F10');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toMatch(/^Turn into/);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Bold');

    const phone = await formSignedIn(web, owner, { width: 375, height: 800 });
    await phone.goto(pageUrl(target));
    const small = await visible(editorOf(phone));
    await small.getByText('Release notes').dblclick({ position: await wordAt(small, 'Release') });
    await visible(phone.getByRole('toolbar', { name: 'Format the selection' }));
    await web.shot(phone, 'selection-toolbar-mobile');
  });
});

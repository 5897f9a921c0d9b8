import { describe, expect, it } from 'vitest';
import { apiSignedInWorkspace, editorOf, handbookWithPage, pageAddress, readPage, useWebApp, visible } from './harness.js';

const web = useWebApp();

/** Issue 30: a code block's language picker and Copy button; the keyboard shortcut sheet (`?`, Ctrl+/, the account menu). */
describe('editor tools', () => {
  it('picks a code block’s language, copies its code, and lists the shortcuts', async () => {
    const { page, token, hostname, workspaceId } = await apiSignedInWorkspace(web, 'coder');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const made = await handbookWithPage(web, token, workspaceId, 'Snippets', 'Run this:\n\n```javascript\nconst answer = 42;\n```\n\nThen this.');
    const markdownOf = async () => (await readPage(web, token, made.pageId)).markdown;
    await page.goto(pageAddress(hostname, 'handbook', { id: made.pageId, slug: made.slug }));
    const content = await visible(editorOf(page), 30_000);

    // The picker shows the stored language; choosing another changes the page (read back through the API).
    const picker = content.getByRole('combobox', { name: 'Code language' });
    await visible(picker);
    expect(await picker.inputValue()).toBe('javascript');
    await picker.selectOption({ label: 'Python' });
    await expect.poll(markdownOf, { timeout: 15_000 }).toContain('```python\nconst answer = 42;\n```');
    // The bar is not content: the page's text is unchanged around the block.
    expect(await markdownOf()).toBe('Run this:\n\n```python\nconst answer = 42;\n```\n\nThen this.\n');

    // Copy puts the code (only the code) on the clipboard.
    await content.getByRole('button', { name: 'Copy code' }).click();
    await visible(content.getByRole('button', { name: 'Copy code' }).filter({ hasText: 'Copied' }));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('const answer = 42;');
    await web.shot(page, 'code-block-bar');

    // `?` outside the text opens the shortcut sheet; Escape closes it.
    await page.locator('body').click({ position: { x: 5, y: 400 } });
    await page.keyboard.press('Shift+?');
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await visible(sheet);
    await visible(sheet.getByRole('table', { name: 'Text' }).getByText('Highlight'));
    await web.shot(page, 'shortcut-sheet');
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'hidden' });

    // In the text, `?` is typed; Ctrl+/ opens the sheet.
    await content.getByText('Then this.').click();
    await page.keyboard.press('End');
    await page.keyboard.type('?');
    await expect.poll(() => content.getByText('Then this.?').count()).toBe(1);
    expect(await sheet.count()).toBe(0);
    await page.keyboard.press('Control+/');
    await visible(sheet);
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'hidden' });

    // And from the account menu.
    await page.getByRole('button', { name: /^Account:/ }).click();
    await page.getByRole('menuitem', { name: 'Keyboard shortcuts' }).click();
    await visible(sheet);
    await page.emulateMedia({ colorScheme: 'dark' });
    await web.shot(page, 'shortcut-sheet-dark');
  });

  it('finds in the page with Ctrl+F, counts and steps through matches, and replaces them all', async () => {
    const { page, token, hostname, workspaceId } = await apiSignedInWorkspace(web, 'finder');
    const made = await handbookWithPage(web, token, workspaceId, 'Pets', 'The cat sat. A cat ran.\n\nCATS everywhere.');
    const markdownOf = async () => (await readPage(web, token, made.pageId)).markdown;
    await page.goto(pageAddress(hostname, 'handbook', { id: made.pageId, slug: made.slug }));
    const content = await visible(editorOf(page), 30_000);
    await content.getByText('everywhere').click();

    await page.keyboard.press('Control+f');
    const bar = await visible(page.getByRole('search', { name: 'Find in page' }));
    await expect.poll(() => bar.getByRole('textbox', { name: 'Find' }).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('cat');
    await visible(bar.getByText('1 of 3'));
    expect(await content.locator('.ProseMirror-search-match, .ProseMirror-active-search-match').count()).toBe(3);
    await bar.getByRole('button', { name: 'Match case' }).click();
    await visible(bar.getByText(/^[1-2] of 2$/));
    await bar.getByRole('textbox', { name: 'Find' }).press('Enter');
    await bar.getByRole('textbox', { name: 'Find' }).press('Shift+Enter');
    await visible(bar.getByText(/^[1-2] of 2$/));
    await web.shot(page, 'find-bar');

    await bar.getByRole('button', { name: 'Replace' }).click();
    await bar.getByRole('textbox', { name: 'Replace with' }).fill('dog');
    await bar.getByRole('button', { name: 'Replace all' }).click();
    await visible(bar.getByText('No matches'));
    await expect.poll(markdownOf, { timeout: 15_000 }).toBe('The dog sat. A dog ran.\n\nCATS everywhere.\n');
    await web.shot(page, 'find-replaced');

    // Escape closes the bar and takes the highlights away.
    await bar.getByRole('textbox', { name: 'Find' }).fill('CATS');
    await visible(bar.getByText('1 of 1'));
    await page.keyboard.press('Escape');
    await bar.waitFor({ state: 'hidden' });
    expect(await content.locator('.ProseMirror-search-match, .ProseMirror-active-search-match').count()).toBe(0);
  });

  it('edits a table from its menu: rows and columns added and removed, the header row switched', async () => {
    const { page, token, hostname, workspaceId } = await apiSignedInWorkspace(web, 'tabler');
    const made = await handbookWithPage(web, token, workspaceId, 'Grid', '| A | B |\n| --- | --- |\n| 1 | 2 |\n');
    // The table as the API's Markdown gives it: rows of trimmed cells, the separator line left out.
    const cells = async () => {
      const md = (await readPage(web, token, made.pageId)).markdown;
      return md
        .split('\n')
        .filter((line) => line.startsWith('|') && !/^\|[\s|:-]+\|$/.test(line))
        .map((line) =>
          line
            .slice(1, -1)
            .split('|')
            .map((c) => c.trim()),
        );
    };
    await page.goto(pageAddress(hostname, 'handbook', { id: made.pageId, slug: made.slug }));
    const content = await visible(editorOf(page), 30_000);
    const cell = (row: number, column: number) => content.locator('tr').nth(row).locator('td, th').nth(column);
    await cell(1, 0).click();
    const menu = await visible(page.getByRole('toolbar', { name: 'Table' }));
    await web.shot(page, 'table-menu');

    await menu.getByRole('button', { name: 'Add row below' }).click();
    await cell(2, 0).click();
    await page.keyboard.type('3');
    await menu.getByRole('button', { name: 'Add column right' }).click();
    await cell(2, 1).click();
    await page.keyboard.type('x');
    await expect.poll(cells, { timeout: 15_000 }).toEqual([
      ['A', '', 'B'],
      ['1', '', '2'],
      ['3', 'x', ''],
    ]);
    expect(await menu.getByRole('button', { name: 'Header row' }).getAttribute('aria-pressed')).toBe('true');

    await menu.getByRole('button', { name: 'Remove column' }).click();
    await expect.poll(cells, { timeout: 15_000 }).toEqual([
      ['A', 'B'],
      ['1', '2'],
      ['3', ''],
    ]);
    await cell(2, 0).click();
    await menu.getByRole('button', { name: 'Remove row' }).click();
    await expect.poll(cells, { timeout: 15_000 }).toEqual([
      ['A', 'B'],
      ['1', '2'],
    ]);
    await cell(1, 0).click();
    await menu.getByRole('button', { name: 'Remove table' }).click();
    await expect.poll(cells, { timeout: 15_000 }).toEqual([]);
    await menu.waitFor({ state: 'hidden' });
  });
});

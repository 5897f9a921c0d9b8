import { describe, expect, it } from 'vitest';
import { apiSignedInWorkspace, createPage, editorOf, handbookWithPage, readPage, useWebApp, visible } from './harness.js';

const web = useWebApp();

/** Issue 30: make a template from a page ("Save as template"), start a new page from it, see its placeholders filled. */
describe('templates', () => {
  it('saves a page as a template and starts a new page from it with {{title}}, {{author}} and {{date}} filled', async () => {
    const { page, who, token, hostname, workspaceId } = await apiSignedInWorkspace(web, 'templater');
    const made = await handbookWithPage(
      web,
      token,
      workspaceId,
      'Weekly sync',
      '## Notes for {{title}}\n\nWritten by {{author}} on {{date}}.\n\n- [ ] Action items',
    );
    await page.goto(`/w/${hostname}/s/handbook/p/${made.slug}-${made.pageId}`);
    await visible(page.getByText('Notes for {{title}}'), 30_000); // the first page load builds the editor: slow on a loaded machine

    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Save as template…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save as template' });
    await expect.poll(() => dialog.getByLabel('Template name').inputValue()).toBe('Weekly sync');
    await dialog.getByLabel('Template name').fill('Weekly meeting');
    await web.shot(page, 'templates-save-dialog');
    const saved = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/v1/templates'));
    await dialog.getByRole('button', { name: 'Save template' }).click();
    expect((await saved).status()).toBe(201);
    await visible(page.getByText('Saved as template “Weekly meeting”'));

    await page.goto(`/w/${hostname}/s/handbook`);
    await page.getByRole('button', { name: 'From template' }).click();
    await web.shot(page, 'templates-picker');
    const created = page.waitForResponse((r) => r.request().method() === 'POST' && /\/api\/v1\/templates\/[^/]+\/pages$/.test(r.url()));
    await page.getByRole('menuitem', { name: /Weekly meeting/ }).click();
    expect((await created).status()).toBe(201);
    await page.waitForURL(/\/p\/weekly-meeting-/);

    const d = new Date();
    const today = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    await visible(page.getByText('Notes for Weekly meeting'));
    await visible(page.getByText(`Written by ${who.name} on ${today}.`));
    // The tree shows the new page beside the one the template came from.
    await visible(page.getByRole('tree').getByRole('treeitem', { name: 'Weekly meeting', exact: true }));
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await web.shot(page, `templates-new-page-${scheme}`);
    }

    const phone = await web.newPage({ width: 375, height: 800 });
    await phone.request.post('/api/v1/auth/session', { data: { email: who.email, password: who.password } });
    await phone.goto(`/w/${hostname}/s/handbook`);
    await phone.getByRole('button', { name: 'From template' }).click();
    await visible(phone.getByRole('menuitem', { name: /Weekly meeting/ }));
    for (const scheme of ['light', 'dark'] as const) {
      await phone.emulateMedia({ colorScheme: scheme });
      await web.shot(phone, `templates-picker-375-${scheme}`);
    }

    // The slash menu's Template puts one into a page at the caret, filled for this page, beside what was there.
    const notes = await createPage(web, { token, workspaceId, spaceId: made.spaceId }, 'Sync 12 Dec', { markdown: 'Agenda first.' });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`/w/${hostname}/s/handbook/p/${notes.slug}-${notes.id}`);
    const editor = await visible(editorOf(page));
    await editor.getByText('Agenda first.').click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('/templ', { delay: 15 });
    await page
      .getByRole('listbox', { name: 'Insert block' })
      .getByRole('option', { name: /^Template/ })
      .click();
    const dialog2 = await visible(page.getByRole('dialog', { name: 'Insert a template' }));
    await web.shot(page, 'templates-insert');
    await dialog2.getByRole('listitem').filter({ hasText: 'Weekly meeting' }).click();
    await visible(editor.getByRole('heading', { name: 'Notes for Sync 12 Dec' }));
    await visible(editor.getByText(`Written by ${who.name} on ${today}.`));
    await expect
      .poll(async () => (await readPage(web, token, notes.id)).markdown)
      .toBe(`Agenda first.\n\n## Notes for Sync 12 Dec\n\nWritten by ${who.name} on ${today}.\n\n- [ ] Action items\n`);
  });
});

import { describe, expect, it } from 'vitest';
import { apiSignedInWorkspace, handbookWithPage, signedInWithApi, useWebApp, visible } from './harness.js';

const web = useWebApp();

describe('comments', () => {
  it('comments on a page, replies, resolves and reopens the thread', async () => {
    // The space and page come from the API: the screen under test is the comments drawer, not page creation.
    const { page, who, token, hostname, workspaceId } = await signedInWithApi(web, 'commenter');
    const { pageId, slug } = await handbookWithPage(web, token, workspaceId, 'Travel policy', 'Book trains over planes when the trip is under five hours.');
    const readBack = async () =>
      (await web.t.request({ url: '/api/v1/comments', token, query: { workspaceId, pageId } })).body.data as {
        text: string;
        parentId: string | null;
        resolved: boolean;
      }[];

    await page.goto(`/w/${hostname}/s/handbook/p/${slug}-${pageId}`);
    await page.getByRole('button', { name: 'Comments' }).click();
    const drawer = page.getByRole('dialog');
    await visible(drawer.getByText('No comments yet.'));

    // An empty comment is refused next to the box, before any request.
    await drawer.getByRole('button', { name: 'Add comment' }).click();
    await visible(drawer.getByText('Write something first.'));

    await drawer.getByLabel('Comment', { exact: true }).fill('Does this cover night trains?');
    await drawer.getByRole('button', { name: 'Add comment' }).click();
    const thread = drawer.getByRole('article', { name: /Does this cover night trains/ });
    await visible(thread.getByText('Does this cover night trains?'));
    await visible(thread.getByText(who.name));
    await visible(thread.getByText('just now'));
    expect(await drawer.getByLabel('Comment', { exact: true }).inputValue()).toBe('');

    await thread.getByRole('button', { name: 'Reply' }).click();
    await thread.getByLabel('Reply').fill('Yes, sleeper berths count as trains.');
    await thread.getByRole('button', { name: 'Send reply' }).click();
    await visible(thread.getByText('Yes, sleeper berths count as trains.'));
    await web.shot(page, 'comments-drawer');

    let comments = await readBack();
    expect(comments).toHaveLength(2);
    const root = comments.find((c) => c.parentId === null);
    expect(root?.text).toBe('Does this cover night trains?');
    expect(comments.find((c) => c.parentId !== null)?.text).toBe('Yes, sleeper berths count as trains.');

    // Resolving folds the thread under "Resolved"; reopening brings it back.
    await thread.getByRole('button', { name: 'Resolve' }).click();
    const resolvedToggle = drawer.getByRole('button', { name: 'Resolved (1)' });
    await visible(resolvedToggle);
    await expect.poll(() => thread.count()).toBe(0);
    comments = await readBack();
    expect(comments.find((c) => c.parentId === null)?.resolved).toBe(true);

    await resolvedToggle.click();
    await visible(thread.getByRole('button', { name: 'Reopen' }));
    await page.waitForTimeout(300); // only so the screenshot shows the unfolded thread, not the fold animation
    await web.shot(page, 'comments-resolved');
    await thread.getByRole('button', { name: 'Reopen' }).click();
    await expect.poll(() => resolvedToggle.count()).toBe(0);
    await visible(thread.getByRole('button', { name: 'Resolve' }));
    comments = await readBack();
    expect(comments.find((c) => c.parentId === null)?.resolved).toBe(false);
  });

  it('comments on selected text: the highlight follows edits before it from another tab and the API, opens its thread, takes reactions and hides when resolved', async () => {
    const { page, token, hostname, workspaceId } = await apiSignedInWorkspace(web, 'reviewer', { width: 1400, height: 900 });
    const { pageId, slug } = await handbookWithPage(web, token, workspaceId, 'Travel rules', 'Book trains when the trip is under five hours.');
    await page.goto(`/w/${hostname}/s/handbook/p/${slug}-${pageId}`);
    const editor = page.getByRole('textbox', { name: 'Page content' });
    await visible(editor.getByText('Book trains'));

    // Select "under five hours" with the keyboard, then "Comment" in the selection toolbar.
    await editor.getByText('Book trains').click();
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft');
    for (let i = 0; i < 'under five hours'.length; i++) await page.keyboard.press('Shift+ArrowLeft');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    const panel = page.getByRole('dialog', { name: 'Comments' });
    await visible(panel.getByLabel('Commenting on').getByText('under five hours'));
    await panel.getByLabel('Comment on the selected text').fill('Does a layover count?');
    await panel.getByRole('button', { name: 'Add comment' }).click();
    const thread = panel.getByRole('article', { name: /Does a layover count/ });
    await visible(thread);
    const highlight = page.locator('.kb-comment-anchor');
    await expect.poll(() => highlight.textContent()).toBe('under five hours');
    // The panel docks beside the page: nothing dims it, and the text stays clickable.
    expect(await page.locator('.mantine-Drawer-overlay').count()).toBe(0);
    await web.shot(page, 'comments-on-text');

    // Another tab (another co-editing client) types before the range; then an API write adds text before it too.
    const other = await page.context().newPage();
    await other.goto(`/w/${hostname}/s/handbook/p/${slug}-${pageId}`);
    const otherEditor = other.getByRole('textbox', { name: 'Page content' });
    await otherEditor.getByText('Book trains').click();
    await other.keyboard.press('Home');
    await other.keyboard.type('Rule one: ');
    await expect.poll(() => editor.textContent()).toContain('Rule one: Book trains');
    await expect.poll(() => highlight.textContent()).toBe('under five hours');
    await other.close();
    // A script reads the page (with that typing saved), then writes it back with more text before the range.
    await expect
      .poll(async () => (await web.t.request({ url: `/api/v1/pages/${pageId}`, token, query: { format: 'markdown' } })).body.data.markdown)
      .toContain('Rule one: Book trains');
    const written = await web.t.request({
      method: 'PUT',
      url: `/api/v1/pages/${pageId}`,
      token,
      body: { markdown: 'Read this first.\n\nRule one: Book trains, or a coach, when the trip is under five hours.' },
    });
    expect(written.status).toBe(200);
    await expect.poll(() => editor.textContent()).toBe('Read this first.Rule one: Book trains, or a coach, when the trip is under five hours.');
    await expect.poll(() => highlight.textContent()).toBe('under five hours');

    // After a reload, a click on the text opens its thread; a reaction; resolving hides the highlight.
    await page.reload();
    await expect.poll(() => page.locator('.kb-comment-anchor').textContent()).toBe('under five hours');
    await page.locator('.kb-comment-anchor').click();
    const reopened = page.getByRole('dialog', { name: 'Comments' }).getByRole('article', { name: /Does a layover count/ });
    await expect.poll(() => reopened.getAttribute('aria-current')).toBe('true');
    await reopened.getByRole('button', { name: 'Add reaction' }).click();
    await page.getByRole('button', { name: 'React with thumbs up' }).click();
    await expect.poll(() => reopened.getByRole('button', { name: '👍 1' }).getAttribute('aria-pressed')).toBe('true');
    await web.shot(page, 'comments-on-text-reaction');
    await reopened.getByRole('button', { name: 'Resolve' }).click();
    await expect.poll(() => page.locator('.kb-comment-anchor').count()).toBe(0);
    const stored = (await web.t.request({ url: '/api/v1/comments', token, query: { workspaceId, pageId } })).body.data;
    expect(stored).toMatchObject([{ text: 'Does a layover count?', resolved: true, anchor: { quote: 'under five hours' }, reactions: [{ emoji: '👍' }] }]);
  });
});

import { describe, expect, it } from 'vitest';
import { handbookWithPage, signedInWithApi, useWebApp, visible } from './harness.js';

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
});

import type { Page } from 'playwright-core';
import { describe, expect, it, onTestFailed } from 'vitest';
import { apiSignedInWorkspace, useWebApp, visible } from './harness.js';

const web = useWebApp();

const doc = (text: string) => ({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });
const row = (page: Page, name: string) => page.getByRole('tree').getByRole('treeitem', { name, exact: true });

/** The height of the page header (the row holding the breadcrumbs and the actions). */
const headerHeight = (page: Page) =>
  page
    .getByRole('button', { name: 'More actions' })
    .evaluate((el) => ((el.closest('.mantine-Group-root') as HTMLElement).parentElement as HTMLElement).getBoundingClientRect().height);

describe('around the page', () => {
  it('header in one row at 1280 px, favourites in the sidebar, copy link, duplicate with subpages, recent pages on home', async () => {
    const { page, token, hostname, workspaceId } = await apiSignedInWorkspace(web, 'around');
    onTestFailed(async () => {
      await web.shot(page, 'around-failed');
    });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const space = (await web.t.request({ method: 'POST', url: '/api/v1/spaces', token, body: { workspaceId, name: 'Handbook', slug: 'handbook' } })).body.data;
    const create = async (title: string, parentId?: string, icon?: string) =>
      (
        await web.t.request({
          method: 'POST',
          url: '/api/v1/pages',
          token,
          body: { workspaceId, spaceId: space.id, parentId, title, icon, content: doc(title) },
        })
      ).body.data as { id: string; slug: string };
    const guide = await create('Onboarding guide', undefined, '📘');
    await create('First week', guide.id);
    const url = `/w/${hostname}/s/handbook/p/${guide.slug}-${guide.id}`;

    await page.goto(url);
    await visible(page.getByLabel('Title'));
    // One row at 1280 px: the header is as tall as one button row.
    expect(await headerHeight(page)).toBeLessThan(48);
    await web.shot(page, 'around-header-1280');

    // Star: the page shows under Favourites in the sidebar.
    await page.getByRole('button', { name: 'Add to favourites' }).click();
    const favourites = page.getByRole('navigation', { name: 'Favourites' });
    await visible(favourites.getByRole('link', { name: /Onboarding guide/ }));
    await visible(page.getByRole('button', { name: 'Remove from favourites' }));

    // Copy link: the page's address on the clipboard, and a notice.
    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Copy link' }).click();
    await visible(page.getByText('Link copied'));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(new URL(url, web.baseUrl).toString());

    // Duplicate with subpages: the copy opens, and shows in the tree beside the original with its child.
    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Duplicate with subpages' }).click();
    await visible(page.getByText('Copied 2 pages'));
    await expect.poll(() => page.getByLabel('Title').inputValue()).toBe('Copy of Onboarding guide');
    await visible(row(page, 'Copy of Onboarding guide'));

    // Unstar from the original page: the Favourites list goes.
    await page.goto(url);
    await page.getByRole('button', { name: 'Remove from favourites' }).click();
    await expect.poll(() => favourites.count()).toBe(0);

    // Home: the pages just opened, newest first, and the pages edited last.
    await page.goto(`/w/${hostname}`);
    const visited = page.getByRole('list', { name: 'Recently visited' });
    await visible(visited.getByText('Onboarding guide'));
    await visible(visited.getByText('Copy of Onboarding guide'));
    await visible(page.getByRole('list', { name: 'Recently updated' }).getByText('Copy of Onboarding guide'));
    await web.shot(page, 'around-home');

    // 375 px: the breadcrumbs on one row, the actions on a second at most.
    const phone = await web.newPage({ width: 375, height: 760 });
    await phone.context().addCookies(await page.context().cookies());
    await phone.goto(url);
    await visible(phone.getByLabel('Title'));
    expect(await headerHeight(phone)).toBeLessThan(80);
    await web.shot(phone, 'around-header-375');
  });

  it('page icon: chosen from the grid, typed, removed; shown before the title and in the breadcrumbs', async () => {
    const { page, token, hostname, workspaceId } = await apiSignedInWorkspace(web, 'icons');
    const space = (await web.t.request({ method: 'POST', url: '/api/v1/spaces', token, body: { workspaceId, name: 'Handbook', slug: 'handbook' } })).body.data;
    const made = (
      await web.t.request({ method: 'POST', url: '/api/v1/pages', token, body: { workspaceId, spaceId: space.id, title: 'Launch plan', content: doc('Go.') } })
    ).body.data as { id: string; slug: string };
    const iconOf = async () => (await web.t.request({ url: `/api/v1/pages/${made.id}`, token })).body.data.icon as string | null;
    await page.goto(`/w/${hostname}/s/handbook/p/${made.slug}-${made.id}`);
    await visible(page.getByLabel('Title'));

    await page.getByRole('button', { name: 'Add icon' }).click();
    const picker = page.getByRole('dialog').filter({ has: page.getByRole('group', { name: 'Icons' }) });
    await visible(picker);
    await web.shot(page, 'page-icon-picker');
    await picker.getByRole('button', { name: 'Rocket' }).click();
    await expect.poll(iconOf).toBe('🚀');
    await visible(page.getByRole('button', { name: 'Page icon 🚀: change' }));
    await visible(page.getByText('🚀 Launch plan', { exact: true }));

    // Any emoji typed or pasted; then removed.
    await page.getByRole('button', { name: 'Page icon 🚀: change' }).click();
    await picker.getByLabel('Or type or paste one').fill('🦊');
    await picker.getByLabel('Or type or paste one').press('Enter');
    await expect.poll(iconOf).toBe('🦊');
    await page.getByRole('button', { name: 'Page icon 🦊: change' }).click();
    await picker.getByRole('button', { name: 'Remove icon' }).click();
    await expect.poll(iconOf).toBe(null);
    await visible(page.getByRole('button', { name: 'Add icon' }));
  });
});

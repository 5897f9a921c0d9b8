import { describe, expect, it } from 'vitest';
import { apiSignedInWorkspace, handbookWithPage, useWebApp, visible } from './harness.js';

const web = useWebApp();

describe('the page tree in the sidebar', () => {
  it('stays on Tasks, Goals, Settings and Search, without reading the tree again on each screen, and after a reload', async () => {
    const { page, token, hostname, workspaceId } = await apiSignedInWorkspace(web, 'navigator');
    const made = await handbookWithPage(web, token, workspaceId, 'Onboarding', 'Read this first.');
    const treeReads: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/pages') && r.url().includes('view=tree')) treeReads.push(r.url());
    });
    const sidebar = page.getByRole('navigation', { name: 'Spaces' });
    const row = sidebar.getByRole('treeitem', { name: 'Onboarding', exact: true });

    await page.goto(`/w/${hostname}/s/handbook/p/${made.slug}-${made.pageId}`);
    await visible(row);
    await visible(page.getByLabel('Page content').getByText('Read this first.'));
    const readsOnThePage = treeReads.length;
    expect(readsOnThePage).toBeGreaterThan(0);

    for (const [link, url] of [
      ['Tasks', /\/tasks/],
      ['Goals', /\/goals/],
      ['Settings', /\/settings/],
    ] as const) {
      await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: link, exact: true }).click();
      await page.waitForURL(url);
      await visible(row);
    }
    // The tree's row leads back to the page.
    await row.click();
    await visible(page.getByLabel('Page content').getByText('Read this first.'));
    expect(treeReads.length).toBe(readsOnThePage);
    await web.shot(page, 'sidebar-tree-page');

    // A reload on another screen shows the last space's tree.
    await page.goto(`/w/${hostname}/search?q=onboarding`);
    await visible(row);
    await web.shot(page, 'sidebar-tree-search');
  });
});

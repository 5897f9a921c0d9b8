import type { Locator, Page } from 'playwright-core';
import { describe, expect, it, onTestFailed } from 'vitest';
import { apiSignedInWorkspace, useWebApp, visible } from './harness.js';

const web = useWebApp();

const EMPTY = { type: 'doc', content: [{ type: 'paragraph' }] };
const row = (page: Page, name: string) => page.getByRole('tree').getByRole('treeitem', { name, exact: true });

/** Whether the element is wholly inside the tree's scroller and the window: what a person can see without scrolling. */
function inView(locator: Locator) {
  return locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const tree = (el.closest('[role="tree"]') as HTMLElement).getBoundingClientRect();
    return box.top >= tree.top && box.bottom <= tree.bottom && box.top >= 0 && box.bottom <= window.innerHeight;
  });
}

describe('deep links into the page tree', () => {
  it('opens the tree down to a page three levels deep, marks it current and scrolls it into view', async () => {
    const { page, token, hostname, workspaceId } = await apiSignedInWorkspace(web, 'linker');
    onTestFailed(async () => {
      await web.shot(page, 'deep-link-failed');
    });
    const space = (await web.t.request({ method: 'POST', url: '/api/v1/spaces', token, body: { workspaceId, name: 'Handbook', slug: 'handbook' } })).body.data;
    const create = async (title: string, parentId?: string) => {
      const res = await web.t.request({
        method: 'POST',
        url: '/api/v1/pages',
        token,
        body: { workspaceId, spaceId: space.id, parentId, title, content: EMPTY },
      });
      expect(res.status).toBe(201);
      return res.body.data as { id: string; slug: string };
    };
    // Enough roots that the last one is below the tree's fold, and the nested page under it.
    let last: { id: string; slug: string } | undefined;
    for (let i = 1; i <= 30; i++) last = await create(`Chapter ${String(i).padStart(2, '0')}`);
    const section = await create('Section', last?.id);
    const deep = await create('Deep page', section.id);

    await page.goto(`/w/${hostname}/s/handbook/p/${deep.slug}-${deep.id}`);
    const target = row(page, 'Deep page');
    await visible(target);
    expect(await target.getAttribute('aria-level')).toBe('3');
    expect(await target.getByRole('link', { name: 'Deep page' }).getAttribute('aria-current')).toBe('page');
    expect(await row(page, 'Chapter 30').getAttribute('aria-expanded')).toBe('true');
    expect(await row(page, 'Section').getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => inView(target)).toBe(true);
    // The tree scrolled down to it (the first chapters went out of view, and out of the DOM of the virtual list).
    expect(await page.getByRole('tree').evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
    await web.shot(page, 'deep-link');

    // After a reload the tree is still open down to it (open pages are remembered), and another page's link is not current.
    await page.reload();
    await visible(row(page, 'Deep page'));
    expect(await row(page, 'Section').getByRole('link', { name: 'Section' }).getAttribute('aria-current')).toBeNull();
  });
});

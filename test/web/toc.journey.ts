import { describe, expect, it } from 'vitest';
import { apiSignedInWorkspace, handbookWithPage, useWebApp, visible } from './harness.js';

const web = useWebApp();

const filler = (n: number) =>
  Array.from({ length: n }, (_, i) => `Paragraph ${i + 1} of the section, long enough to take a line or two on a wide screen.`).join('\n\n');

describe('table of contents', () => {
  it('lists a long page’s headings beside it on a wide screen, scrolls to one on click, follows edits, and stays off phones', async () => {
    const { page, token, hostname, workspaceId } = await apiSignedInWorkspace(web, 'reader', { width: 1400, height: 800 });
    const markdown = `# Overview\n\n${filler(12)}\n\n## Setup\n\n${filler(12)}\n\n### Database\n\n${filler(12)}\n\n## Operations\n\n${filler(30)}\n`;
    const made = await handbookWithPage(web, token, workspaceId, 'Runbook', markdown);
    const url = `/w/${hostname}/s/handbook/p/${made.slug}-${made.pageId}`;
    await page.goto(url);
    const content = page.getByRole('textbox', { name: 'Page content' });
    await visible(content);
    const toc = page.getByRole('navigation', { name: 'Contents' });
    await visible(toc);
    expect(await toc.getByRole('button').allTextContents()).toEqual(['Overview', 'Setup', 'Database', 'Operations']);
    // Beside the page, not over it.
    const tocBox = (await toc.boundingBox())!;
    const contentBox = (await content.boundingBox())!;
    expect(tocBox.x).toBeGreaterThanOrEqual(contentBox.x + contentBox.width);
    await web.shot(page, 'toc-1400-light');

    // A click brings the heading to the top of the screen.
    await toc.getByRole('button', { name: 'Operations' }).click();
    const heading = content.getByRole('heading', { name: 'Operations' });
    await expect.poll(async () => (await heading.boundingBox())!.y).toBeLessThan(200);
    await expect.poll(async () => (await heading.boundingBox())!.y).toBeGreaterThan(40);

    // It follows edits: a new heading typed at the end shows up.
    await content.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('## Rollback');
    await expect.poll(() => toc.getByRole('button').allTextContents()).toEqual(['Overview', 'Setup', 'Database', 'Operations', 'Rollback']);
    await page.emulateMedia({ colorScheme: 'dark' });
    await web.shot(page, 'toc-1400-dark');

    // Below 1200 px (and on phones) there is no table of contents.
    await page.setViewportSize({ width: 1100, height: 800 });
    await expect.poll(() => toc.isVisible()).toBe(false);
    const phone = await web.newPage({ width: 375, height: 740 });
    await phone.context().addCookies(await page.context().cookies());
    await phone.goto(url);
    await visible(phone.getByRole('textbox', { name: 'Page content' }));
    expect(await phone.getByRole('navigation', { name: 'Contents' }).isVisible()).toBe(false);
    await web.shot(phone, 'toc-375');

    // A page with fewer than three headings has none.
    const short = await web.t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token,
      body: { workspaceId, spaceId: made.spaceId, title: 'Short', markdown: '# One\n\ntext\n\n## Two\n\nmore' },
    });
    await page.setViewportSize({ width: 1400, height: 800 });
    await page.goto(`/w/${hostname}/s/handbook/p/short-${short.body.data.id}`);
    await visible(page.getByRole('textbox', { name: 'Page content' }).getByRole('heading', { name: 'Two' }));
    expect(await page.getByRole('navigation', { name: 'Contents' }).count()).toBe(0);
  });
});

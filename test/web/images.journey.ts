import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiSignedInWorkspace, editorOf, handbookWithPage, pageAddress, sessionSignedIn, storedWith, useWebApp, visible, type WebApp } from './harness.js';

/**
 * Image layout: a picture uploaded through the slash menu's "Image", selected: its width dragged by the handle on its
 * right edge, then set to 50 % and centred from its toolbar, and a caption typed under it; all still so after a
 * reload, and the stored Markdown `![…](… "caption"){width=50% align=center}`. Light and dark, desktop and phone.
 */

const web: WebApp = useWebApp();
let owner: Awaited<ReturnType<typeof apiSignedInWorkspace>>;
let pageId: string;
let url: string;

/** A 480×270 PNG drawn by the browser (a gradient with a few bars, so the screenshots show something). */
async function chartPng(page: Page): Promise<Buffer> {
  const data = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 480;
    canvas.height = 270;
    const g = canvas.getContext('2d') as CanvasRenderingContext2D;
    const bg = g.createLinearGradient(0, 0, 480, 270);
    bg.addColorStop(0, '#dbeafe');
    bg.addColorStop(1, '#fde68a');
    g.fillStyle = bg;
    g.fillRect(0, 0, 480, 270);
    g.fillStyle = '#1d4ed8';
    for (const [i, h] of [90, 150, 120, 210].entries()) g.fillRect(60 + i * 100, 250 - h, 60, h);
    return canvas.toDataURL('image/png').split(',')[1];
  });
  return Buffer.from(data, 'base64');
}

/** The figure's width as a share of its parent's, in percent. */
const widthShare = (page: Page) =>
  page.locator('figure.kb-image').evaluate((el) => Math.round((el.getBoundingClientRect().width / (el.parentElement as HTMLElement).clientWidth) * 100));

beforeAll(async () => {
  owner = await apiSignedInWorkspace(web, 'owner');
  const made = await handbookWithPage(web, owner.token, owner.workspaceId, 'Quarterly', 'The chart for this quarter:');
  pageId = made.pageId;
  url = pageAddress(owner.hostname, 'handbook', { id: made.pageId, slug: made.slug });
});

describe('image layout', () => {
  it('resizes, aligns and captions an uploaded image, keeps it after a reload, and stores it as Markdown', async () => {
    const page = owner.page;
    await page.goto(url);
    const editor = await visible(editorOf(page));
    await editor.getByText('The chart for this quarter:').click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('/', { delay: 15 });
    await visible(page.getByRole('listbox', { name: 'Insert block' }));
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('option', { name: /^Image/ }).click()]);
    await chooser.setFiles({ name: 'chart.png', mimeType: 'image/png', buffer: await chartPng(page) });
    const figure = await visible(editor.locator('figure.kb-image'));
    await expect.poll(() => figure.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(480);

    // Selected, it shows its toolbar, its handle and the caption field; unselected, none of them.
    await figure.locator('img').click();
    const toolbar = await visible(page.getByRole('toolbar', { name: 'Image layout' }));
    const handle = await visible(figure.locator('.kb-image-handle'));

    // Dragging the right edge to about 80 % of the page's width: whole percentages.
    const box = (await handle.boundingBox())!;
    const parent = (await figure.evaluate((el) => {
      const r = (el.parentElement as HTMLElement).getBoundingClientRect();
      return { left: r.left, width: (el.parentElement as HTMLElement).clientWidth };
    })) as { left: number; width: number };
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(parent.left + parent.width * 0.6, box.y + box.height / 2, { steps: 5 });
    await page.mouse.move(parent.left + parent.width * 0.8, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    const dragged = Number(await figure.getAttribute('data-width'));
    expect(Number.isInteger(dragged)).toBe(true);
    expect(dragged).toBeGreaterThanOrEqual(77);
    expect(dragged).toBeLessThanOrEqual(83);
    await expect.poll(() => widthShare(page)).toBe(dragged);

    // Presets and alignment from the toolbar.
    await toolbar.getByRole('button', { name: 'Width 50 %' }).click();
    await toolbar.getByRole('button', { name: 'Align centre' }).click();
    await expect.poll(() => figure.getAttribute('data-width')).toBe('50');
    expect(await figure.getAttribute('data-align')).toBe('center');
    expect(await toolbar.getByRole('button', { name: 'Width 50 %' }).getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => widthShare(page)).toBe(50);

    const caption = figure.getByRole('textbox', { name: 'Image caption' });
    expect(await caption.getAttribute('placeholder')).toBe('Add a caption');
    await caption.click();
    await caption.pressSequentially('Sales by quarter', { delay: 15 });
    await web.shot(page, 'images-selected-desktop-light');
    await caption.press('Enter');

    const stored = await storedWith(web, owner.token, pageId, '{width=50% align=center}', 20_000);
    expect(stored.markdown).toMatch(
      /^The chart for this quarter:\n\n!\[chart\.png\]\(\/api\/v1\/attachments\/[A-Za-z0-9_-]+\/download "Sales by quarter"\)\{width=50% align=center\}\n/,
    );

    await page.reload();
    const again = await visible(editorOf(page).locator('figure.kb-image'));
    expect(await again.getAttribute('data-width')).toBe('50');
    expect(await again.getAttribute('data-align')).toBe('center');
    await expect.poll(() => again.locator('figcaption').textContent()).toBe('Sales by quarter');
    expect(await page.getByRole('toolbar', { name: 'Image layout' }).count()).toBe(0);
    await expect.poll(() => widthShare(page)).toBe(50);
    // Centred: as much room on its left as on its right.
    const centred = await again.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const p = (el.parentElement as HTMLElement).getBoundingClientRect();
      return Math.abs(r.left - p.left - (p.right - r.right));
    });
    expect(centred).toBeLessThan(4);
    await web.shot(page, 'images-desktop-light');
    await page.getByRole('button', { name: 'Use dark theme' }).click();
    await again.locator('img').click();
    await visible(page.getByRole('toolbar', { name: 'Image layout' }));
    await web.shot(page, 'images-selected-desktop-dark');

    const phone = await sessionSignedIn(web, owner.who, { width: 375, height: 800 });
    await phone.goto(url);
    const small = await visible(phone.locator('figure.kb-image'));
    await expect.poll(() => small.locator('figcaption').textContent()).toBe('Sales by quarter');
    const inView = await small.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.left >= 0 && r.right <= 375;
    });
    expect(inView).toBe(true);
    await web.shot(phone, 'images-375-light');
    await small.locator('img').click();
    await visible(phone.getByRole('toolbar', { name: 'Image layout' }));
    await web.shot(phone, 'images-selected-375-light');
  });
});

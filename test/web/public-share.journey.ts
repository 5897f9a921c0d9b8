import { describe, expect, it } from 'vitest';
import { apiSignedInWorkspace, useWebApp, visible } from './harness.js';

const web = useWebApp();

/** A 1×1 PNG (red), shown larger by the image's width. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

describe('public share links', () => {
  it('publishes a page from its header, opens the link signed out (text and image), then unpublishes it', async () => {
    const { page, token, workspaceId, hostname } = await apiSignedInWorkspace(web, 'publisher');
    const api = (method: 'POST' | 'PUT', url: string, body: object) => web.t.request({ method, url, token, body });
    expect((await api('PUT', `/api/v1/workspaces/${workspaceId}`, { settings: { allowPublicPages: true } })).status).toBe(200);
    const space = (await api('POST', '/api/v1/spaces', { workspaceId, name: 'Handbook' })).body.data;
    const made = (await api('POST', '/api/v1/pages', { workspaceId, spaceId: space.id, title: 'Welcome', markdown: 'x' })).body.data;
    const picture = (
      await api('POST', '/api/v1/attachments', {
        workspaceId,
        pageId: made.id,
        filename: 'dot.png',
        contentType: 'image/png',
        data: PNG.toString('base64'),
      })
    ).body.data;
    const content = {
      type: 'doc',
      content: [
        { type: 'paragraph', content: [{ type: 'text', text: 'Everything a newcomer needs, in one place.' }] },
        { type: 'image', attrs: { src: `/api/v1/attachments/${picture.id}/download`, alt: 'A red dot', width: 120 } },
      ],
    };
    expect((await api('PUT', `/api/v1/pages/${made.id}`, { content })).status).toBe(200);
    const child = (
      await api('POST', '/api/v1/pages', { workspaceId, spaceId: space.id, parentId: made.id, title: 'First week', markdown: 'Meet the team on Monday.' })
    ).body.data;

    // Publish from the page's header.
    await page.goto(`/w/${hostname}/s/${space.slug}/p/welcome-${made.id}`);
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish “Welcome”' });
    await visible(dialog);
    await dialog.getByRole('checkbox', { name: 'Include the pages under it' }).check();
    await dialog.getByRole('button', { name: 'Publish', exact: true }).click();
    const link = dialog.getByRole('textbox', { name: 'Public link' });
    await visible(link);
    const url = await link.inputValue();
    expect(url).toMatch(/\/s\/[A-Za-z0-9_-]{43}$/);
    await visible(dialog.getByRole('button', { name: 'Copy link' }));
    await web.shot(page, 'public-share-dialog');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await visible(page.getByRole('button', { name: /Published/ }));

    // A visitor: a fresh browser context, never signed in.
    const visitor = await web.newPage();
    const path = new URL(url).pathname;
    const response = await visitor.goto(path);
    expect(response?.headers()['x-robots-tag']).toBe('noindex');
    await visible(visitor.getByRole('heading', { name: 'Welcome' }));
    await visible(visitor.getByText('Everything a newcomer needs, in one place.'));
    await visible(visitor.getByText('Published with kb'));
    const image = visitor.getByRole('img', { name: 'A red dot' });
    await visible(image);
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect(await visitor.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    await web.shot(visitor, 'public-share-reader');
    // The pages under it, from the side list; the address names the page inside the share.
    await visitor.getByRole('link', { name: 'First week' }).click();
    await visible(visitor.getByText('Meet the team on Monday.'));
    expect(new URL(visitor.url()).pathname).toBe(`${path}/${child.id}`);
    // On a phone, the list sits above the page.
    const phone = await web.newPage({ width: 390, height: 844 });
    await phone.goto(path);
    await visible(phone.getByText('Everything a newcomer needs, in one place.'));
    await visible(phone.getByRole('link', { name: 'First week' }));
    await web.shot(phone, 'public-share-reader-phone');

    // Unpublish: the link dies at once.
    await page.getByRole('button', { name: /Published/ }).click();
    await visible(dialog);
    await dialog.getByRole('button', { name: 'Unpublish' }).click();
    await visible(page.getByRole('button', { name: 'Publish', exact: true }));
    await visitor.reload();
    await visible(visitor.getByRole('heading', { name: 'This link is no longer available' }));
    await web.shot(visitor, 'public-share-revoked');
  });
});

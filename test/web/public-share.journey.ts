import { describe, expect, it } from 'vitest';
import { joinByInvitation } from '../helpers/factories.js';
import { apiSignedInWorkspace, person, useWebApp, visible, type WebApp } from './harness.js';

const web = useWebApp();

/** A 1×1 PNG (red), shown larger by the image's width. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

/** A new person who joins the workspace with `role`, in a browser context signed in with the cookie session. */
async function memberSignedIn(web: WebApp, workspaceId: string, adminToken: string, role: 'editor' | 'viewer') {
  const who = person('member');
  const res = await web.t.request({ method: 'POST', url: '/api/v1/auth/signup', body: who });
  if (res.status !== 201) throw new Error(`signup: ${res.status}`);
  await joinByInvitation(web.t, workspaceId, adminToken, { ...who, id: res.body.data.user.id, token: res.body.data.token }, role);
  const page = await web.newPage();
  const session = await page.request.post('/api/v1/auth/session', { data: { email: who.email, password: who.password } });
  if (!session.ok()) throw new Error(`session: ${session.status()}`);
  return page;
}

describe('public share links', () => {
  it('creates the public link from the Share dialog, copies it, opens it signed out as a server-rendered page, then revokes it', async () => {
    const { page, token, workspaceId, hostname } = await apiSignedInWorkspace(web, 'publisher');
    const api = (method: 'POST' | 'PUT', url: string, body: object) => web.t.request({ method, url, token, body });
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
        { type: 'image', attrs: { src: `/api/v1/attachments/${picture.id}/download`, alt: 'A red dot', width: 40 } },
        { type: 'codeBlock', attrs: { language: 'sh' }, content: [{ type: 'text', text: 'npm run onboarding' }] },
      ],
    };
    expect((await api('PUT', `/api/v1/pages/${made.id}`, { content })).status).toBe(200);
    const child = (
      await api('POST', '/api/v1/pages', { workspaceId, spaceId: space.id, parentId: made.id, title: 'First week', markdown: 'Meet the team on Monday.' })
    ).body.data;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);

    // Public pages are off: the Share dialog says so and takes the admin straight to the setting.
    await page.goto(`/w/${hostname}/s/${space.slug}/p/welcome-${made.id}`);
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Share “Welcome”' });
    await visible(dialog.getByText('Public links are turned off in this workspace.'));
    expect(await page.getByRole('button', { name: 'Publish', exact: true }).count()).toBe(0);
    await dialog.getByRole('link', { name: 'Turn them on in Settings › General' }).click();
    await page.waitForURL(`**/w/${hostname}/settings/general`);
    await page.getByRole('switch', { name: 'Allow public pages' }).check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(async () => (await web.t.request({ url: `/api/v1/workspaces/${workspaceId}`, token })).body.data.settings.allowPublicPages).toBe(true);

    // Create the link in the Share dialog, with the pages under it, and copy it.
    await page.goto(`/w/${hostname}/s/${space.slug}/p/welcome-${made.id}`);
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await dialog.getByRole('button', { name: 'Create public link' }).click();
    const link = dialog.getByRole('textbox', { name: 'Public link' });
    await visible(link);
    await dialog.getByRole('checkbox', { name: 'Include the pages under it' }).check();
    await expect.poll(() => dialog.getByRole('checkbox', { name: 'Include the pages under it' }).isChecked()).toBe(true);
    const url = await link.inputValue();
    expect(url).toMatch(/\/s\/[A-Za-z0-9_-]{43}$/);
    await dialog.getByRole('button', { name: 'Copy link' }).click();
    await visible(dialog.getByRole('button', { name: 'Copied' }));
    await visible(dialog.getByText('Link copied to the clipboard.'));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    await web.shot(page, 'public-share-dialog');

    // A visitor: a fresh browser context, never signed in, gets the server's HTML page (no app, no API call, no 401).
    const visitor = await web.newPage();
    const apiCalls: string[] = [];
    const consoleErrors: string[] = [];
    visitor.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/') && r.resourceType() !== 'image') apiCalls.push(r.url());
    });
    visitor.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    const path = new URL(url).pathname;
    const response = await visitor.goto(path);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['x-robots-tag']).toBe('noindex');
    await visible(visitor.getByRole('heading', { level: 1, name: 'Welcome' }));
    await visible(visitor.getByText('Everything a newcomer needs, in one place.'));
    await visible(visitor.getByText('Published with kb'));
    expect(await visitor.locator('meta[name="description"]').getAttribute('content')).toBe('Everything a newcomer needs, in one place.');
    expect(await visitor.locator('meta[property="og:title"]').getAttribute('content')).toBe('Welcome');
    expect(await visitor.locator('script[src]').count()).toBe(0);
    const image = visitor.getByRole('img', { name: 'A red dot' });
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    // The one small script: a copy button on code blocks.
    await visible(visitor.getByRole('button', { name: 'Copy code' }));
    await web.shot(visitor, 'public-share-reader');
    await visitor.emulateMedia({ colorScheme: 'dark' });
    await web.shot(visitor, 'public-share-reader-dark');
    // The pages under it, from the side list; the address names the page inside the share.
    await visitor.getByRole('navigation', { name: 'Shared pages' }).getByRole('link', { name: 'First week' }).click();
    await visible(visitor.getByText('Meet the team on Monday.'));
    expect(new URL(visitor.url()).pathname).toBe(`${path}/${child.id}`);
    expect(apiCalls).toEqual([]);
    expect(consoleErrors).toEqual([]);
    // On a phone, the list sits above the page.
    const phone = await web.newPage({ width: 375, height: 812 });
    await phone.goto(path);
    await visible(phone.getByText('Everything a newcomer needs, in one place.'));
    await visible(phone.getByRole('link', { name: 'First week' }));
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await web.shot(phone, 'public-share-reader-phone');
    await phone.emulateMedia({ colorScheme: 'dark' });
    await web.shot(phone, 'public-share-reader-phone-dark');

    // Revoke: the link answers "not found" at once.
    await dialog.getByRole('button', { name: 'Revoke link' }).click();
    await visible(dialog.getByRole('button', { name: 'Create public link' }));
    const gone = await visitor.goto(path);
    expect(gone?.status()).toBe(404);
    await visible(visitor.getByRole('heading', { name: 'This link is no longer available' }));
    await web.shot(visitor, 'public-share-revoked');
  });

  it('tells a member who is not an admin to ask one when public pages are off', async () => {
    const { workspaceId, hostname, token } = await apiSignedInWorkspace(web, 'owner');
    const space = (await web.t.request({ method: 'POST', url: '/api/v1/spaces', token, body: { workspaceId, name: 'Docs' } })).body.data;
    const made = (await web.t.request({ method: 'POST', url: '/api/v1/pages', token, body: { workspaceId, spaceId: space.id, title: 'Notes', markdown: 'x' } }))
      .body.data;
    const member = await memberSignedIn(web, workspaceId, token, 'editor');
    await member.goto(`/w/${hostname}/s/${space.slug}/p/notes-${made.id}`);
    await member.getByRole('button', { name: 'Share', exact: true }).click();
    const dialog = member.getByRole('dialog', { name: 'Share “Notes”' });
    await visible(dialog.getByText('Ask a workspace admin to turn them on in Settings › General.'));
    expect(await dialog.getByRole('link', { name: /Settings/ }).count()).toBe(0);
  });
});

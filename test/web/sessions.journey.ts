import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { joinByInvitation } from '../helpers/factories.js';
import { apiSignedInWorkspace, person, useWebApp, visible } from './harness.js';

const web = useWebApp();

/** Another browser (its own cookies) signed in as `who` with the cookie session, opened at `path`. */
async function secondBrowser(who: { email: string; password: string }, path: string): Promise<Page> {
  const page = await web.newPage();
  const session = await page.request.post('/api/v1/auth/session', { data: { email: who.email, password: who.password } });
  expect(session.ok()).toBe(true);
  await page.goto(path);
  return page;
}

describe('sessions and passwords', () => {
  it('lists the sessions of two browsers and signs the other one out, which is then sent to sign in', async () => {
    const { page, who, hostname } = await apiSignedInWorkspace(web, 'owner');
    const other = await secondBrowser(who, `/w/${hostname}/settings/api-keys`);
    await visible(other.getByRole('heading', { name: 'API keys' }));

    await page.goto(`/w/${hostname}/settings/sessions`);
    const table = page.getByRole('table', { name: 'Sessions' });
    await visible(table);
    // The API sign-up, this browser and the other one.
    await expect.poll(() => table.getByRole('row').count()).toBe(4);
    await expect.poll(() => table.getByText('This device').count()).toBe(1);
    await visible(table.getByText('127.0.0.1'));
    await web.shot(page, 'settings-sessions');

    await page.getByRole('button', { name: 'Sign out all other sessions' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    await visible(table.getByText('This device'));

    // The other browser's next request is refused, and it lands on the sign-in screen.
    await other.getByRole('link', { name: 'Sessions' }).first().click();
    await other.waitForURL('**/login?next=*');
    await visible(other.getByRole('heading', { name: 'Sign in to kb' }));
    // This one still works.
    await page.reload();
    await visible(page.getByRole('table', { name: 'Sessions' }));
  });

  it('changes the password from settings, and an admin’s reset link lets a member set a new one and sign in', async () => {
    const { page, who, hostname, workspaceId } = await apiSignedInWorkspace(web, 'admin');
    await page.goto(`/w/${hostname}/settings/sessions`);
    await page.getByLabel('Current password').fill('wrong password');
    await page.getByLabel(/^New password/).fill('a brand new password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await visible(page.getByText('The current password is incorrect'));
    await page.getByLabel('Current password').fill(who.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await visible(page.getByText(/Password changed/));

    const member = person('member');
    const signup = await web.t.request({ method: 'POST', url: '/api/v1/auth/signup', body: member });
    // The change signed out the API session of the sign-up: sign in again with the new password.
    const admin = await web.t.request({ method: 'POST', url: '/api/v1/auth/login', body: { email: who.email, password: 'a brand new password' } });
    expect(admin.status).toBe(200);
    await joinByInvitation(web.t, workspaceId, admin.body.data.token, { id: signup.body.data.user.id, token: signup.body.data.token }, 'editor');

    await page.goto(`/w/${hostname}/settings/members`);
    await page.getByRole('button', { name: `Reset password of ${member.name}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Make reset link' }).click();
    const link = await (await visible(dialog.getByLabel('Reset link'))).inputValue();
    expect(link).toMatch(/\/reset-password\/[\w-]{43}$/);
    await visible(dialog.getByRole('button', { name: 'Copy link' }));
    await web.shot(page, 'settings-member-reset-link');

    const memberPage = await web.newPage();
    await memberPage.goto(new URL(link).pathname);
    await visible(memberPage.getByRole('heading', { name: 'Set a new password' }));
    await memberPage.getByLabel(/^New password/).fill('member new password');
    await memberPage.getByLabel('Repeat the new password').fill('member new password');
    await memberPage.getByRole('button', { name: 'Set password and sign in' }).click();
    await memberPage.waitForURL(`**/w/${hostname}`);
    const login = await web.t.request({ method: 'POST', url: '/api/v1/auth/login', body: { email: member.email, password: 'member new password' } });
    expect(login.status).toBe(200);

    // The link worked once.
    const again = await web.newPage();
    await again.goto(new URL(link).pathname);
    await again.getByLabel(/^New password/).fill('yet another password');
    await again.getByLabel('Repeat the new password').fill('yet another password');
    await again.getByRole('button', { name: 'Set password and sign in' }).click();
    await visible(again.getByText(/invalid, already used or expired/));
  });
});

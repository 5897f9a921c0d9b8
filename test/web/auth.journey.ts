import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createWorkspace, person, signUp, useWebApp, visible } from './harness.js';

const web = useWebApp();

describe('signing up, in and out', () => {
  it('signs up, creates a workspace, signs out and back in to the same workspace', async () => {
    const page = await web.newPage();
    await page.goto('/');
    await page.waitForURL('**/login?next=*');
    await visible(page.getByRole('heading', { name: 'Sign in to kb' }));
    const who = await signUp(page, person('ada'));
    const hostname = await createWorkspace(page, 'Analytical Engines');
    await visible(page.getByRole('button', { name: /Workspace: Analytical Engines/ }));
    await web.shot(page, 'workspace-home');

    // The session is an HttpOnly cookie: nothing readable by scripts, nothing in storage.
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === 'kb_session');
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Lax');
    expect(await page.evaluate(() => document.cookie)).not.toContain('kb_session');
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain('ey');

    // A reload keeps the person signed in on the same deep link.
    await page.reload();
    await visible(page.getByRole('button', { name: /Workspace: Analytical Engines/ }));

    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    // The sign-in screen; it may keep the workspace as where to come back to.
    await page.waitForURL(/\/login(\?|$)/);
    await page.goto(`/w/${hostname}`);
    await page.waitForURL('**/login?next=*');
    await page.getByLabel('Email').fill(who.email);
    await page.getByRole('textbox', { name: 'Password' }).fill(who.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`**/w/${hostname}`);
    await visible(page.getByRole('button', { name: /Workspace: Analytical Engines/ }));
  });

  it('shows the API’s error next to the form on a wrong password', async () => {
    const page = await web.newPage();
    const who = await signUp(page, person('bob'));
    await page.context().clearCookies();
    await page.goto('/login');
    await page.getByLabel('Email').fill(who.email);
    await page.getByRole('textbox', { name: 'Password' }).fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await visible(page.getByRole('alert'));
    expect(await page.getByRole('alert').textContent()).toMatch(/password|credentials/i);
    await web.shot(page, 'sign-in-error');
  });

  it('a mailed verification link opens a page whose button verifies the email (no sign-in needed)', async () => {
    const who = person('verify');
    const signup = await web.t.request({ method: 'POST', url: '/api/v1/auth/signup', body: who });
    // As the mail would carry it (mailing itself is covered by test/auth/email-verification.test.ts).
    const token = randomBytes(32).toString('base64url');
    await web.t.database.db
      .insertInto('emailVerifications')
      .values({
        id: randomUUID(),
        userId: signup.body.data.user.id,
        email: who.email,
        tokenHash: createHash('sha256').update(token).digest('hex'),
        expiresAt: new Date(Date.now() + 3600_000),
      })
      .execute();
    const page = await web.newPage();
    await page.goto(`/verify-email/${token}`);
    await visible(page.getByRole('heading', { name: 'Verify your email' }));
    await page.getByRole('button', { name: 'Confirm my email' }).click();
    await visible(page.getByText(`${who.email} is verified`, { exact: false }));
    await web.shot(page, 'verify-email');
    const me = await web.t.request({ url: '/api/v1/users/me', token: signup.body.data.token });
    expect(me.body.data.emailVerified).toBe(true);
    // Used once: opened again, the page says the link is dead.
    await page.goto(`/verify-email/${token}`);
    await page.getByRole('button', { name: 'Confirm my email' }).click();
    await visible(page.getByText('This verification link is invalid, already used or expired', { exact: false }));
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestProvider, type TestProvider } from '../helpers/oidc-provider.js';
import { signUp, useWebApp, visible } from './harness.js';

const web = useWebApp();
let op: TestProvider;
/** The machine running journeys is shared: a first page can take a while. */
const SLOW = 30_000;

/**
 * The provider must redirect to the service's own address, which is known only once it listens: so the provider starts
 * after the service, and the running service is told about it through its (shared, mutable) settings object.
 */
beforeAll(async () => {
  op = await startTestProvider({ redirectUri: `${web.baseUrl}/api/v1/auth/oidc/callback` });
  Object.assign(web.t.config, {
    PUBLIC_URL: web.baseUrl,
    OIDC_ISSUER: op.issuer,
    OIDC_CLIENT_ID: op.clientId,
    OIDC_CLIENT_SECRET: op.clientSecret,
    OIDC_DISPLAY_NAME: 'Acme ID',
  });
});
afterAll(() => op?.close());

describe('single sign-on in the browser', () => {
  it('signs a new person in with the provider from the sign-in screen', async () => {
    const sub = randomUUID();
    op.accounts.set(sub, { sub, email: `sso-${sub.slice(0, 8)}@example.com`, email_verified: true, name: 'Grace Hopper' });
    op.signInAs = sub;
    const page = await web.newPage();
    await page.goto('/login');
    const button = await visible(page.getByRole('link', { name: 'Sign in with Acme ID' }), SLOW);
    // The password form stays, below the provider's button.
    await visible(page.getByRole('textbox', { name: 'Password' }));
    await web.shot(page, 'sso-sign-in');
    await button.click();
    // A new account has no workspace yet: the app offers to create one.
    await page.waitForURL('**/new-workspace', { timeout: SLOW });
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'kb_session')?.httpOnly).toBe(true);
    expect(cookies.find((c) => c.name === 'kb_oidc')).toBeUndefined();
    const me = await page.request.get('/api/v1/auth/session');
    expect((await me.json()).data.user).toMatchObject({ name: 'Grace Hopper' });
    await web.shot(page, 'sso-signed-in');
  });

  it('explains a refused sign-in in words', async () => {
    const page = await web.newPage();
    await page.goto('/login?sso_error=domain_not_allowed');
    const alert = await visible(page.getByRole('alert'), SLOW);
    expect(await alert.textContent()).toMatch(/email domain cannot be created here/);
    await web.shot(page, 'sso-refused');
  });

  it('tells someone already signed in why single sign-on failed, instead of skipping the reason', async () => {
    const page = await web.newPage();
    await signUp(page);
    await page.goto('/login?sso_error=email_not_verified');
    // The sign-in screen is not for them: the app goes on to where they were going, and says what happened there.
    await page.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: SLOW });
    const notice = await visible(page.getByRole('alert').filter({ hasText: 'Single sign-on did not complete' }), SLOW);
    expect(await notice.textContent()).toMatch(/provider has not verified that email/);
    await web.shot(page, 'sso-refused-signed-in');
  });

  it('hides the password form when single sign-on is the only way in', async () => {
    web.t.config.OIDC_ONLY = true;
    try {
      const page = await web.newPage();
      await page.goto('/login');
      await visible(page.getByRole('link', { name: 'Sign in with Acme ID' }), SLOW);
      expect(await page.getByRole('textbox', { name: 'Password' }).count()).toBe(0);
      await web.shot(page, 'sso-only');
    } finally {
      web.t.config.OIDC_ONLY = false;
    }
  });
});

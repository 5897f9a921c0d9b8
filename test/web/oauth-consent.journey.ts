import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { person, useWebApp, visible } from './harness.js';

const web = useWebApp();

const REDIRECT_URI = 'http://127.0.0.1:9/callback';

// Evaluated rather than added as a script tag, which the app's CSP refuses (as in a11y.journey.ts).
const AXE = readFileSync(path.resolve('node_modules/axe-core/axe.min.js'), 'utf8');

/** axe-core's WCAG 2 A and AA findings on what the page shows now, as lines. */
async function axeFindings(page: Page, screen: string): Promise<string[]> {
  await page.evaluate(AXE);
  return page.evaluate(async (screen) => {
    const axe = (window as unknown as { axe: { run(o: unknown): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const { violations } = await axe.run({ runOnly: ['wcag2a', 'wcag2aa'] });
    return violations.flatMap((v) => v.nodes.map((n) => `${screen}: ${v.id} at ${n.target.join(' ')}`));
  }, screen);
}

/** Light, then dark: screenshots of what the page shows now, and no axe findings in either theme. */
async function shotBothThemes(page: Page, name: string) {
  const findings: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme')).toBe(scheme);
    await page.waitForTimeout(250); // colour transitions
    await web.shot(page, `${name}-${scheme}`);
    findings.push(...(await axeFindings(page, `${name} (${scheme})`)));
  }
  await page.emulateMedia({ colorScheme: 'light' });
  expect(findings).toEqual([]);
}

/** Whether Cancel and Connect sit on the same row. */
async function buttonRowTops(page: Page) {
  const [cancel, connect] = await Promise.all(['Cancel', 'Connect'].map((name) => page.getByRole('button', { name, exact: true }).boundingBox()));
  return [Math.abs((cancel?.y ?? 0) - (connect?.y ?? -100)) < 2];
}

/** An app (an MCP client) registers itself and makes the authorization URL it would open in the browser. */
async function appAsks(scope: string, name = 'Journey Agent') {
  const base = web.baseUrl;
  const registered = await fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }),
  });
  expect(registered.status, await registered.clone().text()).toBe(201);
  const clientId = ((await registered.json()) as { client_id: string }).client_id;
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL(`${base}/oauth/authorize`);
  for (const [k, v] of Object.entries({
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    scope,
    state: 's1',
    resource: `${base}/api/mcp`,
  }))
    authorize.searchParams.set(k, v);
  return { clientId, verifier, authorize };
}

describe('an app connects through the consent screen', () => {
  it('signs in on the way, connects one of two workspaces with the scopes asked, then Settings › Connected apps disconnects it', async () => {
    const base = web.baseUrl;
    // A person with two workspaces (made through the API).
    const who = person('consenter');
    const token = (await web.t.request({ method: 'POST', url: '/api/v1/auth/signup', body: who })).body.data.token as string;
    const make = async (name: string) =>
      (await web.t.request({ method: 'POST', url: '/api/v1/workspaces', token, body: { name, hostname: `${name.toLowerCase()}-${Date.now().toString(36)}` } }))
        .body.data as { id: string; hostname: string; name: string };
    const north = await make('North');
    const south = await make('South');

    // The app registers itself and starts an authorization, as an MCP client does.
    const { clientId, verifier, authorize } = await appAsks('read write');

    // Signed out: the consent screen sends the person to sign in, and back.
    const page = await web.newPage();
    await page.goto(authorize.href);
    await page.waitForURL('**/login?next=*');
    expect(decodeURIComponent(new URL(page.url()).searchParams.get('next') ?? '')).toMatch(/^\/oauth\/consent\/[\w-]+$/);
    await page.getByLabel('Email').fill(who.email);
    await page.getByRole('textbox', { name: 'Password' }).fill(who.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/oauth/consent/*');

    // What the app asks, in words.
    await visible(page.getByRole('heading', { level: 1, name: 'Connect Journey Agent to kb?' }));
    await visible(page.getByText('Registered itself (dynamic registration)'));
    await visible(page.getByText(/what the app says about itself/));
    await visible(page.getByText('127.0.0.1:9', { exact: true }));
    await visible(page.getByText(`Signed in as ${who.email}`));
    const scopes = page.getByRole('group', { name: 'What it may do' });
    const read = scopes.getByRole('checkbox', { name: 'Read' });
    const write = scopes.getByRole('checkbox', { name: 'Write' });
    await expect.poll(() => read.isChecked()).toBe(true);
    await expect.poll(() => read.isDisabled()).toBe(true);
    await expect.poll(() => write.isChecked()).toBe(true);
    await expect.poll(() => write.isEnabled()).toBe(true);
    await visible(page.getByText('Create and change content as you'));
    expect(await scopes.getByRole('checkbox').count()).toBe(2); // admin was not asked
    // Nothing wraps out of place at 1280 px: Cancel and Connect share one row, and nothing scrolls sideways.
    await expect.poll(() => buttonRowTops(page)).toEqual([true]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);

    // Connect without a workspace (two to choose from): asked to choose.
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await visible(page.getByText('Choose the workspace the app may reach'));
    await shotBothThemes(page, 'oauth-consent');

    // A phone.
    await page.setViewportSize({ width: 375, height: 812 });
    await visible(page.getByRole('button', { name: 'Connect', exact: true }));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await buttonRowTops(page)).toEqual([true]);
    await web.shot(page, 'oauth-consent-phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Picks South and connects: the browser goes back to the app with a code.
    await page.getByRole('combobox', { name: 'Workspace', exact: true }).click();
    await page.getByRole('option', { name: 'South' }).click();
    await visible(page.getByText(/reaches only South, where you are an admin/));
    await page.route('http://127.0.0.1:9/**', (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'back in the app' }));
    const callback = page.waitForRequest((r) => r.url().startsWith(REDIRECT_URI));
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    const landed = new URL((await callback).url());
    expect(landed.searchParams.get('state')).toBe('s1');
    const code = landed.searchParams.get('code');
    expect(code, landed.href).toBeTruthy();

    // The app exchanges the code; its token reaches South only.
    const exchanged = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: code as string,
        code_verifier: verifier,
        redirect_uri: REDIRECT_URI,
        client_id: clientId,
      }),
    });
    expect(exchanged.status, await exchanged.clone().text()).toBe(200);
    const accessToken = ((await exchanged.json()) as { access_token: string }).access_token;
    const asApp = () => fetch(`${base}/api/v1/workspaces`, { headers: { authorization: `Bearer ${accessToken}` } });
    const seen = await asApp();
    expect(seen.status).toBe(200);
    expect(((await seen.json()) as { data: { id: string }[] }).data.map((w) => w.id)).toEqual([south.id]);

    // Settings › Connected apps lists it; Disconnect (confirmed) ends its access.
    await page.goto(`/w/${north.hostname}/settings/connected-apps`);
    const table = page.getByRole('table', { name: 'Connected apps' });
    const row = table.getByRole('row', { name: /Journey Agent/ });
    await visible(row);
    await visible(row.getByText('Registered itself (name not verified)'));
    await visible(row.getByRole('cell', { name: 'South', exact: true }));
    await visible(row.getByText('Read', { exact: true }));
    await visible(row.getByText('Write', { exact: true }));
    // Its token was used just now (the workspace list above): not "Never".
    await expect.poll(() => row.getByRole('cell').nth(4).textContent()).not.toBe('Never');
    await shotBothThemes(page, 'settings-connected-apps');

    await row.getByRole('button', { name: 'Disconnect Journey Agent' }).click();
    const dialog = page.getByRole('dialog', { name: 'Disconnect app' });
    await visible(dialog.getByText(/loses its access to South at once/));
    await dialog.getByRole('button', { name: 'Disconnect' }).click();
    await visible(page.getByText(/No apps are connected/));
    await visible(page.getByText(`${base}/api/mcp`));
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await page.waitForTimeout(300); // the modal's closing transition
    await web.shot(page, 'settings-connected-apps-empty');
    expect((await asApp()).status).toBe(401);
  });

  it('without a workspace, explains it and offers to create one, comes back with it chosen, and Cancel declines', async () => {
    const who = person('newcomer');
    await web.t.request({ method: 'POST', url: '/api/v1/auth/signup', body: who });
    const page = await web.newPage({ width: 375, height: 812 });
    expect((await page.request.post('/api/v1/auth/session', { data: { email: who.email, password: who.password } })).ok()).toBe(true);
    const { authorize } = await appAsks('read write admin', 'Admin Helper');
    await page.goto(authorize.href);
    await page.waitForURL('**/oauth/consent/*');
    await visible(page.getByText('You need a workspace first'));
    const scopes = page.getByRole('group', { name: 'What it may do' });
    await expect.poll(() => scopes.getByRole('checkbox', { name: 'Administer' }).isChecked()).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: 'Connect', exact: true }).isDisabled()).toBe(true);
    await web.shot(page, 'oauth-consent-no-workspace-phone');

    await page.getByRole('link', { name: 'Create a workspace' }).click();
    await page.waitForURL('**/new-workspace?next=*');
    await page.getByLabel('Workspace name').fill(`${who.name.split(' ')[1]} lab`);
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await page.waitForURL('**/oauth/consent/*');
    // The only workspace, chosen already; unticking Administer is kept.
    await visible(page.getByText(/reaches only .* lab, where you are an admin/));
    await scopes.getByRole('checkbox', { name: 'Administer' }).uncheck();
    await expect.poll(() => scopes.getByRole('checkbox', { name: 'Administer' }).isChecked()).toBe(false);
    await shotBothThemes(page, 'oauth-consent-one-workspace-phone');

    // Cancel declines: the browser goes back to the app with access_denied.
    await page.route('http://127.0.0.1:9/**', (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'back in the app' }));
    const callback = page.waitForRequest((r) => r.url().startsWith(REDIRECT_URI));
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    const landed = new URL((await callback).url());
    expect(landed.searchParams.get('error')).toBe('access_denied');
    expect(landed.searchParams.get('state')).toBe('s1');
    expect(landed.searchParams.get('code')).toBeNull();
  });

  it('says in words that a request which ended cannot be used, with the way to start again', async () => {
    const who = person('late');
    await web.t.request({ method: 'POST', url: '/api/v1/auth/signup', body: who });
    const page = await web.newPage({ width: 375, height: 812 });
    expect((await page.request.post('/api/v1/auth/session', { data: { email: who.email, password: who.password } })).ok()).toBe(true);
    await page.goto('/oauth/consent/no-such-request');
    await visible(page.getByRole('heading', { level: 1, name: 'This connection request has ended' }));
    await visible(page.getByText(/start connecting to kb again/));
    await web.shot(page, 'oauth-consent-ended-phone');
  });
});

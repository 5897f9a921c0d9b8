import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenIssuer } from '../../src/areas/auth/tokens.js';
import { createBlobStore } from '../../src/blobs/index.js';
import { startBackground } from '../../src/jobs/runtime.js';
import { TEST_JWT_SECRET } from '../helpers/app.js';
import { addMember, createUser, createWorkspace, type TestUser } from '../helpers/factories.js';
import { sessionSignedIn, useWebApp, visible } from './harness.js';

const web = useWebApp();

let ana: TestUser;
let ben: TestUser;
let ws: { id: string; hostname: string };
let space: { id: string; slug: string };
let onboarding: { id: string; slug: string };
let background: { stop(): Promise<void> } | undefined;

const silent = { info() {}, warn() {}, error() {}, debug() {} };
const pageUrl = (p: { id: string; slug: string }) => `/w/${ws.hostname}/s/${space.slug}/p/${p.slug}-${p.id}`;
const bellOf = (page: Page) => page.getByRole('button', { name: /^Notifications(, \d+ unread)?$/ });
const unreadCount = async (user: TestUser) =>
  (await web.t.request({ url: '/api/v1/notifications/unread-count', token: user.token, query: { workspaceId: ws.id } })).body.data.count as number;

// Evaluated, not added as a script tag: the app's CSP refuses inline scripts (as in a11y.journey.ts).
const AXE = readFileSync(path.resolve('node_modules/axe-core/axe.min.js'), 'utf8');

/** axe-core's WCAG 2 A/AA findings inside the open notifications panel, in the light and the dark theme. */
async function panelViolations(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme')).toBe(scheme);
    await page.evaluate(AXE);
    const ids = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(c: unknown, o: unknown): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe;
      const result = await axe.run('[role="dialog"]', { runOnly: ['wcag2a', 'wcag2aa'] });
      return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    });
    found.push(...ids.map((line) => `${scheme}: ${line}`));
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}

beforeAll(async () => {
  ana = await createUser(web.t, 'Ana Arden');
  ben = await createUser(web.t, 'Ben Brook');
  ws = await createWorkspace(web.t, ana, 'Harbour');
  await addMember(web.t, ws.id, ana, ben, 'editor');
  space = (await web.t.request({ method: 'POST', url: '/api/v1/spaces', token: ana.token, body: { workspaceId: ws.id, name: 'Team' } })).body.data;
  const made = await web.t.request({
    method: 'POST',
    url: '/api/v1/pages',
    token: ana.token,
    body: { workspaceId: ws.id, spaceId: space.id, title: 'Onboarding', markdown: 'Welcome aboard.' },
  });
  if (made.status !== 201) throw new Error(`page: ${made.status} ${JSON.stringify(made.body)}`);
  onboarding = made.body.data;
  // The real background: the events dispatcher fans the outbox out to notifications, as in production.
  const env = { config: web.t.config, tokens: new TokenIssuer(TEST_JWT_SECRET, 3600), blobs: createBlobStore(web.t.config) };
  background = startBackground(web.t.database.db, env as never, 2, silent);
});

afterAll(async () => {
  await background?.stop();
});

describe('notifications in the web app', () => {
  it('a mention lights the other person’s bell live; the panel leads to the page and clears the count', async () => {
    const a = await sessionSignedIn(web, ana);
    await a.goto(`/w/${ws.hostname}`);
    await visible(a.getByRole('button', { name: 'Notifications', exact: true }));

    // Ben mentions Ana in the page, through the editor's "@" menu.
    const b = await sessionSignedIn(web, ben);
    await b.goto(pageUrl(onboarding));
    const editor = await visible(b.getByRole('textbox', { name: 'Page content' }));
    await editor.getByText('Welcome aboard.').click();
    await b.keyboard.press('End');
    await b.keyboard.type(' Ask @Ana', { delay: 15 });
    const menu = await visible(b.getByRole('listbox', { name: 'Mention' }));
    await visible(menu.getByRole('option', { name: /Ana Arden/ }));
    await b.keyboard.press('Enter');
    await visible(editor.locator('[data-type="mention"]'));
    await visible(b.getByRole('status').getByText('Saved', { exact: true }), 15_000);

    // Ana's bell shows it without a reload (the stream), and the API agrees.
    await visible(a.getByRole('button', { name: 'Notifications, 1 unread' }), 20_000);
    expect(await unreadCount(ana)).toBe(1);

    await bellOf(a).click();
    const panel = await visible(a.getByRole('dialog', { name: 'Notifications' }));
    const row = panel.getByRole('button', { name: /^Ben Brook mentioned you in Onboarding, .*unread$/ });
    await visible(row);
    await web.shot(a, 'notifications-panel-1280');
    const violations = await panelViolations(a);
    expect(violations, violations.join('\n')).toEqual([]);

    await row.click();
    await a.waitForURL(`**/p/*${onboarding.id}`);
    await visible(a.getByRole('button', { name: 'Notifications', exact: true }));
    await expect.poll(() => unreadCount(ana)).toBe(0);
    const list = await web.t.request({ url: '/api/v1/notifications', token: ana.token, query: { workspaceId: ws.id } });
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ kind: 'mention', actor: { id: ben.id }, pageId: onboarding.id });
    expect(list.body.data[0].readAt).not.toBeNull();

    // Ben's own bell stays quiet: nobody hears of their own change.
    await visible(b.getByRole('button', { name: 'Notifications', exact: true }));
    expect(await unreadCount(ben)).toBe(0);
  });

  it('watches a page from its header and a space from its screen', async () => {
    const a = await sessionSignedIn(web, ana);
    await a.goto(pageUrl(onboarding));
    const watch = await visible(a.getByRole('button', { name: 'Watch', exact: true }));
    await watch.click();
    await visible(a.getByRole('button', { name: 'Watching', exact: true }));
    expect(await a.getByRole('button', { name: 'Watching', exact: true }).getAttribute('aria-pressed')).toBe('true');
    const pageWatch = await web.t.request({ url: `/api/v1/pages/${onboarding.id}/watch`, token: ana.token });
    expect(pageWatch.body.data).toEqual({ watching: true });
    await web.shot(a, 'notifications-page-watching');

    await a.goto(`/w/${ws.hostname}/s/${space.slug}`);
    await a.getByRole('button', { name: 'Watch', exact: true }).click();
    await visible(a.getByRole('button', { name: 'Watching', exact: true }));
    expect((await web.t.request({ url: `/api/v1/spaces/${space.id}/watch`, token: ana.token })).body.data).toEqual({ watching: true });
    await a.getByRole('button', { name: 'Watching', exact: true }).click();
    await visible(a.getByRole('button', { name: 'Watch', exact: true }));
    expect((await web.t.request({ url: `/api/v1/spaces/${space.id}/watch`, token: ana.token })).body.data).toEqual({ watching: false });

    // Ben edits the watched page: Ana hears of it, live.
    const updated = await web.t.request({ method: 'PUT', url: `/api/v1/pages/${onboarding.id}`, token: ben.token, body: { title: 'Onboarding guide' } });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    await visible(a.getByRole('button', { name: 'Notifications, 1 unread' }), 20_000);
    await bellOf(a).click();
    await visible(a.getByRole('dialog', { name: 'Notifications' }).getByRole('button', { name: /^Onboarding( guide)? was updated, .*unread$/ }));
    await a.getByRole('dialog', { name: 'Notifications' }).getByRole('button', { name: 'Mark all read' }).click();
    await visible(a.getByRole('button', { name: 'Notifications', exact: true }));
    expect(await unreadCount(ana)).toBe(0);
  });

  it('changes notification preferences in settings', async () => {
    const a = await sessionSignedIn(web, ana);
    await a.goto(`/w/${ws.hostname}/settings/notifications`);
    const table = await visible(a.getByRole('table', { name: 'Notification preferences' }));
    const watchEmail = table.getByRole('checkbox', { name: 'Watched pages and spaces: email' });
    await visible(watchEmail);
    expect(await watchEmail.isChecked()).toBe(false);
    expect(await table.getByRole('checkbox', { name: 'Mentions: email' }).isChecked()).toBe(true);
    await watchEmail.check();
    await expect
      .poll(async () => (await web.t.request({ url: '/api/v1/notifications/preferences', token: ana.token })).body.data.kinds.watch)
      .toEqual({ inApp: true, email: true });
    await table.getByRole('checkbox', { name: 'Replies: in app' }).uncheck();
    await expect
      .poll(async () => (await web.t.request({ url: '/api/v1/notifications/preferences', token: ana.token })).body.data.kinds.reply.inApp)
      .toBe(false);
    await a.reload();
    await visible(a.getByRole('table', { name: 'Notification preferences' }));
    expect(await a.getByRole('checkbox', { name: 'Watched pages and spaces: email' }).isChecked()).toBe(true);
    expect(await a.getByRole('checkbox', { name: 'Replies: in app' }).isChecked()).toBe(false);
    await web.shot(a, 'notifications-preferences');
  });

  it('on a phone the bell opens the list as a drawer', async () => {
    const mentioned = await web.t.request({
      method: 'POST',
      url: '/api/v1/comments',
      token: ben.token,
      body: { workspaceId: ws.id, pageId: onboarding.id, text: 'Thanks, will read it.' },
    });
    expect(mentioned.status).toBe(201);
    const a = await sessionSignedIn(web, ana, { width: 375, height: 740 });
    await a.goto(`/w/${ws.hostname}`);
    // The header still fits the phone with the bell in it.
    const account = await visible(a.getByRole('button', { name: `Account: ${ana.name}` }));
    const edge = (await account.boundingBox()) as { x: number; width: number };
    expect(edge.x + edge.width).toBeLessThanOrEqual(375);
    expect(await a.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await bellOf(a).click();
    const drawer = await visible(a.getByRole('dialog', { name: 'Notifications' }));
    await visible(drawer.getByRole('list', { name: 'Notifications' }));
    await a.waitForTimeout(300); // only so the screenshot shows the open drawer, not its slide
    await web.shot(a, 'notifications-panel-375');
    const box = await drawer.boundingBox();
    expect(box?.width ?? 0).toBeLessThanOrEqual(375);
  });
  it('opens the stream again after it fails, and stays live', async () => {
    const a = await sessionSignedIn(web, ana);
    let attempts = 0;
    // The first two stream requests fail; the bell backs off (1 s, 2 s) and the third one holds.
    await a.route('**/api/v1/notifications/stream*', (route) => (++attempts <= 2 ? route.abort() : route.continue()));
    await a.goto(`/w/${ws.hostname}`);
    await expect.poll(() => attempts, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    const before = await unreadCount(ana);
    await visible(a.getByRole('button', { name: before ? `Notifications, ${before} unread` : 'Notifications' }));
    const commented = await web.t.request({
      method: 'POST',
      url: '/api/v1/comments',
      token: ben.token,
      body: { workspaceId: ws.id, pageId: onboarding.id, text: 'One more thing.' },
    });
    expect(commented.status).toBe(201);
    // Faster than the 30 s poll: the reopened stream carried it.
    await visible(a.getByRole('button', { name: `Notifications, ${before + 1} unread` }), 15_000);
    expect(attempts).toBe(3);
  });
});

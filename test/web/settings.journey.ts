import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { joinByInvitation } from '../helpers/factories.js';
import { person, useWebApp, visible } from './harness.js';

const web = useWebApp();

/** The owner's workspace, a second member (viewer) and a space, the last two made through the API. */
let page: Page;
let hostname: string;
let token: string;
let workspaceId: string;
let second: { id: string; name: string };
let spaceId: string;

const settings = (section: string) => `/w/${hostname}/settings/${section}`;

/** A browser whose cookie session belongs to `who` (opened like the sign-in form does, by POST /api/v1/auth/session). */
async function signedInPage(who: { email: string; password: string }, options?: { width?: number; height?: number }) {
  const p = await web.newPage(options);
  const res = await p.request.post('/api/v1/auth/session', { data: { email: who.email, password: who.password } });
  expect(res.status()).toBe(200);
  return p;
}

/** Picks an option of a Mantine Select named `label`. */
async function choose(label: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option }).click();
}

async function poll<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 5_000): Promise<T> {
  const end = Date.now() + ms;
  let v = await read();
  while (!ok(v) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 100));
    v = await read();
  }
  return v;
}

describe('workspace settings', () => {
  beforeAll(async () => {
    // Set up through the API: sign-up and workspace creation have journeys of their own; this one is about settings.
    const owner = person('owner');
    const signup = await web.t.request({ method: 'POST', url: '/api/v1/auth/signup', body: owner });
    token = signup.body.data.token;
    hostname = `settings-${Date.now().toString(36)}`;
    const ws = await web.t.request({ method: 'POST', url: '/api/v1/workspaces', token, body: { name: 'Settings team', hostname } });
    workspaceId = ws.body.data.id;
    const other = person('grace');
    const otherSignup = await web.t.request({ method: 'POST', url: '/api/v1/auth/signup', body: other });
    second = { id: otherSignup.body.data.user.id, name: other.name };
    await joinByInvitation(web.t, workspaceId, token, { id: second.id, token: otherSignup.body.data.token }, 'viewer');
    const space = await web.t.request({ method: 'POST', url: '/api/v1/spaces', token, body: { workspaceId, name: 'Handbook', visibility: 'public' } });
    spaceId = space.body.data.id;
    page = await signedInPage(owner);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: web.baseUrl });
  });

  it('makes a read-only API key with an expiry that works, shows it once, and revokes it', async () => {
    await page.goto(settings('api-keys'));
    await visible(page.getByText('You have no API keys yet.'));
    await page.getByRole('button', { name: 'New API key' }).click();
    await page.getByLabel('Key name').fill('CI sync');
    await page.getByText('Read only', { exact: true }).click();
    await page
      .getByRole('dialog', { name: 'New API key' })
      .getByRole('textbox', { name: 'Expires' })
      .or(page.getByRole('combobox', { name: 'Expires' }))
      .first()
      .click();
    await page.getByRole('option', { name: 'In 30 days' }).click();
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Copy your new API key' });
    await visible(dialog.getByText('This key will not be shown again', { exact: false }));
    const key = await dialog.getByLabel('API key').inputValue();
    expect(key.length).toBeGreaterThan(20);
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await visible(dialog.getByRole('button', { name: 'Copied' }));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await web.shot(page, 'settings-api-key-shown');

    const withKey = await web.t.request({ method: 'GET', url: '/api/v1/workspaces', token: key });
    expect(withKey.status).toBe(200);
    const write = await web.t.request({ method: 'POST', url: '/api/v1/workspaces', token: key, body: { name: 'Nope', hostname: 'nope-read-only' } });
    expect(write.status).toBe(403);

    await dialog.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('row', { name: /CI sync/ });
    await visible(row);
    expect(await row.textContent()).toContain(key.slice(0, 6));
    expect(await row.textContent()).toContain('Read only');
    expect(await row.getByRole('cell').nth(3).textContent()).toMatch(/\d{4}/); // Expires: a date, not “Never”
    await web.shot(page, 'settings-api-keys');
    await page.getByRole('button', { name: 'Revoke CI sync' }).click();
    await page.getByRole('dialog', { name: 'Revoke API key' }).getByRole('button', { name: 'Revoke key' }).click();
    await visible(page.getByText('You have no API keys yet.'));
    const revoked = await web.t.request({ method: 'GET', url: '/api/v1/workspaces', token: key });
    expect(revoked.status).toBe(401);
  });

  it('changes a member’s role', async () => {
    await page.goto(settings('members'));
    await visible(page.getByRole('cell', { name: second.name }));
    await choose(`Role of ${second.name}`, 'Editor');
    await visible(page.getByText('Role changed to editor'));
    const members = await poll(
      async () => (await web.t.request({ method: 'GET', url: `/api/v1/workspaces/${workspaceId}/members`, token })).body.data as { id: string; role: string }[],
      (list) => list.find((m) => m.id === second.id)?.role === 'editor',
    );
    expect(members.find((m) => m.id === second.id)?.role).toBe('editor');
    await web.shot(page, 'settings-members');
  });

  it('changes a space’s visibility', async () => {
    await page.goto(settings('spaces'));
    await visible(page.getByRole('cell', { name: 'Public' }));
    await web.shot(page, 'settings-spaces');
    await page.getByRole('main').getByRole('link', { name: 'Handbook' }).click();
    await visible(page.getByRole('heading', { name: 'Space: Handbook' }));
    await choose('Visibility', 'Private: only its members and workspace admins');
    await page.getByRole('button', { name: 'Save space' }).click();
    await visible(page.getByText('Space saved'));
    const read = await web.t.request({ method: 'GET', url: `/api/v1/spaces/${spaceId}`, token, query: { workspaceId } });
    expect(read.body.data.visibility).toBe('private');
    // Give the second member a role of their own in the space, through the access panel.
    await choose('Workspace member', `${second.name}`);
    await page.getByRole('button', { name: 'Give access' }).click();
    await visible(page.getByRole('combobox', { name: `Space role of ${second.name}` }));
    await web.shot(page, 'settings-space');
  });

  it('shows the API’s validation error under the field', async () => {
    await page.goto(settings('general'));
    await page.getByLabel('Logo URL').fill('ftp://example.com/logo.png');
    await page.getByRole('button', { name: 'Save' }).click();
    const field = page.getByLabel('Logo URL');
    await visible(page.getByText('must be an http or https URL'));
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await web.shot(page, 'settings-general-error');
    await field.fill('https://example.com/logo.png');
    await page.getByRole('button', { name: 'Save' }).click();
    await visible(page.getByText('Workspace settings saved'));
    const read = await web.t.request({ method: 'GET', url: `/api/v1/workspaces/${workspaceId}`, token });
    expect(read.body.data.logoUrl).toBe('https://example.com/logo.png');
  });

  it('creates a group and shows the sync and bug report sections', async () => {
    await page.goto(settings('groups'));
    await page.getByLabel('Group name').fill('Writers');
    await page.getByRole('button', { name: 'Create group' }).click();
    await visible(page.getByRole('link', { name: 'Writers' }));
    await page.getByRole('link', { name: 'Writers' }).click();
    await choose('Add a workspace member', new RegExp(second.name));
    await page.getByRole('button', { name: 'Add to group' }).click();
    await visible(page.getByRole('cell', { name: second.name }));
    await web.shot(page, 'settings-groups');

    await page.goto(settings('sync'));
    await page.getByLabel('Source name').fill('Notes folder');
    await page.getByRole('button', { name: 'Create source' }).click();
    await visible(page.getByRole('link', { name: 'Notes folder' }));
    await web.shot(page, 'settings-sync');

    await web.t.request({
      method: 'POST',
      url: '/api/bug-reports/create',
      token,
      body: { title: 'Search misses titles', source: 'user:command', workspaceId },
    });
    await page.goto(settings('bug-reports'));
    await page.getByRole('link', { name: 'Search misses titles' }).click();
    // The list has a "Status" filter too: pick the status only once the report's own page has replaced it.
    await visible(page.getByRole('heading', { name: 'Search misses titles' }));
    await choose('Status', 'Triaged');
    await visible(page.getByText('Status set to Triaged'));
    await web.shot(page, 'settings-bug-report');
  });

  it('previews a sync conflict from both sides and resolves it with the merge', async () => {
    const sync = (path: string, body: Record<string, unknown>) =>
      web.t.request({ method: 'POST', url: `/api/local-sync${path}`, token, body: { workspaceId, ...body } });
    const source = await sync('/sources', { name: 'Team notes', mode: 'bidirectional' });
    expect(source.status).toBe(201);
    const sourceId = source.body.sourceId;
    const base = 'one\ntwo\nthree\nfour\nfive\n';
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    const first = await sync('/sources/push-batch', {
      sourceId,
      items: [{ operationId: 'op-1', relativePath: 'notes.md', content: base, contentType: 'text/markdown', contentHash: sha(base) }],
    });
    const baseHash = first.body.results[0].contentHash;
    // The service edits the first line, the folder (a stale push) the last: a conflict both sides can be merged from.
    const edit = await sync('/sources/file/update', {
      sourceId,
      relativePath: 'notes.md',
      content: base.replace('one', 'ONE'),
      contentType: 'text/markdown',
      baseHash,
    });
    expect(edit.body.status).toBe('ok');
    const clash = await sync('/sources/push-batch', {
      sourceId,
      items: [
        {
          operationId: 'op-2',
          relativePath: 'notes.md',
          content: base.replace('five', 'FIVE'),
          contentType: 'text/markdown',
          contentHash: sha(base.replace('five', 'FIVE')),
          baseHash,
        },
      ],
    });
    expect(clash.body.results[0]).toMatchObject({ status: 'conflict', error: null });

    await page.goto(settings('sync'));
    await visible(page.getByRole('cell', { name: '1 open' }));
    await page.getByRole('link', { name: 'Team notes' }).click();
    await page.getByRole('link', { name: 'notes.md' }).click();
    const local = page.getByLabel('Folder version (local)');
    await visible(local);
    expect(await local.textContent()).toContain('FIVE');
    expect(await page.getByLabel('Service version').textContent()).toContain('ONE');
    const merged = await page.getByLabel('Merged text').inputValue();
    expect(merged).toContain('ONE');
    expect(merged).toContain('FIVE');
    await web.shot(page, 'settings-sync-conflict');
    await page.getByRole('button', { name: 'Save merged text' }).click();
    await visible(page.getByText('Conflict resolved: saved the merged text'));
    await visible(page.getByText('No open conflicts', { exact: false }));
    const file = await sync('/sources/file', { sourceId, relativePath: 'notes.md' });
    expect(file.body.content).toBe('ONE\ntwo\nthree\nfour\nFIVE\n');
  });

  it('hides bug reports from non-admins and fits a phone', async () => {
    const other = person('mobile');
    const signup = await web.t.request({ method: 'POST', url: '/api/v1/auth/signup', body: other });
    await joinByInvitation(web.t, workspaceId, token, { id: signup.body.data.user.id, token: signup.body.data.token }, 'viewer');
    const phone = await signedInPage(other, { width: 375, height: 800 });
    await phone.goto(settings('general'));
    await visible(phone.getByText('Only workspace admins can change these settings.'));
    const nav = phone.getByRole('navigation', { name: 'Settings sections' });
    await visible(nav.getByRole('link', { name: 'API keys' }));
    expect(await nav.getByRole('link', { name: 'Bug reports' }).count()).toBe(0);
    expect(await phone.getByRole('button', { name: 'Save' }).count()).toBe(0);
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
    await web.shot(phone, 'settings-general-mobile-viewer');
    await nav.getByRole('link', { name: 'Members' }).click();
    await visible(phone.getByRole('heading', { name: 'Members' }));
    // A viewer reads roles; only admins get the role pickers and the add form.
    expect(await phone.getByRole('combobox', { name: `Role of ${second.name}` }).count()).toBe(0);
    expect(await phone.getByRole('button', { name: 'Add member' }).count()).toBe(0);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await web.shot(phone, 'settings-members-mobile-viewer');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addMember, createUser, createWorkspace, type TestUser } from '../helpers/factories.js';
import { listenOnLoopback, mcpClients } from '../helpers/mcp.js';
import { createSpace } from '../spaces/helpers.js';

/**
 * Workspace-scoped API keys (issue 15): a key limited to one workspace reads and writes there as its user may, and in
 * every other workspace (even one its user belongs to) it gets exactly what a non-member gets: the same status and code,
 * the same empty lists. REST and MCP alike.
 */

let t: TestApp;
let base: string;
let member: TestUser; // editor in Alpha, admin of Beta
let outsider: TestUser; // in Beta only: cannot scope a key to Alpha
let betaOnly: TestUser; // shares only Beta with `member`
let alpha: { id: string; hostname: string };
let beta: { id: string; hostname: string };
let alphaSpace: string;
let betaSpace: string;
let alphaPage: string;
let betaPage: string;
let scopedKey: string;
const clients = mcpClients();

async function page(user: TestUser, workspaceId: string, spaceId: string, title: string) {
  const res = await t.request({
    method: 'POST',
    url: '/api/v1/pages',
    token: user.token,
    body: { workspaceId, spaceId, title, markdown: 'the zebracorn migrates' },
  });
  if (res.status !== 201) throw new Error(`page failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

const keyFor = (user: TestUser, body: Record<string, unknown>) => t.request({ method: 'POST', url: '/api/v1/api-keys', token: user.token, body });

/** The same request as `token` and as a user who is not a member: same status and error code. */
async function sameAsNonMember(
  req: { method?: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; query?: Record<string, string>; body?: unknown },
  nonMember: string,
) {
  const scoped = await t.request({ ...req, token: scopedKey });
  const baseline = await t.request({ ...req, token: nonMember });
  expect(scoped.status, `${req.url} ${JSON.stringify(scoped.body)}`).toBe(baseline.status);
  expect(scoped.body.error?.code).toBe(baseline.body.error?.code);
  expect([403, 404]).toContain(scoped.status);
  return scoped;
}

beforeAll(async () => {
  t = await createTestApp();
  [member, outsider, betaOnly] = await Promise.all([createUser(t, 'Member'), createUser(t, 'Outsider'), createUser(t, 'Beta Only')]);
  const owner = await createUser(t, 'Owner');
  alpha = await createWorkspace(t, owner, 'Alpha');
  await addMember(t, alpha.id, owner, member, 'editor');
  beta = await createWorkspace(t, member, 'Beta');
  await addMember(t, beta.id, member, outsider, 'viewer');
  await addMember(t, beta.id, member, betaOnly, 'viewer');
  alphaSpace = (await createSpace(t, owner, alpha.id, { name: 'Alpha docs' })).id;
  betaSpace = (await createSpace(t, member, beta.id, { name: 'Beta docs' })).id;
  alphaPage = await page(member, alpha.id, alphaSpace, 'Alpha zebracorn');
  betaPage = await page(member, beta.id, betaSpace, 'Beta zebracorn');
  base = await listenOnLoopback(t);
});

afterAll(async () => {
  await clients.close();
  await t?.close();
});

describe('creating and listing workspace-scoped keys', () => {
  it('creates a key limited to a workspace the user belongs to, and says so', async () => {
    const res = await keyFor(member, { name: 'alpha-bot', workspaceId: alpha.id, access: 'read-write' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ name: 'alpha-bot', workspaceId: alpha.id, access: 'read-write', expiresAt: null });
    scopedKey = res.body.data.key;
  });

  it('refuses a workspace the user is not a member of (403) and one that does not exist (404)', async () => {
    const foreign = await keyFor(outsider, { name: 'x', workspaceId: alpha.id });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe('FORBIDDEN');
    const missing = await keyFor(member, { name: 'x', workspaceId: '0190aaaa-0000-7000-8000-000000000000' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    const bad = await keyFor(member, { name: 'x', workspaceId: '' });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    // None of them was created.
    const list = await t.request({ url: '/api/v1/api-keys', token: outsider.token });
    expect(list.body.data).toEqual([]);
  });

  it('lists each key with its workspace (id and name), access, expiry and last use', async () => {
    await keyFor(member, { name: 'everywhere' });
    await t.request({ url: '/api/v1/users/me', token: scopedKey });
    const res = await t.request({ url: '/api/v1/api-keys', token: member.token });
    expect(res.status).toBe(200);
    const byName = Object.fromEntries(res.body.data.map((k: { name: string }) => [k.name, k]));
    expect(byName['alpha-bot']).toMatchObject({ workspaceId: alpha.id, workspaceName: 'Alpha', access: 'read-write', expiresAt: null });
    expect(byName['alpha-bot'].lastUsedAt).toEqual(expect.any(String));
    expect(byName.everywhere).toMatchObject({ workspaceId: null, workspaceName: null, lastUsedAt: null });
  });

  it("records a scoped key's creation and revocation in its workspace's audit log, an unscoped key's in neither", async () => {
    const scoped = await keyFor(member, { name: 'short-lived', workspaceId: beta.id });
    const loose = await keyFor(member, { name: 'loose' });
    for (const id of [scoped.body.data.id, loose.body.data.id])
      expect((await t.request({ method: 'DELETE', url: `/api/v1/api-keys/${id}`, token: member.token })).status).toBe(200);
    const log = await t.request({ url: '/api/v1/audit-log', token: member.token, query: { workspaceId: beta.id, action: 'api_key.created,api_key.revoked' } });
    expect(log.status, JSON.stringify(log.body)).toBe(200);
    const seen = log.body.data.map((e: { action: string; target: { id: string } }) => [e.action, e.target.id]);
    expect(seen).toEqual([
      ['api_key.revoked', scoped.body.data.id],
      ['api_key.created', scoped.body.data.id],
    ]);
  });
});

describe('a workspace-scoped key over REST', () => {
  it('reads and writes in its workspace', async () => {
    expect((await t.request({ url: `/api/v1/pages/${alphaPage}`, token: scopedKey })).status).toBe(200);
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: scopedKey,
      body: { workspaceId: alpha.id, spaceId: alphaSpace, title: 'Written by the key', markdown: 'x' },
    });
    expect(created.status).toBe(201);
  });

  it('lists only its workspace', async () => {
    const res = await t.request({ url: '/api/v1/workspaces', token: scopedKey });
    expect(res.status).toBe(200);
    expect(res.body.data.map((w: { id: string }) => w.id)).toEqual([alpha.id]);
    const unscoped = await t.request({ url: '/api/v1/workspaces', token: member.token });
    expect(unscoped.body.data.map((w: { id: string }) => w.id).sort()).toEqual([alpha.id, beta.id].sort());
  });

  it('gets what a non-member gets in another workspace its user belongs to (even as its admin)', async () => {
    const stranger = await createUser(t, 'Stranger');
    await sameAsNonMember({ url: `/api/v1/workspaces/${beta.id}` }, stranger.token);
    await sameAsNonMember({ url: `/api/v1/pages/${betaPage}` }, stranger.token);
    await sameAsNonMember({ url: '/api/v1/spaces', query: { workspaceId: beta.id } }, stranger.token);
    await sameAsNonMember({ url: `/api/v1/spaces/${betaSpace}`, query: { workspaceId: beta.id } }, stranger.token);
    await sameAsNonMember({ url: `/api/v1/workspaces/${beta.id}/members` }, stranger.token);
    await sameAsNonMember(
      { method: 'POST', url: '/api/v1/pages', body: { workspaceId: beta.id, spaceId: betaSpace, title: 'No', markdown: 'x' } },
      stranger.token,
    );
    await sameAsNonMember({ method: 'DELETE', url: `/api/v1/pages/${betaPage}` }, stranger.token);
    // The header hint does not widen it either.
    const hinted = await t.request({ url: '/api/v1/tasks/triage-summary', token: scopedKey, headers: { 'x-workspace-id': beta.id } });
    expect(hinted.status).toBe(403);
    // Nothing changed in Beta.
    expect((await t.request({ url: `/api/v1/pages/${betaPage}`, token: member.token })).status).toBe(200);
  });

  it('searches only its workspace', async () => {
    const own = await t.request({ url: '/api/v1/search', token: scopedKey, query: { workspaceId: alpha.id, query: 'zebracorn' } });
    expect(own.status).toBe(200);
    const titles = own.body.data.map((r: { title: string }) => r.title);
    expect(titles).toContain('Alpha zebracorn');
    expect(titles).not.toContain('Beta zebracorn');
    const other = await t.request({ url: '/api/v1/search', token: scopedKey, query: { workspaceId: beta.id, query: 'zebracorn' } });
    expect(other.status).toBe(403);
    const suggest = await t.request({ url: '/api/v1/search/suggest', token: scopedKey, query: { workspaceId: beta.id, query: 'zebra' } });
    expect(suggest.status).toBe(403);
  });

  it('takes its workspace as the context when a request names none', async () => {
    const unscoped = await t.request({ url: '/api/v1/tasks/triage-summary', token: member.token });
    expect(unscoped.status).toBe(400);
    const scoped = await t.request({ url: '/api/v1/tasks/triage-summary', token: scopedKey });
    expect(scoped.status, JSON.stringify(scoped.body)).toBe(200);
  });

  it('sees only the people of its workspace', async () => {
    expect((await t.request({ url: `/api/v1/users/${betaOnly.id}`, token: member.token })).status).toBe(200);
    const hidden = await t.request({ url: `/api/v1/users/${betaOnly.id}`, token: scopedKey });
    expect(hidden.status).toBe(404);
    expect((await t.request({ url: `/api/v1/users/${member.id}`, token: scopedKey })).status).toBe(200);
  });

  it('does not administer the bug reports of another workspace its user administers', async () => {
    expect((await t.request({ method: 'POST', url: '/api/bug-reports/list', token: member.token, body: {} })).status).toBe(200);
    const scoped = await t.request({ method: 'POST', url: '/api/bug-reports/list', token: scopedKey, body: {} });
    expect(scoped.status).toBe(403);
  });

  it('cannot create a workspace it could not then use', async () => {
    const res = await t.request({ method: 'POST', url: '/api/v1/workspaces', token: scopedKey, body: { name: 'Gamma', hostname: 'gamma-scoped' } });
    expect(res.status).toBe(403);
    expect(res.body.error.details).toMatchObject({ reason: 'key_workspace_scope' });
  });

  it('is deleted with its workspace', async () => {
    const gamma = await createWorkspace(t, member, 'Gamma');
    const key = (await keyFor(member, { name: 'gamma-bot', workspaceId: gamma.id })).body.data.key as string;
    expect((await t.request({ url: '/api/v1/workspaces', token: key })).status).toBe(200);
    const rows = await t.database.db.selectFrom('apiKeys').select('workspaceId').where('name', '=', 'gamma-bot').execute();
    expect(rows).toEqual([{ workspaceId: gamma.id }]);
    await t.database.db.deleteFrom('workspaces').where('id', '=', gamma.id).execute();
    expect(await t.database.db.selectFrom('apiKeys').select('id').where('name', '=', 'gamma-bot').execute()).toEqual([]);
  });
});

describe('a workspace-scoped key over MCP (the official SDK client)', () => {
  const textOf = (r: unknown) => (r as { content: Array<{ text: string }> }).content[0].text;

  it('lists one workspace, reads in it, and is refused in the other like a non-member', async () => {
    const client = await clients.connect(base, scopedKey);

    const list = await client.callTool({ name: 'workspace_list', arguments: {} });
    expect(list.isError, textOf(list)).toBe(false);
    expect(JSON.parse(textOf(list)).items.map((w: { id: string }) => w.id)).toEqual([alpha.id]);

    const own = await client.callTool({ name: 'page_get', arguments: { pageId: alphaPage } });
    expect(own.isError, textOf(own)).toBe(false);

    for (const call of [
      { name: 'page_get', arguments: { pageId: betaPage } },
      { name: 'search_query', arguments: { workspaceId: beta.id, query: 'zebracorn' } },
      { name: 'space_list', arguments: { workspaceId: beta.id } },
    ]) {
      const res = await client.callTool(call);
      expect(res.isError, call.name).toBe(true);
      expect(textOf(res), call.name).toMatch(/FORBIDDEN|NOT_FOUND|not a member|not found/i);
    }
  });
});

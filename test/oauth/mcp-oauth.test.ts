import { discoverAuthorizationServerMetadata, refreshAuthorization } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteExpiredOAuthRecords } from '../../src/areas/oauth/oauth.adapter.js';
import type { TestApp } from '../helpers/app.js';
import { addMember, createUser, createWorkspace, type workspaceWithRoles } from '../helpers/factories.js';
import { listeningHandbook } from '../helpers/mcp.js';
import { agentConnects, consentInBrowser, MemoryOAuthClient, REDIRECT_URI } from '../helpers/oauth.js';

/** An agent connects to /api/mcp from its URL alone, as a hosted AI client does: the SDK's own OAuth client against kb's authorization server. */

let t: TestApp;
let base: string;
let ws: Awaited<ReturnType<typeof workspaceWithRoles>>;
let spaceId: string;
const open: Client[] = [];

beforeAll(async () => {
  ({ t, base, ws, spaceId } = await listeningHandbook());
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  await t.close();
});

const mcpUrl = () => new URL(`${base}/api/mcp`);

const connectWithConsent = async (oauth: MemoryOAuthClient, scopes: string[], workspaceId = ws.workspace.id, person = ws.editor) => {
  const done = await agentConnects(base, oauth, person, { approve: true, workspaceId, scopes });
  open.push(done.client);
  return done;
};

const rest = (token: string, url: string, init: RequestInit = {}) =>
  fetch(`${base}${url}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers as object) } });

describe('discovery', () => {
  it('answers a 401 on /api/mcp and /api/v1 that points at the protected-resource metadata, which names kb as its authorization server', async () => {
    const mcp = await fetch(mcpUrl(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get('www-authenticate')).toBe(`Bearer realm="kb", resource_metadata="${base}/.well-known/oauth-protected-resource/api/mcp"`);
    const v1 = await fetch(`${base}/api/v1/workspaces`);
    expect(v1.headers.get('www-authenticate')).toBe(`Bearer realm="kb", resource_metadata="${base}/.well-known/oauth-protected-resource/api/v1"`);

    const prm = await fetch(`${base}/.well-known/oauth-protected-resource/api/mcp`);
    expect(prm.status).toBe(200);
    expect(await prm.json()).toMatchObject({ resource: `${base}/api/mcp`, authorization_servers: [base], scopes_supported: ['read', 'write', 'admin'] });

    const metadata = await discoverAuthorizationServerMetadata(base);
    expect(metadata).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`,
      revocation_endpoint: `${base}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
      token_endpoint_auth_methods_supported: ['none'],
      client_id_metadata_document_supported: true,
    });
    const oidc = await fetch(`${base}/.well-known/openid-configuration`);
    expect((await oidc.json()).issuer).toBe(base);
  });
});

describe('an agent connecting by URL (dynamic registration)', () => {
  it('registers, gets the person’s consent for one workspace, and works with the token; the connection is listed and audited', async () => {
    const oauth = new MemoryOAuthClient();
    const { client, walk } = await connectWithConsent(oauth, ['read', 'write']);
    expect(walk.details).toMatchObject({
      client: { name: 'Test Agent', uri: 'https://agent.example/', registration: 'dynamic', redirectHost: '127.0.0.1:9' },
      scopes: ['read', 'write', 'admin'],
      workspaces: [{ id: ws.workspace.id, role: 'editor' }],
    });
    expect(oauth.saved).toMatchObject({ token_type: expect.stringMatching(/bearer/i), refresh_token: expect.any(String), scope: 'read write' });

    const listed = await client.callTool({ name: 'workspace_list', arguments: {} });
    expect((listed.structuredContent as { items: Array<{ id: string }> }).items.map((w) => w.id)).toEqual([ws.workspace.id]);
    const created = await client.callTool({
      name: 'page_create',
      arguments: { workspaceId: ws.workspace.id, spaceId, title: 'Written by an agent', markdown: 'Hello' },
    });
    expect(created.isError, JSON.stringify(created.content)).toBe(false);

    const connections = await t.request({ url: '/api/v1/oauth/connections', token: ws.editor.token });
    const mine = connections.body.data.find((c: { client: { id: string } }) => c.client.id === oauth.info?.client_id);
    expect(mine).toMatchObject({ client: { name: 'Test Agent', registration: 'dynamic' }, workspace: { id: ws.workspace.id }, scopes: ['read', 'write'] });
    const audit = await t.request({ url: `/api/v1/audit-log?workspaceId=${ws.workspace.id}&action=oauth.app_connected`, token: ws.admin.token });
    expect(audit.body.data[0]).toMatchObject({
      action: 'oauth.app_connected',
      actor: { id: ws.editor.id },
      details: { client: 'Test Agent', scopes: ['read', 'write'] },
    });
  });

  it('refreshes with a rotating refresh token; replaying the old one ends the connection', async () => {
    const oauth = new MemoryOAuthClient();
    await connectWithConsent(oauth, ['read']);
    const metadata = await discoverAuthorizationServerMetadata(base);
    const first = oauth.saved!;
    const refreshed = await refreshAuthorization(base, { metadata, clientInformation: oauth.info!, refreshToken: first.refresh_token!, resource: mcpUrl() });
    expect(refreshed.access_token).not.toBe(first.access_token);
    expect(refreshed.refresh_token).not.toBe(first.refresh_token);
    expect((await rest(refreshed.access_token, '/api/v1/workspaces')).status).toBe(200);

    await expect(
      refreshAuthorization(base, { metadata, clientInformation: oauth.info!, refreshToken: first.refresh_token!, resource: mcpUrl() }),
    ).rejects.toThrow(/invalid_grant|grant request is invalid/i);
    const after = await rest(refreshed.access_token, '/api/v1/workspaces');
    expect(after.status).toBe(401);
    const connections = await t.request({ url: '/api/v1/oauth/connections', token: ws.editor.token });
    expect(connections.body.data.map((c: { client: { id: string } }) => c.client.id)).not.toContain(oauth.info?.client_id);
  });

  it('stops a token at once when the app revokes it, and all of them when the person disconnects the app', async () => {
    const oauth = new MemoryOAuthClient();
    const { client } = await connectWithConsent(oauth, ['read', 'write']);
    const token = oauth.saved!.access_token;
    const revoke = await fetch(`${base}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, client_id: oauth.info!.client_id }),
    });
    expect(revoke.status).toBe(200);
    const refused = await rest(token, '/api/v1/workspaces');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    await client.close();

    const again = new MemoryOAuthClient();
    await connectWithConsent(again, ['read']);
    const id = (await t.request({ url: '/api/v1/oauth/connections', token: ws.editor.token })).body.data.find(
      (c: { client: { id: string } }) => c.client.id === again.info?.client_id,
    ).id;
    expect((await t.request({ method: 'DELETE', url: `/api/v1/oauth/connections/${id}`, token: ws.viewer.token })).status).toBe(404);
    const gone = await t.request({ method: 'DELETE', url: `/api/v1/oauth/connections/${id}`, token: ws.editor.token });
    expect(gone.body).toEqual({ data: { id, deleted: true } });
    expect((await rest(again.saved!.access_token, '/api/v1/workspaces')).status).toBe(401);
    const metadata = await discoverAuthorizationServerMetadata(base);
    await expect(refreshAuthorization(base, { metadata, clientInformation: again.info!, refreshToken: again.saved!.refresh_token! })).rejects.toThrow();
    const audit = await t.request({ url: `/api/v1/audit-log?workspaceId=${ws.workspace.id}&action=oauth.app_disconnected`, token: ws.admin.token });
    expect(audit.body.data[0]).toMatchObject({ target: { id }, details: { by: 'person' } });
  });
});

describe('connections end with what they stand on', () => {
  it('a person who leaves the workspace, or is removed, disconnects their apps there: tokens refused, refresh refused, audited', async () => {
    const member = await createUser(t, 'Temp');
    await addMember(t, ws.workspace.id, ws.admin, member, 'editor');
    const oauth = new MemoryOAuthClient();
    await connectWithConsent(oauth, ['read', 'write'], ws.workspace.id, member);
    const token = oauth.saved!.access_token;
    expect((await rest(token, '/api/v1/workspaces')).status).toBe(200);

    const removed = await t.request({ method: 'DELETE', url: `/api/v1/workspaces/${ws.workspace.id}/members/${member.id}`, token: ws.admin.token });
    expect(removed.status).toBe(200);
    expect((await rest(token, '/api/v1/workspaces')).status).toBe(401);
    const metadata = await discoverAuthorizationServerMetadata(base);
    await expect(refreshAuthorization(base, { metadata, clientInformation: oauth.info!, refreshToken: oauth.saved!.refresh_token! })).rejects.toThrow();
    expect((await t.request({ url: '/api/v1/oauth/connections', token: member.token })).body.data).toEqual([]);
    const audit = await t.request({ url: `/api/v1/audit-log?workspaceId=${ws.workspace.id}&action=oauth.app_disconnected`, token: ws.admin.token });
    expect(audit.body.data[0]).toMatchObject({ details: { by: 'membership_ended', clientId: oauth.info!.client_id } });

    // Re-added, they connect again from scratch: nothing of the old connection comes back.
    await addMember(t, ws.workspace.id, ws.admin, member, 'viewer');
    expect((await rest(token, '/api/v1/workspaces')).status).toBe(401);
  });

  it('an app that registered itself and is not connected is forgotten after a week; connected, it stays', async () => {
    const registered = async () => {
      const res = await fetch(`${base}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'Drive-by', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' }),
      });
      expect(res.status).toBe(201);
      return (await res.json()) as { client_id: string };
    };
    const authorize = (clientId: string) => {
      const url = new URL(`${base}/oauth/authorize`);
      const params = {
        client_id: clientId,
        response_type: 'code',
        redirect_uri: REDIRECT_URI,
        scope: 'read',
        code_challenge: 'x'.repeat(43),
        code_challenge_method: 'S256',
      };
      for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
      return fetch(url, { redirect: 'manual' });
    };
    const unused = await registered();
    const inAWeek = new Date(Date.now() + 7 * 86_400_000 + 60_000);
    expect((await authorize(unused.client_id)).status).toBe(303);

    const oauth = new MemoryOAuthClient();
    await connectWithConsent(oauth, ['read']);
    await deleteExpiredOAuthRecords(t.database.db, inAWeek);
    const gone = await authorize(unused.client_id);
    expect(gone.status).toBe(400);
    expect(await gone.json()).toMatchObject({ error: 'invalid_client' });
    // Its registration token went with it; the connected app is still there and its token works.
    const leftover = await t.database.db
      .selectFrom('oauthRecords')
      .select('id')
      .where('model', '=', 'RegistrationAccessToken')
      .where(sql<boolean>`payload->>'clientId' = ${unused.client_id}`)
      .execute();
    expect(leftover).toEqual([]);
    expect((await authorize(oauth.info!.client_id)).status).toBe(303);
    expect((await rest(oauth.saved!.access_token, '/api/v1/workspaces')).status).toBe(200);

    // Disconnected, its week starts again.
    const id = (await t.request({ url: '/api/v1/oauth/connections', token: ws.editor.token })).body.data.find(
      (c: { client: { id: string } }) => c.client.id === oauth.info?.client_id,
    ).id;
    await t.request({ method: 'DELETE', url: `/api/v1/oauth/connections/${id}`, token: ws.editor.token });
    await deleteExpiredOAuthRecords(t.database.db, inAWeek);
    expect((await authorize(oauth.info!.client_id)).status).toBe(400);
  });
});

describe('scopes hold', () => {
  it('a read token is refused every write over REST and MCP', async () => {
    const oauth = new MemoryOAuthClient();
    const { client } = await connectWithConsent(oauth, ['read']);
    const token = oauth.saved!.access_token;
    expect((await rest(token, `/api/v1/spaces?workspaceId=${ws.workspace.id}`)).status).toBe(200);
    const write = await rest(token, '/api/v1/pages', { method: 'POST', body: JSON.stringify({ workspaceId: ws.workspace.id, spaceId, title: 'No' }) });
    expect(write.status).toBe(403);
    const tool = await client.callTool({ name: 'page_create', arguments: { workspaceId: ws.workspace.id, spaceId, title: 'No' } });
    expect(tool.isError).toBe(true);
    expect(JSON.stringify(tool.content)).toMatch(/read-only/i);
  });

  it('a token for one workspace sees nothing of another; without admin an admin acts as an editor', async () => {
    const other = await createWorkspace(t, ws.admin, 'Elsewhere');
    const oauth = new MemoryOAuthClient();
    await connectWithConsent(oauth, ['read', 'write'], ws.workspace.id, ws.admin);
    const token = oauth.saved!.access_token;
    const list = await (await rest(token, '/api/v1/workspaces')).json();
    expect(list.data.map((w: { id: string }) => w.id)).toEqual([ws.workspace.id]);
    // Outside its workspace the token is exactly someone who is not a member.
    expect((await rest(token, `/api/v1/spaces?workspaceId=${other.id}`)).status).toBe(403);
    const promote = (bearer: string) =>
      rest(bearer, `/api/v1/workspaces/${ws.workspace.id}/members/${ws.viewer.id}`, { method: 'PUT', body: JSON.stringify({ role: 'viewer' }) });
    const refused = await promote(token);
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.message).toMatch(/editor.*admin is needed/);
    const withAdmin = new MemoryOAuthClient();
    await connectWithConsent(withAdmin, ['read', 'write', 'admin'], ws.workspace.id, ws.admin);
    expect((await promote(withAdmin.saved!.access_token)).status).toBe(200);
  });
});

describe('hostile input', () => {
  /** An authorization URL for a registered client, with `params` changed. */
  async function authorizeUrl(params: Record<string, string | null>) {
    const oauth = new MemoryOAuthClient();
    const first = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: oauth });
    await new Client({ name: 'agent', version: '1.0.0' }).connect(first).catch(() => undefined);
    const url = new URL(oauth.authorizationUrl as URL);
    for (const [k, v] of Object.entries(params)) v === null ? url.searchParams.delete(k) : url.searchParams.set(k, v);
    return { url, oauth };
  }

  it('refuses a forged redirect_uri without sending the browser there', async () => {
    const { url } = await authorizeUrl({ redirect_uri: 'https://evil.example/cb' });
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.json()).toMatchObject({ error: 'invalid_redirect_uri' });
  });

  it('refuses an authorization without PKCE, and a token for another resource', async () => {
    const noPkce = await fetch((await authorizeUrl({ code_challenge: null, code_challenge_method: null })).url, { redirect: 'manual' });
    const back = new URL(noPkce.headers.get('location') ?? '');
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('code')).toBeNull();
    const elsewhere = await fetch((await authorizeUrl({ resource: 'https://evil.example/' })).url, { redirect: 'manual' });
    expect(new URL(elsewhere.headers.get('location') ?? '').searchParams.get('error')).toBe('invalid_target');
  });

  it('refuses a wrong PKCE verifier and a code used twice', async () => {
    const { url, oauth } = await authorizeUrl({});
    const walk = await consentInBrowser(base, url, ws.editor, { approve: true, workspaceId: ws.workspace.id, scopes: ['read'] });
    const code = walk.landed.searchParams.get('code') as string;
    const exchange = (verifier: string) =>
      fetch(`${base}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          code_verifier: verifier,
          redirect_uri: oauth.redirectUrl,
          client_id: oauth.info!.client_id,
        }),
      });
    const wrong = await exchange('x'.repeat(43));
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error).toBe('invalid_grant');
  });

  it('a code is good once: its second use is refused', async () => {
    const { url, oauth } = await authorizeUrl({});
    const walk = await consentInBrowser(base, url, ws.editor, { approve: true, workspaceId: ws.workspace.id, scopes: ['read'] });
    const body = new URLSearchParams({
      grant_type: 'authorization_code',
      code: walk.landed.searchParams.get('code') as string,
      code_verifier: oauth.verifier,
      redirect_uri: oauth.redirectUrl,
      client_id: oauth.info!.client_id,
    });
    const post = () => fetch(`${base}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    const first = await post();
    expect(first.status, await first.clone().text()).toBe(200);
    const token = (await first.json()).access_token as string;
    const second = await post();
    expect(second.status).toBe(400);
    expect((await second.json()).error).toBe('invalid_grant');
    // A replayed code also ends what the first use gave.
    expect((await rest(token, '/api/v1/workspaces')).status).toBe(401);
  });

  it('a consent link opened in another browser, or answered with an API key, is refused', async () => {
    const { url } = await authorizeUrl({});
    const opened = await fetch(url, { redirect: 'manual' });
    const consent = new URL(opened.headers.get('location') ?? '', base);
    const stranger = await t.request({ url: `${consent.pathname}/details`, token: ws.editor.token });
    expect(stranger.status).toBe(403);
    expect(stranger.body.error.details.reason).toBe('interaction_not_found');
  });

  it('declining sends the browser back with access_denied (and a decision clears expired records)', async () => {
    const db = t.database.db;
    await db
      .insertInto('oauthRecords')
      .values({ model: 'AuthorizationCode', id: 'stale', payload: '{}', expiresAt: new Date(Date.now() - 1000) })
      .execute();
    const { url } = await authorizeUrl({});
    const walk = await consentInBrowser(base, url, ws.editor, { approve: false });
    expect(walk.landed.searchParams.get('error')).toBe('access_denied');
    expect(await db.selectFrom('oauthRecords').select('id').where('id', '=', 'stale').execute()).toEqual([]);
  });

  it('refuses a consent answer larger than a record', async () => {
    const { url } = await authorizeUrl({});
    const opened = await fetch(url, { redirect: 'manual' });
    const consent = new URL(opened.headers.get('location') ?? '', base);
    const huge = await t.request({
      method: 'POST',
      url: `${consent.pathname}/decision`,
      token: ws.editor.token,
      body: { approve: true, workspaceId: ws.workspace.id, scopes: ['read'], padding: 'x'.repeat(200_000) },
    });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBeDefined();
  });

  it('refuses a client metadata document on a private address', async () => {
    const { url } = await authorizeUrl({ client_id: 'https://127.0.0.1:1/client.json' });
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_client' });
  });
});

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import type { workspaceWithRoles } from '../helpers/factories.js';
import { listeningHandbook } from '../helpers/mcp.js';
import { agentConnects, MemoryOAuthClient, REDIRECT_URI } from '../helpers/oauth.js';

/**
 * An app that names itself by a client metadata document (the MCP way: its client_id is the https URL of a JSON
 * document), served here over TLS with a throw-away certificate on loopback, which this app may reach because it
 * was started with OAUTH_CLIENT_ALLOW_PRIVATE_NETWORK (test/oauth/mcp-oauth.test.ts shows the default refusing it).
 */

let t: TestApp;
let base: string;
let ws: Awaited<ReturnType<typeof workspaceWithRoles>>;
let documents: Server;
let documentUrl: string;
let served: Record<string, unknown>;
let fetches = 0;
const dir = mkdtempSync(path.join(tmpdir(), 'kb-cimd-'));
const tlsCheck = process.env.NODE_TLS_REJECT_UNAUTHORIZED;

beforeAll(async () => {
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', '/CN=127.0.0.1', '-days', '1'].concat([
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
    ]),
    { stdio: 'ignore' },
  );
  documents = createServer({ key: readFileSync(path.join(dir, 'key.pem')), cert: readFileSync(path.join(dir, 'cert.pem')) }, (req, res) => {
    fetches++;
    if (req.url?.split('?')[0] !== '/agents/test-agent.json') return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=60' }).end(JSON.stringify(served));
  });
  await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
  documentUrl = `https://127.0.0.1:${(documents.address() as AddressInfo).port}/agents/test-agent.json`;
  served = {
    client_id: documentUrl,
    client_name: 'Document Agent',
    client_uri: 'https://agent.example/',
    redirect_uris: [REDIRECT_URI],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    application_type: 'native',
  };
  // The certificate is self-signed: this test process (only) trusts any, for the provider's fetch of the document.
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
  ({ t, base, ws } = await listeningHandbook({ OAUTH_CLIENT_ALLOW_PRIVATE_NETWORK: true }));
});
afterAll(async () => {
  if (tlsCheck === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  else process.env.NODE_TLS_REJECT_UNAUTHORIZED = tlsCheck;
  await t?.close();
  documents?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('an agent named by its client metadata document', () => {
  it('connects without registering: the consent screen names the document’s app, and the connection says how it was known', async () => {
    const oauth = new MemoryOAuthClient(documentUrl);
    const { client, walk } = await agentConnects(base, oauth, ws.editor, { approve: true, workspaceId: ws.workspace.id, scopes: ['read'] });
    expect(walk.details.client).toMatchObject({ id: documentUrl, name: 'Document Agent', registration: 'metadata_document' });
    expect(fetches).toBeGreaterThan(0);
    expect(await t.database.db.selectFrom('oauthRecords').select('id').where('model', '=', 'Client').execute()).toEqual([]);
    const listed = await client.callTool({ name: 'workspace_list', arguments: {} });
    expect(listed.isError).toBe(false);
    await client.close();
    const connections = await t.request({ url: '/api/v1/oauth/connections', token: ws.editor.token });
    expect(connections.body.data[0]).toMatchObject({
      client: { id: documentUrl, name: 'Document Agent', registration: 'metadata_document' },
      scopes: ['read'],
    });
  });

  it('refuses a document whose client_id is not its own URL, or that asks for a client secret', async () => {
    for (const bad of [{ client_id: 'https://elsewhere.example/agent.json' }, { token_endpoint_auth_method: 'client_secret_post' }]) {
      // A new URL each time (the provider caches a document it accepted); the document names it, unless it is the bad part.
      const clientId = `${documentUrl}?v=${fetches}`;
      served = { ...served, client_id: clientId, token_endpoint_auth_method: 'none', ...bad };
      const url = new URL(`${base}/oauth/authorize`);
      url.search = new URLSearchParams({
        client_id: clientId,
        redirect_uri: REDIRECT_URI,
        response_type: 'code',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
        scope: 'read',
      }).toString();
      const res = await fetch(url, { redirect: 'manual' });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatch(/invalid_client/);
    }
  });
});

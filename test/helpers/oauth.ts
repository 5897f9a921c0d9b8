import * as v2 from '@modelcontextprotocol/client';
import { type OAuthClientProvider, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'vitest';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { TestUser } from './factories.js';

export const REDIRECT_URI = 'http://127.0.0.1:9/callback';

/**
 * What a hosted AI client keeps for one server, in memory: the SDK's OAuth client provider. `clientMetadataUrl` makes
 * it name itself by a client metadata document (an https URL) instead of registering; the authorization URL the SDK
 * would open in a browser is kept in `authorizationUrl` for the test to walk.
 */
export class MemoryOAuthClient implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  constructor(
    readonly clientMetadataUrl?: string,
    readonly scope?: string,
  ) {}
  get redirectUrl() {
    return REDIRECT_URI;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Test Agent',
      client_uri: 'https://agent.example/',
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(this.scope ? { scope: this.scope } : {}),
    };
  }
  state() {
    return 'state-1';
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
  /** Where the SDK v2 found the authorization server, kept beside the verifier (it checks the callback against it). */
  discovered: unknown;
  saveDiscoveryState(state: unknown) {
    this.discovered = state;
  }
  discoveryState() {
    return this.discovered as never;
  }
}

/** A browser: cookies per host (paths ignored), redirects not followed. */
export class Browser {
  private readonly jar = new Map<string, Map<string, string>>();
  async fetch(url: string | URL, init: RequestInit = {}) {
    const target = new URL(url);
    const cookie = [...(this.jar.get(target.host) ?? [])].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(target, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) } });
    const jar = this.jar.get(target.host) ?? new Map<string, string>();
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      const value = pair.slice(eq + 1).trim();
      if (value && !/max-age=0|expires=Thu, 01 Jan 1970/i.test(line)) jar.set(pair.slice(0, eq).trim(), value);
      else jar.delete(pair.slice(0, eq).trim());
    }
    this.jar.set(target.host, jar);
    return res;
  }
  /** Signs `user` in to the web app at `base` (the session cookie); answers the CSRF token writes need. */
  async signIn(base: string, user: TestUser): Promise<string> {
    const res = await this.fetch(`${base}/api/v1/auth/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ email: user.email, password: 'correct-horse' }),
    });
    if (res.status !== 200) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { data: { csrfToken: string } }).data.csrfToken;
  }
}

export type Decision = { approve: true; workspaceId: string; scopes: string[] } | { approve: false };

/**
 * What a person does in the browser between the app's authorization URL and the app's redirect URI: opens the URL
 * (the server sends them to the consent screen), signs in, reads what the app asks, decides, and follows the
 * answer back to the app. Answers the consent screen's details and the URL the browser ends at.
 */
export async function consentInBrowser(base: string, authorizationUrl: URL, user: TestUser, decision: Decision, browser = new Browser()) {
  const opened = await browser.fetch(authorizationUrl);
  const consent = new URL(opened.headers.get('location') ?? '', base);
  if (!consent.pathname.startsWith('/oauth/consent/')) throw new Error(`authorization answered ${opened.status} ${await opened.text()}`);
  const csrf = await browser.signIn(base, user);
  const detailsRes = await browser.fetch(`${consent.href}/details`);
  const details = detailsRes.status === 200 ? ((await detailsRes.json()) as { data: any }).data : null;
  const decided = await browser.fetch(`${consent.href}/decision`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrf, origin: base },
    body: JSON.stringify(decision),
  });
  const answer = (await decided.json()) as { data: { redirectTo: string } };
  if (decided.status !== 200) throw new Error(`decision answered ${decided.status}: ${JSON.stringify(answer)}`);
  let url = new URL(answer.data.redirectTo, base);
  for (let hop = 0; hop < 5 && url.origin === base; hop++) {
    const res = await browser.fetch(url);
    url = new URL(res.headers.get('location') ?? '', url);
  }
  return { details, detailsStatus: detailsRes.status, landed: url, consentUrl: consent };
}

/** The official SDK's client and transport: 1.x (the 2025 protocol), or v2 negotiating 2026-07-28. */
export type Sdk = 'v1' | 'v2';

function sdkParts(sdk: Sdk, url: URL, oauth: MemoryOAuthClient) {
  if (sdk === 'v1')
    return { client: new Client({ name: 'agent', version: '1.0.0' }), transport: new StreamableHTTPClientTransport(url, { authProvider: oauth }) };
  const client = new v2.Client({ name: 'agent', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  const transport = new v2.StreamableHTTPClientTransport(url, { authProvider: oauth as unknown as v2.OAuthClientProvider });
  // The two SDKs' clients answer the calls tests make alike; typed as 1.x's for them.
  return { client: client as unknown as Client, transport: transport as unknown as StreamableHTTPClientTransport };
}

/**
 * From nothing but the server URL to a connected MCP client, as a hosted AI client does it: the SDK discovers the
 * authorization server and registers (or names its metadata document), the person consents in the browser, the SDK
 * exchanges the code; then a new connection carries the token.
 */
export async function agentConnects(base: string, oauth: MemoryOAuthClient, person: TestUser, decision: Decision, sdk: Sdk = 'v1') {
  const url = new URL(`${base}/api/mcp`);
  const first = sdkParts(sdk, url, oauth);
  const refused = await first.client.connect(first.transport).then(
    () => null,
    (err: unknown) => err,
  );
  expect(refused instanceof UnauthorizedError || refused instanceof v2.UnauthorizedError, String(refused)).toBe(true);
  expect(oauth.authorizationUrl).toBeDefined();
  const walk = await consentInBrowser(base, oauth.authorizationUrl as URL, person, decision);
  const code = walk.landed.searchParams.get('code');
  expect(code, walk.landed.href).toBeTruthy();
  expect(walk.landed.searchParams.get('state')).toBe('state-1');
  // The issuer comes back with the code (RFC 9207); the v2 client checks it against the server's.
  await (first.transport.finishAuth as (code: string, iss?: string) => Promise<void>)(code as string, walk.landed.searchParams.get('iss') ?? undefined);
  const next = sdkParts(sdk, url, oauth);
  await next.client.connect(next.transport);
  return { client: next.client, walk };
}

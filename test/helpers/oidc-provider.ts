import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** A person at the test provider. */
export interface TestAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
}

export interface TestProvider {
  /** `http://127.0.0.1:<port>`: the issuer identifier and the provider's address. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The people the provider knows, by `sub`; tests add to it. */
  accounts: Map<string, TestAccount>;
  /** Who the next login interaction signs in (a `sub` of `accounts`). */
  signInAs: string;
  /** Lifetime of the authorization codes it issues, in seconds. */
  codeTtlS: number;
  provider: Provider;
  close(): Promise<void>;
}

export interface TestProviderOptions {
  /** Our callback, registered as the client's only redirect URI. */
  redirectUri: string;
  /** Put email and name in the ID token (true), or only in userinfo, as the spec's default (false). */
  claimsInIdToken?: boolean;
  /** A fixed port (default: any free one). */
  port?: number;
}

/**
 * A real OpenID provider (`oidc-provider`, a certified OP) on 127.0.0.1, for single sign-on tests. It has one
 * confidential client that must use PKCE, and no login pages: its interaction route signs in `signInAs` and grants the
 * requested scopes at once, so a test can walk the whole flow with plain HTTP requests (see `BrowserJar`).
 */
export async function startTestProvider(options: TestProviderOptions): Promise<TestProvider> {
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  const server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const state: Pick<TestProvider, 'accounts' | 'signInAs' | 'codeTtlS'> = { accounts: new Map(), signInAs: '', codeTtlS: 60 };
  const clientId = 'kb-test';
  const clientSecret = 'kb-test-secret-kb-test-secret-kb-test-secret';
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    conformIdTokenClaims: !options.claimsInIdToken,
    cookies: { keys: ['kb-test-provider-cookie-key'] },
    jwks: { keys: [generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' })] },
    ttl: { AuthorizationCode: () => state.codeTtlS, AccessToken: 600, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
    async findAccount(_ctx, sub) {
      const account = state.accounts.get(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: async () => ({ ...account }) };
    },
  });

  handle = (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      interact(provider, state, req, res).catch((err) => {
        res.statusCode = 500;
        res.end(String(err));
      });
      return;
    }
    provider.callback()(req, res);
  };

  return Object.assign(state, {
    issuer,
    clientId,
    clientSecret,
    provider,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** The provider's login and consent prompts, answered without a page: sign in `signInAs`, grant what the client asked. */
async function interact(provider: Provider, state: Pick<TestProvider, 'signInAs'>, req: IncomingMessage, res: ServerResponse) {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === 'login') {
    await provider.interactionFinished(req, res, { login: { accountId: state.signInAs } }, { mergeWithLastSubmission: false });
    return;
  }
  const grant = new provider.Grant({ accountId: details.session?.accountId, clientId: String(details.params.client_id) });
  grant.addOIDCScope(String(details.params.scope));
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

/**
 * A browser's cookie jar and redirect following, reduced to what a sign-in needs: follows redirects (sending back the
 * cookies each host set) until one leaves for `stopAt`, and answers that address without requesting it.
 */
export class BrowserJar {
  private readonly cookies = new Map<string, Map<string, string>>();

  async followUntil(start: string, stopAt: string, maxHops = 10): Promise<URL> {
    let url = new URL(start);
    for (let hop = 0; hop < maxHops; hop++) {
      if (url.href.startsWith(stopAt)) return url;
      const res = await fetch(url, { redirect: 'manual', headers: { cookie: this.cookieHeader(url.host) } });
      this.remember(url.host, res.headers.getSetCookie());
      const location = res.headers.get('location');
      if (!location || res.status < 300 || res.status >= 400) throw new Error(`${url.href} answered ${res.status} without a redirect: ${await res.text()}`);
      url = new URL(location, url);
    }
    throw new Error(`more than ${maxHops} redirects from ${start}`);
  }

  private cookieHeader(host: string): string {
    return [...(this.cookies.get(host) ?? new Map()).entries()].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private remember(host: string, setCookies: string[]) {
    const jar = this.cookies.get(host) ?? new Map<string, string>();
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || !value) jar.delete(name);
      else jar.set(name, value);
    }
    this.cookies.set(host, jar);
  }
}

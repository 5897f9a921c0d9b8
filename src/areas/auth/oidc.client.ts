import * as oidc from 'openid-client';
import { type Config, publicUrlOf } from '../../config.js';
import { AppError } from '../../errors.js';

/** The OpenID provider's settings, or null when single sign-on is off (no issuer or client id). */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
  displayName: string;
}

export function oidcSettingsOf(config: Config): OidcSettings | null {
  if (!config.OIDC_ISSUER || !config.OIDC_CLIENT_ID) return null;
  return { issuer: config.OIDC_ISSUER, clientId: config.OIDC_CLIENT_ID, clientSecret: config.OIDC_CLIENT_SECRET, displayName: config.OIDC_DISPLAY_NAME };
}

/** Where the provider sends people back: one fixed address, registered at the provider. */
export function redirectUriOf(config: Config): string {
  return `${publicUrlOf(config)}/api/v1/auth/oidc/callback`;
}

/** What the app asks of the provider: who the person is, their email and their name. */
const SCOPE = 'openid email profile';
const DISCOVERY_TIMEOUT_S = 10;

/**
 * A provider on this machine (a test's, or a developer's Keycloak) may speak plain HTTP; any other host must use HTTPS,
 * so tokens and codes never cross a network in the clear.
 */
export function isLoopbackIssuer(issuer: URL): boolean {
  return issuer.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(issuer.hostname);
}

/**
 * The provider's discovered configuration, per process: discovery costs a round trip, so it is done once and kept.
 * A failed discovery is forgotten at once, so the next sign-in tries again.
 */
const discovered = new Map<string, Promise<oidc.Configuration>>();

export function providerConfiguration(settings: OidcSettings): Promise<oidc.Configuration> {
  const key = JSON.stringify([settings.issuer, settings.clientId, settings.clientSecret ?? null]);
  let configuration = discovered.get(key);
  if (!configuration) {
    configuration = discover(settings);
    discovered.set(key, configuration);
    configuration.catch(() => discovered.delete(key));
  }
  return configuration;
}

async function discover(settings: OidcSettings): Promise<oidc.Configuration> {
  const issuer = new URL(settings.issuer);
  const insecure = isLoopbackIssuer(issuer);
  if (issuer.protocol !== 'https:' && !insecure)
    throw new AppError('SERVICE_UNAVAILABLE', 'Single sign-on is misconfigured: OIDC_ISSUER must be an https URL', { reason: 'issuer_not_https' });
  const execute = insecure ? [oidc.allowInsecureRequests] : [];
  try {
    const found = await oidc.discovery(issuer, settings.clientId, undefined, oidc.None(), { execute, timeout: DISCOVERY_TIMEOUT_S });
    const metadata = found.serverMetadata();
    const configuration = new oidc.Configuration(metadata, settings.clientId, settings.clientSecret, clientAuthentication(settings, metadata));
    for (const run of execute) run(configuration);
    configuration.timeout = DISCOVERY_TIMEOUT_S;
    return configuration;
  } catch (err) {
    // The provider's own error stays in the server log (the caller logs `cause`): this answer is public.
    const unavailable = new AppError('SERVICE_UNAVAILABLE', `The sign-in provider could not be reached at ${settings.issuer}; try again shortly`, {
      reason: 'provider_unavailable',
    });
    unavailable.cause = err;
    throw unavailable;
  }
}

/**
 * A confidential client authenticates with `client_secret_basic` (OAuth's default, which every provider takes) unless the
 * provider lists only `client_secret_post`; without a secret it is a public client relying on PKCE alone.
 */
function clientAuthentication(settings: OidcSettings, metadata: oidc.ServerMetadata): oidc.ClientAuth {
  if (!settings.clientSecret) return oidc.None();
  const supported = metadata.token_endpoint_auth_methods_supported;
  if (supported && !supported.includes('client_secret_basic') && supported.includes('client_secret_post')) return oidc.ClientSecretPost(settings.clientSecret);
  return oidc.ClientSecretBasic(settings.clientSecret);
}

/** The secrets of one sign-in attempt, kept by the browser (sealed) between the start and the callback. */
export interface SignInChecks {
  verifier: string;
  state: string;
  nonce: string;
}

export function newSignInChecks(): SignInChecks {
  return { verifier: oidc.randomPKCECodeVerifier(), state: oidc.randomState(), nonce: oidc.randomNonce() };
}

/** The provider's authorization address for one attempt: code flow, PKCE S256, state and nonce. */
export async function authorizationUrl(configuration: oidc.Configuration, redirectUri: string, checks: SignInChecks): Promise<URL> {
  return oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUri,
    scope: SCOPE,
    code_challenge: await oidc.calculatePKCECodeChallenge(checks.verifier),
    code_challenge_method: 'S256',
    state: checks.state,
    nonce: checks.nonce,
  });
}

/** Who the provider says signed in. */
export interface ProviderClaims {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean | null;
  name: string | null;
}

/** Why a callback is refused: the `sso_error` the web app explains. */
export class SignInRefused extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'SignInRefused';
  }
}

/**
 * Trades the callback's code for tokens (checking state, PKCE and the ID token's nonce, issuer, audience and signature),
 * then reads the claims: from the ID token, or from the userinfo endpoint when the ID token carries no email (several
 * providers keep profile claims out of ID tokens).
 */
export async function redeemCallback(configuration: oidc.Configuration, callbackUrl: URL, checks: SignInChecks): Promise<ProviderClaims> {
  let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
  try {
    tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
      pkceCodeVerifier: checks.verifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
  } catch (err) {
    throw refusalOf(err);
  }
  const idToken = tokens.claims();
  if (!idToken) throw new SignInRefused('sso_failed', 'The provider answered no ID token');
  let claims: Record<string, unknown> = idToken;
  if (typeof idToken.email !== 'string') {
    try {
      claims = { ...(await oidc.fetchUserInfo(configuration, tokens.access_token, idToken.sub)), ...idToken };
    } catch (err) {
      throw refusalOf(err);
    }
  }
  return {
    issuer: idToken.iss,
    subject: idToken.sub,
    email: typeof claims.email === 'string' && claims.email.includes('@') ? claims.email.trim() : null,
    emailVerified: typeof claims.email_verified === 'boolean' ? claims.email_verified : null,
    name: typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim() : null,
  };
}

/** Maps what openid-client throws to a reason a person (and a test) can act on. */
function refusalOf(err: unknown): SignInRefused {
  if (err instanceof oidc.AuthorizationResponseError)
    return new SignInRefused('provider_error', `The provider refused the sign-in: ${err.error}${err.error_description ? ` (${err.error_description})` : ''}`);
  if (err instanceof oidc.ResponseBodyError) {
    if (err.error === 'invalid_grant') return new SignInRefused('code_rejected', 'The sign-in code was expired or already used: sign in again');
    return new SignInRefused('provider_error', `The provider refused the code exchange: ${err.error}`);
  }
  const e = err as { code?: string; message?: string };
  const causes = causeChain(err);
  if (e?.code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' && causes.some((c) => c.claim === 'nonce'))
    return new SignInRefused('nonce_mismatch', 'The ID token was not made for this sign-in (nonce mismatch)');
  if (e?.code === 'OAUTH_INVALID_RESPONSE' && causes.some((c) => /"state"/.test(c.message ?? '')))
    return new SignInRefused('state_mismatch', 'The sign-in answer does not belong to this browser (state mismatch)');
  return new SignInRefused('sso_failed', `Single sign-on failed: ${e?.message ?? String(err)}`);
}

/** An error and its causes (openid-client wraps oauth4webapi's errors, which carry the details in `cause`). */
function causeChain(err: unknown): Array<{ message?: string; claim?: string }> {
  const chain: Array<{ message?: string; claim?: string }> = [];
  for (let e = err as { message?: string; claim?: string; cause?: unknown } | undefined; e && chain.length < 5; e = e.cause as typeof e) chain.push(e);
  return chain;
}

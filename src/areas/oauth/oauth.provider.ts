import { createECDH } from 'node:crypto';
import Provider, { type Configuration, errors, type KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../../config.js';
import type { Db } from '../../db/index.js';
import type { TokenIssuer } from '../auth/tokens.js';
import { resolvePermitted } from '../research/research.outbound.js';
import { usersRepo } from '../users/users.repo.js';
import { type OAuthRevocationListener, oauthAdapter } from './oauth.adapter.js';
import { consentPath, OAUTH_ROUTES } from './oauth.paths.js';
import { OAUTH_SCOPES, protectedResources } from './oauth.scopes.js';

/**
 * kb's OAuth 2.1 authorization server: oidc-provider (a certified implementation) configured for what MCP clients
 * do: authorization code with PKCE (S256) only, public clients only (no client secrets to keep), clients that name
 * themselves by a client metadata document (an https client_id) or register dynamically, scopes `read` / `write` /
 * `admin` on kb's API as the one protected resource (RFC 8707 indicators), opaque access tokens kb looks up itself
 * (so a revocation holds at once), rotating refresh tokens. The person signs in and consents in the web app
 * (`/oauth/consent/<uid>`), where they also pick the one workspace the app may reach.
 */
export interface OAuthServerOptions {
  issuer: string;
  db: Db;
  config: Config;
  tokens: TokenIssuer;
  listener: OAuthRevocationListener;
}

/** An EC P-256 signing key derived from the JWT secret (ID tokens are not offered; oidc-provider still wants one), so instances agree without a stored key. */
function signingKey(tokens: TokenIssuer) {
  const d = tokens.deriveKey('kb oauth signing v1');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(d);
  const pub = ecdh.getPublicKey();
  return {
    kty: 'EC',
    crv: 'P-256',
    d: d.toString('base64url'),
    x: pub.subarray(1, 33).toString('base64url'),
    y: pub.subarray(33, 65).toString('base64url'),
    use: 'sig',
    alg: 'ES256',
  };
}

export function createOAuthProvider({ issuer, db, config, tokens, listener }: OAuthServerOptions): Provider {
  const resources = protectedResources(issuer);
  const configuration: Configuration = {
    adapter: oauthAdapter(db, listener),
    async findAccount(_ctx, sub) {
      const user = await usersRepo.findById(db, sub);
      return user ? { accountId: sub, claims: async () => ({ sub }) } : undefined;
    },
    clientAuthMethods: ['none'],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'ES256',
    },
    responseTypes: ['code'],
    cookies: { keys: [tokens.deriveKey('kb oauth cookies v1').toString('base64url')] },
    jwks: { keys: [signingKey(tokens)] },
    scopes: ['openid', ...OAUTH_SCOPES],
    claims: { openid: ['sub'] },
    pkce: { required: () => true },
    routes: OAUTH_ROUTES,
    interactions: { url: (_ctx, interaction) => consentPath(interaction.uid) },
    // Every authorization is asked for in the web app (the person picks the workspace each time): the only grant that
    // counts is the one this interaction's consent just made, never an earlier one of the same browser session.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    ttl: {
      AccessToken: config.OAUTH_ACCESS_TOKEN_TTL_S,
      AuthorizationCode: 60,
      RefreshToken: config.OAUTH_REFRESH_TOKEN_TTL_S,
      Grant: 365 * 86_400,
      Interaction: 1800,
      Session: 3600,
    },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      // An app revokes only its own tokens (anything else is ignored, as RFC 7009 lets a server do).
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      registration: { enabled: config.OAUTH_DYNAMIC_REGISTRATION, initialAccessToken: false },
      clientIdMetadataDocument: {
        enabled: true,
        ack: 'draft-02',
        // The name must resolve to addresses kb may reach (public ones, unless OAUTH_CLIENT_ALLOW_PRIVATE_NETWORK);
        // oidc-provider then connects only to addresses that are not special-use, so a rebinding answer fails too.
        async allowFetch(_ctx: KoaContextWithOIDC, clientId: string) {
          try {
            await resolvePermitted(new URL(clientId).hostname, { allowPrivate: config.OAUTH_CLIENT_ALLOW_PRIVATE_NETWORK, networks: [] });
            return true;
          } catch {
            return false;
          }
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resources.default,
        useGrantedResource: () => true,
        async getResourceServerInfo(_ctx, indicator) {
          if (!resources.accepts(indicator)) throw new errors.InvalidTarget();
          return { scope: OAUTH_SCOPES.join(' '), audience: indicator, accessTokenFormat: 'opaque', accessTokenTTL: config.OAUTH_ACCESS_TOKEN_TTL_S };
        },
      },
    },
    // Private addresses are allowed to the client-document fetch only when the deployment says so (tests, trusted networks).
    fetch: (url, options) => {
      const init = options as RequestInit & { dispatcher?: unknown };
      if (config.OAUTH_CLIENT_ALLOW_PRIVATE_NETWORK) delete init.dispatcher;
      return globalThis.fetch(url, init);
    },
    renderError: async (ctx, out) => {
      ctx.type = 'application/json';
      ctx.body = out;
    },
  } as Configuration;
  const provider = new Provider(issuer, configuration);
  provider.proxy = config.TRUST_PROXY;
  return provider;
}

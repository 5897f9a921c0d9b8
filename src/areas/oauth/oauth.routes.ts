import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type Provider from 'oidc-provider';
import { publicUrlOf } from '../../config.js';
import { forbidden } from '../../errors.js';
import { ctxOf, type HttpDeps } from '../../http/request-context.js';
import { type AreaRoutes, BEARER, typed } from '../../http/routes.js';
import { Deleted, ErrorBody } from '../../schema.js';
import { OAUTH_ROUTES } from './oauth.paths.js';
import { ConsentDecision, ConsentDecisionBody, ConsentDetails, ConsentParams, OAuthConnectionList, OAuthConnectionParams } from './oauth.schema.js';
import { OAUTH_SCOPES, RESOURCE_PATHS } from './oauth.scopes.js';
import { consentDetails, decideConsent, disconnectApp, listConnections } from './oauth.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where people and apps reach this service (PUBLIC_URL, else the address it listens on): the OAuth issuer. */
    publicBase(): string;
  }
}

/** The provider's endpoints kb serves (the ones its configuration turns on), with their methods. */
const PROVIDER_ENDPOINTS: Array<[HTTPMethods[], string]> = [
  [['GET', 'POST'], OAUTH_ROUTES.authorization],
  [['GET', 'POST'], `${OAUTH_ROUTES.authorization}/:uid`],
  [['POST'], OAUTH_ROUTES.token],
  [['POST'], OAUTH_ROUTES.registration],
  [['POST'], OAUTH_ROUTES.revocation],
  [['GET'], OAUTH_ROUTES.jwks],
];

/** The authorization server's metadata, under both names clients look for (RFC 8414 and OpenID Connect discovery). */
const DISCOVERY = ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'];

/**
 * kb as an OAuth 2.1 authorization server (oauth.provider.ts) and protected resource: the provider's endpoints,
 * discovery, the protected-resource metadata (RFC 9728) for each API path, and the web app's consent calls.
 */
export function registerOAuth(app: FastifyInstance, deps: HttpDeps) {
  app.decorate('publicBase', () => {
    if (deps.env.config.PUBLIC_URL) return publicUrlOf(deps.env.config);
    const address = app.server.address() as AddressInfo | null;
    return address && typeof address === 'object'
      ? `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`
      : publicUrlOf(deps.env.config);
  });
  // oidc-provider is loaded on the first OAuth request, not at start: most requests never need it.
  let provider: Promise<Provider> | undefined;
  const providerOf = () => {
    provider ??= import('./oauth.provider.js').then(({ createOAuthProvider }) =>
      createOAuthProvider({
        issuer: app.publicBase(),
        db: deps.database.db,
        config: deps.env.config,
        tokens: deps.env.tokens,
        listener: deps.authenticator.appTokens,
      }),
    );
    return provider;
  };
  /** Hands the request to oidc-provider as it came (its body unread). */
  const toProvider = async (req: FastifyRequest, reply: FastifyReply, url = req.raw.url) => {
    reply.hijack();
    req.raw.url = url;
    (await providerOf()).callback()(req.raw, reply.raw);
  };

  app.register(async (scope) => {
    // oidc-provider reads its own bodies (form posts, registration JSON): nothing here may consume them first.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
    const config = { public: true };
    for (const [method, url] of PROVIDER_ENDPOINTS)
      scope.route({ method, url, config, schema: { hide: true }, handler: (req, reply) => toProvider(req, reply) });
    for (const url of DISCOVERY)
      scope.get(url, { config, schema: { hide: true } }, (req, reply) => toProvider(req, reply, `/.well-known/openid-configuration`));
  });

  for (const path of RESOURCE_PATHS)
    app.get(`/.well-known/oauth-protected-resource${path}`, { config: { public: true }, schema: { hide: true } }, async () => {
      const base = app.publicBase();
      return {
        resource: `${base}${path}`,
        authorization_servers: [base],
        scopes_supported: [...OAUTH_SCOPES],
        bearer_methods_supported: ['header'],
        resource_name: 'kb',
        resource_documentation: `${base}/docs`,
      };
    });

  /** The interaction the browser is in: its `_interaction` cookie must name this uid (a link to someone else's consent is refused). */
  const interactionOf = async (req: FastifyRequest, reply: FastifyReply, uid: string) => {
    try {
      const interaction = await (await providerOf()).interactionDetails(req.raw, reply.raw);
      if (interaction.uid === uid) return interaction;
    } catch {
      // no cookie, or an interaction that ended or expired
    }
    throw forbidden('This authorization request has ended or was started in another browser; start again from the app', { reason: 'interaction_not_found' });
  };

  const api = typed(app);
  const tags = ['oauth'];
  api.get(
    '/oauth/consent/:uid/details',
    {
      schema: {
        tags,
        summary: 'What the consent screen shows: the app asking, the scopes it asks for, and your workspaces',
        description: 'Called by the web app from the consent screen, with the browser’s session and the authorization request’s cookie.',
        params: ConsentParams,
        response: { 200: ConsentDetails, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (req, reply) => ({ data: await consentDetails(ctxOf(req, deps), await providerOf(), await interactionOf(req, reply, req.params.uid)) }),
  );
  api.post(
    '/oauth/consent/:uid/decision',
    {
      // A record (a workspace id and up to three scopes), like the other record routes.
      bodyLimit: Math.min(deps.env.config.SMALL_BODY_LIMIT_BYTES, deps.env.config.BODY_LIMIT_BYTES),
      schema: {
        tags,
        summary: 'Connect the app (to one workspace, with the scopes you chose) or decline; answers where the browser goes next',
        description: 'Only a person signed in to the web app (session cookie and X-CSRF-Token) can answer. Recorded in the audit log as `oauth.app_connected`.',
        params: ConsentParams,
        body: ConsentDecisionBody,
        response: { 200: ConsentDecision, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody },
      },
    },
    async (req, reply) => ({ data: await decideConsent(ctxOf(req, deps), await providerOf(), await interactionOf(req, reply, req.params.uid), req.body) }),
  );
}

/** Settings › Connected apps: the apps you gave access, and disconnecting one. */
export const oauthConnectionsRoutes: AreaRoutes = (app, deps) => {
  const tags = ['oauth'];
  app.get(
    '/oauth/connections',
    {
      schema: {
        tags,
        summary: 'Your connected apps: which app, which workspace, which scopes, when last used',
        security: BEARER,
        response: { 200: OAuthConnectionList },
      },
    },
    async (req) => ({ data: await listConnections(ctxOf(req, deps)) }),
  );
  app.delete(
    '/oauth/connections/:id',
    {
      schema: {
        tags,
        summary: 'Disconnect an app: its access and refresh tokens stop working',
        description: 'Recorded in the audit log as `oauth.app_disconnected`. Someone else’s connection, or one already ended, is a 404.',
        security: BEARER,
        params: OAuthConnectionParams,
        response: { 200: Deleted, 404: ErrorBody },
      },
    },
    async (req) => ({ data: await disconnectApp(ctxOf(req, deps), deps.authenticator.appTokens, req.params.id) }),
  );
};

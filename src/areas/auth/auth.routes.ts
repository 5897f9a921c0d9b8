import { unauthorized } from '../../errors.js';
import { ctxOf } from '../../http/request-context.js';
import { type AreaRoutes, BEARER, recordRoutes } from '../../http/routes.js';
import { csrfTokenFor, refusedForeignOrigin, setSessionCookie } from '../../http/session-cookie.js';
import { Deleted, ErrorBody } from '../../schema.js';
import { UserResult } from '../users/users.schema.js';
import { getMe } from '../users/users.service.js';
import { ApiKeyCreateBody, ApiKeyCreated, ApiKeyList, ApiKeyParams, LoginBody, LoginResult, SessionResult, SignupBody, SignupResult } from './auth.schema.js';
import { createApiKey, listApiKeys, login, revokeApiKey, signup } from './auth.service.js';
import { emailVerificationRoutes } from './email-verification.routes.js';
import { sessionRoutes } from './sessions.routes.js';

export const authRoutes: AreaRoutes = recordRoutes((app, deps) => {
  app.post(
    '/auth/signup',
    {
      config: { public: true },
      preValidation: deps.authThrottle.guard,
      schema: {
        tags: ['auth'],
        summary: 'Create an account',
        body: SignupBody,
        response: { 201: SignupResult, 403: ErrorBody, 409: ErrorBody, 429: ErrorBody },
      },
    },
    async (req, reply) => reply.status(201).send({ data: await signup(ctxOf(req, deps), req.body) }),
  );
  app.post(
    '/auth/login',
    {
      config: { public: true },
      preValidation: deps.authThrottle.guard,
      schema: {
        tags: ['auth'],
        summary: 'Exchange email and password for a JWT',
        body: LoginBody,
        response: { 200: LoginResult, 401: ErrorBody, 403: ErrorBody, 429: ErrorBody },
      },
    },
    async (req) => ({ data: await login(ctxOf(req, deps), req.body) }),
  );
  app.post(
    '/auth/session',
    {
      config: { public: true },
      preValidation: [
        async (req) => {
          const refused = refusedForeignOrigin(req);
          if (refused) throw refused;
        },
        deps.authThrottle.guard,
      ],
      schema: {
        tags: ['auth'],
        summary: 'Sign in a browser: sets the HttpOnly session cookie kb_session and answers the CSRF token',
        description:
          'Same credentials and throttle as /auth/login. Writes made with the cookie must send X-CSRF-Token; scripts should keep using /auth/login and a bearer token.',
        body: LoginBody,
        response: { 200: SessionResult, 401: ErrorBody, 403: ErrorBody, 429: ErrorBody },
      },
    },
    async (req, reply) => {
      const { user, token } = await login(ctxOf(req, deps), req.body);
      setSessionCookie(req, reply, deps.env.config, token, deps.env.config.JWT_TTL_S);
      return { data: { user, csrfToken: csrfTokenFor(deps.env.tokens, token) } };
    },
  );
  app.get(
    '/auth/session',
    {
      schema: {
        tags: ['auth'],
        summary: 'The browser session of the kb_session cookie: its user and CSRF token (401 without a valid cookie)',
        response: { 200: SessionResult, 401: ErrorBody },
      },
    },
    async (req) => {
      if (req.cookieSession === null) throw unauthorized('No browser session: sign in with POST /api/v1/auth/session');
      return { data: { user: await getMe(ctxOf(req, deps)), csrfToken: csrfTokenFor(deps.env.tokens, req.cookieSession) } };
    },
  );
  sessionRoutes(app, deps);
  emailVerificationRoutes(app, deps);
  app.get('/users/me', { schema: { tags: ['users'], summary: 'The calling user', security: BEARER, response: { 200: UserResult } } }, async (req) => ({
    data: await getMe(ctxOf(req, deps)),
  }));
  app.post(
    '/api-keys',
    {
      schema: {
        tags: ['auth'],
        summary: 'Create an API key (the key is shown only in this response)',
        description: 'Needs a session token (JWT from login or signup): an API key cannot create, list or revoke keys (403).',
        security: BEARER,
        body: ApiKeyCreateBody,
        response: { 201: ApiKeyCreated },
      },
    },
    async (req, reply) => reply.status(201).send({ data: await createApiKey(ctxOf(req, deps), req.body) }),
  );
  app.get(
    '/api-keys',
    { schema: { tags: ['auth'], summary: 'The caller’s active API keys (never the secret)', security: BEARER, response: { 200: ApiKeyList } } },
    async (req) => ({ data: await listApiKeys(ctxOf(req, deps)) }),
  );
  app.delete(
    '/api-keys/:id',
    { schema: { tags: ['auth'], summary: 'Revoke an API key', security: BEARER, params: ApiKeyParams, response: { 200: Deleted } } },
    async (req) => ({ data: await revokeApiKey(ctxOf(req, deps), deps.authenticator, req.params.id) }),
  );
});

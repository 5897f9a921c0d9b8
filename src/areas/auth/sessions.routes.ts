import type { HttpDeps } from '../../http/request-context.js';
import { ctxOf } from '../../http/request-context.js';
import { type Api, BEARER } from '../../http/routes.js';
import { clearSessionCookie, csrfTokenFor, refusedForeignOrigin, setSessionCookie } from '../../http/session-cookie.js';
import { Deleted, ErrorBody } from '../../schema.js';
import {
  PasswordResetBody,
  PasswordResetResult,
  ResetLinkCreated,
  ResetLinkParams,
  SessionList,
  SessionParams,
  SessionsRevoked,
  SessionsRevokeQuery,
  SignedOut,
} from './auth.schema.js';
import { createPasswordResetLink, resetPassword } from './password-reset.service.js';
import { listSessions, revokeSession, revokeSessions, signOutSession } from './sessions.service.js';

const SESSION_ONLY = 'Needs a session token (JWT, by bearer or the browser cookie): an API key gets 403 `session_required`.';

/** Sessions (list, sign out), browser sign-out, and password-reset links: registered by authRoutes. */
export function sessionRoutes(app: Api, deps: HttpDeps) {
  const tags = ['auth'];
  app.get(
    '/auth/sessions',
    {
      schema: {
        tags,
        summary: 'Your open sessions: device, address, last seen; `current` marks the calling one',
        description: SESSION_ONLY,
        security: BEARER,
        response: { 200: SessionList, 403: ErrorBody },
      },
    },
    async (req) => ({ data: await listSessions(ctxOf(req, deps)) }),
  );
  app.delete(
    '/auth/sessions/:id',
    {
      schema: {
        tags,
        summary: 'Sign out one of your sessions: its token is refused from now on',
        description: `${SESSION_ONLY} Someone else's session, or one already ended, is a 404.`,
        security: BEARER,
        params: SessionParams,
        response: { 200: Deleted, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (req) => ({ data: await revokeSession(ctxOf(req, deps), deps.authenticator, req.params.id) }),
  );
  app.delete(
    '/auth/sessions',
    {
      schema: {
        tags,
        summary: 'Sign out all your other sessions (or, with keepCurrent=false, all of them)',
        description: `${SESSION_ONLY} API keys are not sessions and keep working.`,
        security: BEARER,
        querystring: SessionsRevokeQuery,
        response: { 200: SessionsRevoked, 403: ErrorBody },
      },
    },
    async (req) => ({ data: await revokeSessions(ctxOf(req, deps), deps.authenticator, req.query.keepCurrent) }),
  );
  app.delete(
    '/auth/session',
    {
      schema: {
        tags,
        summary: 'Sign out: ends the calling session on the server and clears the kb_session cookie (needs X-CSRF-Token like every cookie write)',
        description: 'The session token stops working at once on this instance, within ~10 s on the others. Called with an API key, it only clears the cookie.',
        response: { 200: SignedOut, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (req, reply) => {
      await signOutSession(ctxOf(req, deps), deps.authenticator);
      clearSessionCookie(req, reply, deps.env.config);
      return { data: { signedOut: true as const } };
    },
  );
  app.post(
    '/workspaces/:workspaceId/members/:userId/password-reset',
    {
      schema: {
        tags,
        summary: 'Make a one-time link for a member to set a new password (workspace admins)',
        description:
          'The link works once, for 24 hours; a newer link voids older ones. Mailed to the member too when SMTP_URL is set (`mailed: true`). ' +
          'Refused (403 `member_of_other_workspace`) when the member belongs to a workspace the caller does not administer. ' +
          SESSION_ONLY,
        security: BEARER,
        params: ResetLinkParams,
        response: { 201: ResetLinkCreated, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (req, reply) => reply.status(201).send({ data: await createPasswordResetLink(ctxOf(req, deps), req.params.workspaceId, req.params.userId) }),
  );
  app.post(
    '/auth/password-reset',
    {
      config: { public: true },
      preValidation: [
        async (req) => {
          if ((req.body as { session?: unknown } | undefined)?.session !== 'cookie') return;
          const refused = refusedForeignOrigin(req);
          if (refused) throw refused;
        },
        deps.authThrottle.guard,
      ],
      schema: {
        tags,
        summary: 'Set a new password with a reset link: signs out every session of the account and starts a new one',
        description:
          'Answers like login. An unknown, used, replaced or expired link gets 400 `INVALID_PARAMETER` (`details.reason: "invalid_or_expired"`), whichever it is. Throttled like login.',
        body: PasswordResetBody,
        response: { 200: PasswordResetResult, 400: ErrorBody, 403: ErrorBody, 429: ErrorBody },
      },
    },
    async (req, reply) => {
      const { user, token, expiresAt } = await resetPassword(ctxOf(req, deps), deps.authenticator, req.body);
      if (req.body.session !== 'cookie') return { data: { user, token, expiresAt } };
      setSessionCookie(req, reply, deps.env.config, token, deps.env.config.JWT_TTL_S);
      return { data: { user, expiresAt, csrfToken: csrfTokenFor(deps.env.tokens, token) } };
    },
  );
}

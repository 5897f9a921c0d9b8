import type { FastifyRequest } from 'fastify';
import { ctxOf } from '../../http/request-context.js';
import { type AreaRoutes, BEARER, recordRoutes } from '../../http/routes.js';
import { csrfTokenFor, refusedForeignOrigin, setSessionCookie } from '../../http/session-cookie.js';
import { ErrorBody, WorkspaceIdParams } from '../../schema.js';
import {
  InvitationAcceptBody,
  InvitationAccepted,
  InvitationCreateBody,
  InvitationCreated,
  InvitationListResult,
  InvitationParams,
  InvitationPreview,
  InvitationRevoked,
  InvitationTokenParams,
  ReceivedInvitationList,
  ReceivedInvitationParams,
} from './invitations.schema.js';
import { acceptInvitation, acceptMyInvitation, declineMyInvitation, listMyInvitations, previewInvitation } from './invitation-accept.service.js';
import { createInvitation, listInvitations, revokeInvitation } from './invitations.service.js';

/** Accepting may open a session: like the sign-in form, only from our own pages. */
async function ownOriginOnly(req: FastifyRequest) {
  const refused = refusedForeignOrigin(req);
  if (refused) throw refused;
}

export const invitationsRoutes: AreaRoutes = recordRoutes((app, deps) => {
  const tags = ['invitations'];
  const security = BEARER;
  app.post(
    '/workspaces/:workspaceId/invitations',
    {
      schema: {
        tags,
        security,
        summary: 'Invite someone by email (admin): answers the one-time link, mailed too when SMTP_URL is set',
        description:
          'Inviting an address again revokes its open invitation and makes a new link. Mailed only when your own email is verified; a mail that fails (or is not sent) leaves the invitation in place: `mailed: false` and `mailError` say why. 409 when the address is a member already; 429 past INVITATIONS_PER_USER_PER_HOUR or INVITATIONS_PER_WORKSPACE_PER_HOUR (with Retry-After).',
        params: WorkspaceIdParams,
        body: InvitationCreateBody,
        response: { 201: InvitationCreated, 403: ErrorBody, 409: ErrorBody, 429: ErrorBody },
      },
    },
    async (req, reply) => reply.status(201).send({ data: await createInvitation(ctxOf(req, deps), req.params.workspaceId, req.body) }),
  );
  app.get(
    '/workspaces/:workspaceId/invitations',
    {
      schema: {
        tags,
        security,
        summary: 'Open invitations of the workspace (admin), newest first; never their links',
        params: WorkspaceIdParams,
        response: { 200: InvitationListResult },
      },
    },
    async (req) => ({ data: await listInvitations(ctxOf(req, deps), req.params.workspaceId) }),
  );
  app.delete(
    '/workspaces/:workspaceId/invitations/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Revoke an invitation (admin): its link stops working',
        params: InvitationParams,
        response: { 200: InvitationRevoked },
      },
    },
    async (req) => ({ data: await revokeInvitation(ctxOf(req, deps), req.params.workspaceId, req.params.id) }),
  );
  app.get(
    '/invitations/:token',
    {
      config: { public: true },
      preValidation: deps.authThrottle.guard,
      schema: {
        tags,
        summary: 'What an invitation link is for (no sign-in needed): workspace, inviter, email, role, expiry',
        description: '404 for an unknown link; 410 DELETED with `details.reason` accepted, revoked or expired for one that no longer works.',
        params: InvitationTokenParams,
        response: { 200: InvitationPreview, 404: ErrorBody, 410: ErrorBody, 429: ErrorBody },
      },
    },
    async (req) => ({ data: await previewInvitation(ctxOf(req, deps), req.params.token) }),
  );
  app.post(
    '/invitations/:token/accept',
    {
      config: { public: true, actsForCaller: true },
      preValidation: [ownOriginOnly, deps.authThrottle.guard],
      schema: {
        tags,
        summary: 'Accept an invitation: signed in as the invited account, or with a name and password that create it',
        description:
          'Signed in (bearer or session cookie): the account must be the invited one (403 `email_mismatch`); a bad bearer credential is a 401 as everywhere. Not signed in: `name` and `password` create the invited account (409 when it exists: sign in first) and a session starts: the session cookie and `csrfToken` by default, or with `session: "token"` the token itself. A link works once (410 afterwards).',
        body: InvitationAcceptBody,
        params: InvitationTokenParams,
        response: { 200: InvitationAccepted, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 410: ErrorBody, 429: ErrorBody },
      },
    },
    async (req, reply) => {
      const accepted = await acceptInvitation(ctxOf(req, deps), req.params.token, req.body);
      if (accepted.token === undefined || req.body.session === 'token') return { data: accepted };
      // A browser gets its session as the HttpOnly cookie only: the token never reaches page scripts.
      const { token, ...answer } = accepted;
      setSessionCookie(req, reply, deps.env.config, token, deps.env.config.JWT_TTL_S);
      return { data: { ...answer, csrfToken: csrfTokenFor(deps.env.tokens, token) } };
    },
  );
  app.get(
    '/users/me/invitations',
    {
      schema: {
        tags,
        security,
        summary: 'Invitations waiting for you: to your account (an admin added you by user id), and to your email once it is verified',
        description:
          'Open and unexpired, newest first. Accept or decline each with your own session or key; an invitation to an unverified email is answered through its link only.',
        response: { 200: ReceivedInvitationList },
      },
    },
    async (req) => ({ data: await listMyInvitations(ctxOf(req, deps)) }),
  );
  app.post(
    '/users/me/invitations/:id/accept',
    {
      schema: {
        tags,
        security,
        summary: 'Accept an invitation waiting for you: you become a member with its role',
        description: '404 for an invitation not in your list; 410 once it expired or was withdrawn.',
        params: ReceivedInvitationParams,
        response: { 200: InvitationAccepted, 403: ErrorBody, 404: ErrorBody, 410: ErrorBody },
      },
    },
    async (req) => ({ data: await acceptMyInvitation(ctxOf(req, deps), req.params.id) }),
  );
  app.delete(
    '/users/me/invitations/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Decline an invitation waiting for you: it closes, and its link dies',
        params: ReceivedInvitationParams,
        response: { 200: InvitationRevoked, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (req) => ({ data: await declineMyInvitation(ctxOf(req, deps), req.params.id) }),
  );
});

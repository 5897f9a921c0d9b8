import { ctxOf } from '../../http/request-context.js';
import { type AreaRoutes, BEARER, recordRoutes } from '../../http/routes.js';
import { Deleted, ErrorBody, WorkspaceIdParams } from '../../schema.js';
import { MemberInvited } from '../invitations/invitations.schema.js';
import {
  MemberAddBody,
  MemberListResult,
  MemberParams,
  MemberResult,
  MemberUpdateBody,
  WorkspaceCreateBody,
  WorkspaceListResult,
  WorkspaceResult,
  WorkspaceUpdateBody,
} from './workspaces.schema.js';
import {
  addMember,
  changeMemberRole,
  createWorkspace,
  getWorkspace,
  listMembers,
  listWorkspaces,
  removeMember,
  updateWorkspace,
} from './workspaces.service.js';

export const workspacesRoutes: AreaRoutes = recordRoutes((app, deps) => {
  const tags = ['workspaces'];
  const security = BEARER;
  app.get(
    '/workspaces',
    { schema: { tags, security, summary: 'Workspaces of the caller, with their role', response: { 200: WorkspaceListResult } } },
    async (req) => ({
      data: await listWorkspaces(ctxOf(req, deps)),
    }),
  );
  app.get(
    '/workspaces/:workspaceId',
    { schema: { tags, security, summary: 'A workspace', params: WorkspaceIdParams, response: { 200: WorkspaceResult } } },
    async (req) => ({ data: await getWorkspace(ctxOf(req, deps), req.params.workspaceId) }),
  );
  app.post(
    '/workspaces',
    { schema: { tags, security, summary: 'Create a workspace; the caller becomes its admin', body: WorkspaceCreateBody, response: { 201: WorkspaceResult } } },
    async (req, reply) => reply.status(201).send({ data: await createWorkspace(ctxOf(req, deps), req.body) }),
  );
  app.put(
    '/workspaces/:workspaceId',
    {
      schema: {
        tags,
        security,
        summary: 'Update name, description, logo or settings (admin)',
        params: WorkspaceIdParams,
        body: WorkspaceUpdateBody,
        response: { 200: WorkspaceResult },
      },
    },
    async (req) => ({ data: await updateWorkspace(ctxOf(req, deps), req.params.workspaceId, req.body) }),
  );
  app.get(
    '/workspaces/:workspaceId/members',
    { schema: { tags, security, summary: 'Members of the workspace', params: WorkspaceIdParams, response: { 200: MemberListResult } } },
    async (req) => ({ data: await listMembers(ctxOf(req, deps), req.params.workspaceId) }),
  );
  app.post(
    '/workspaces/:workspaceId/members',
    {
      schema: {
        tags,
        security,
        summary: 'Add an existing account (admin): invites it (202), or adds it at once (201) for an installation admin or an account of the single sign-on',
        description:
          'Nobody joins a workspace without consent: the account gets an invitation it accepts or declines (`GET /users/me/invitations`), answered 202 `{ status: "invited", invitation, url, mailed, mailError? }`. ' +
          'Added at once, 201 with the member, when the caller is an installation admin (INSTALL_ADMINS, verified email) or the account signs in through the single sign-on of one of OIDC_ALLOWED_DOMAINS. ' +
          '404 unknown user, 409 already a member, 429 past the hourly invitation limits.',
        params: WorkspaceIdParams,
        body: MemberAddBody,
        response: { 201: MemberResult, 202: MemberInvited, 404: ErrorBody, 409: ErrorBody, 429: ErrorBody },
      },
    },
    async (req, reply) => {
      const outcome = await addMember(ctxOf(req, deps), req.params.workspaceId, req.body);
      if (outcome.status === 'added') return reply.status(201).send({ data: outcome.member });
      return reply.status(202).send({ data: outcome });
    },
  );
  app.put(
    '/workspaces/:workspaceId/members/:userId',
    {
      schema: {
        tags,
        security,
        summary: 'Change a member’s role (admin; the last admin stays admin)',
        params: MemberParams,
        body: MemberUpdateBody,
        response: { 200: MemberResult },
      },
    },
    async (req) => ({ data: await changeMemberRole(ctxOf(req, deps), req.params.workspaceId, req.params.userId, req.body.role) }),
  );
  app.delete(
    '/workspaces/:workspaceId/members/:userId',
    { schema: { tags, security, summary: 'Remove a member (admin), or leave the workspace yourself', params: MemberParams, response: { 200: Deleted } } },
    async (req) => ({ data: await removeMember(ctxOf(req, deps), req.params.workspaceId, req.params.userId) }),
  );
});

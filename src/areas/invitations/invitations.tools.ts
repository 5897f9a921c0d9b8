import { z } from 'zod';
import { DELETE, defineTool, ItemList, listOf, READ, WRITE } from '../../mcp/tool.js';
import { DeletedRecord, WorkspaceIdParams } from '../../schema.js';
import { acceptMyInvitation, declineMyInvitation, listMyInvitations } from './invitation-accept.service.js';
import {
  Invitation,
  InvitationAccepted,
  InvitationCreateBody,
  InvitationCreated,
  InvitationParams,
  ReceivedInvitation,
  ReceivedInvitationParams,
} from './invitations.schema.js';
import { createInvitation, listInvitations, revokeInvitation } from './invitations.service.js';

const category = 'invitation';

export const invitationTools = [
  defineTool({
    name: 'invitation_create',
    title: 'Invite someone by email',
    category,
    description:
      'Invite an email address to a workspace with a role (admin only). Returns `{ invitation, url, mailed, mailError? }`: `url` is the one-time link, shown only here; it is mailed to the address when the service has a mail server (`mailed`). Inviting the same address again replaces its open invitation. Fails with 409 when the address is a member already.',
    input: WorkspaceIdParams.extend(InvitationCreateBody.shape),
    output: InvitationCreated.shape.data,
    annotations: WRITE,
    handler: (ctx, { workspaceId, ...body }) => createInvitation(ctx, workspaceId, body),
  }),
  defineTool({
    name: 'invitation_list',
    title: 'List open invitations',
    category,
    description:
      'List the open invitations of a workspace (admin only), newest first: `{ items: [{ id, email, role, status (pending|expired), invitedBy, expiresAt }], total }`. Links are never shown again.',
    input: WorkspaceIdParams,
    output: ItemList(Invitation),
    annotations: READ,
    handler: async (ctx, a) => listOf(await listInvitations(ctx, a.workspaceId)),
  }),
  defineTool({
    name: 'invitation_revoke',
    title: 'Revoke an invitation',
    category,
    description: 'Withdraw an open invitation by `id` (admin only): its link stops working at once. Returns `{ id, deleted: true }`.',
    input: InvitationParams,
    output: DeletedRecord,
    annotations: DELETE,
    handler: (ctx, a) => revokeInvitation(ctx, a.workspaceId, a.id),
  }),
  defineTool({
    name: 'invitation_list_mine',
    title: 'List invitations waiting for you',
    category,
    description:
      'The invitations the caller can answer: to their account (an admin added them by user id) and to their email once kb has verified it. Open and unexpired, newest first: `{ items: [{ id, workspace: { id, name, hostname }, email, role, invitedBy, createdAt, expiresAt }], total }`. Answer each with `invitation_accept` or `invitation_decline`.',
    input: z.object({}),
    output: ItemList(ReceivedInvitation),
    annotations: READ,
    handler: async (ctx) => listOf(await listMyInvitations(ctx)),
  }),
  defineTool({
    name: 'invitation_accept',
    title: 'Accept an invitation waiting for you',
    category,
    description:
      "Accept one of `invitation_list_mine` by `id`: the caller becomes a member with its role. Returns `{ workspaceId, role, user }`. 404 for an invitation not in the caller's list, 410 once it expired or was withdrawn.",
    input: ReceivedInvitationParams,
    output: InvitationAccepted.shape.data,
    annotations: WRITE,
    handler: (ctx, a) => acceptMyInvitation(ctx, a.id),
  }),
  defineTool({
    name: 'invitation_decline',
    title: 'Decline an invitation waiting for you',
    category,
    description: 'Decline one of `invitation_list_mine` by `id`: it closes and its link dies. Returns `{ id, deleted: true }`.',
    input: ReceivedInvitationParams,
    output: DeletedRecord,
    annotations: DELETE,
    handler: (ctx, a) => declineMyInvitation(ctx, a.id),
  }),
];

import { DELETE, defineTool, listOf, READ, WRITE } from '../../mcp/tool.js';
import { WorkspaceIdParams } from '../../schema.js';
import { InvitationCreateBody, InvitationParams } from './invitations.schema.js';
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
    annotations: READ,
    handler: async (ctx, a) => listOf(await listInvitations(ctx, a.workspaceId)),
  }),
  defineTool({
    name: 'invitation_revoke',
    title: 'Revoke an invitation',
    category,
    description: 'Withdraw an open invitation by `id` (admin only): its link stops working at once. Returns `{ id, deleted: true }`.',
    input: InvitationParams,
    annotations: DELETE,
    handler: (ctx, a) => revokeInvitation(ctx, a.workspaceId, a.id),
  }),
];

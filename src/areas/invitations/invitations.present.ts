import type { InvitationRole } from '../../db/tables/invitations.js';

interface InvitationFields {
  id: string;
  workspaceId: string;
  email: string;
  role: InvitationRole;
  invitedBy: string;
  inviterName: string | null;
  createdAt: Date;
  expiresAt: Date;
}

/** An invitation as admins see it: never its token. */
export function presentInvitation(row: InvitationFields, now: Date) {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    email: row.email,
    role: row.role,
    status: row.expiresAt <= now ? ('expired' as const) : ('pending' as const),
    invitedBy: row.inviterName === null ? null : { id: row.invitedBy, name: row.inviterName },
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

interface ReceivedFields extends InvitationFields {
  workspaceName: string;
  workspaceHostname: string;
}

/** An invitation as the invited person sees it in their own list: the workspace it opens, never its token. */
export function presentReceivedInvitation(row: ReceivedFields) {
  return {
    id: row.id,
    workspace: { id: row.workspaceId, name: row.workspaceName, hostname: row.workspaceHostname },
    email: row.email,
    role: row.role,
    invitedBy: row.inviterName === null ? null : { id: row.invitedBy, name: row.inviterName },
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

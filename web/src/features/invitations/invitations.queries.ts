import { useQuery } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { Role } from '../settings/settings.queries';

/** An open invitation as admins see it (never its link). */
export interface Invitation {
  id: string;
  email: string;
  role: Role;
  status: 'pending' | 'expired';
  invitedBy: { id: string; name: string } | null;
  createdAt: string;
  expiresAt: string;
}

/** What an invitation link is for, shown to whoever opens it. */
export interface InvitationPreview {
  workspace: { id: string; name: string; hostname: string };
  inviter: { name: string } | null;
  email: string;
  role: Role;
  expiresAt: string;
  accountExists: boolean;
}

/** An invitation waiting for the signed-in person (to their account, or to their verified email). */
export interface ReceivedInvitation {
  id: string;
  workspace: { id: string; name: string; hostname: string };
  email: string;
  role: Role;
  invitedBy: { id: string; name: string } | null;
  createdAt: string;
  expiresAt: string;
}

export const invitationKeys = {
  open: (workspaceId: string) => ['invitations', workspaceId] as const,
  link: (token: string) => ['invitation-link', token] as const,
  received: ['invitations-received'] as const,
};

export function useReceivedInvitations() {
  return useQuery({
    queryKey: invitationKeys.received,
    queryFn: async () => (await data(api.GET('/api/v1/users/me/invitations'))) as ReceivedInvitation[],
  });
}

export function useInvitations(workspaceId: string, enabled: boolean) {
  return useQuery({
    queryKey: invitationKeys.open(workspaceId),
    queryFn: async () => (await data(api.GET('/api/v1/workspaces/{workspaceId}/invitations', { params: { path: { workspaceId } } }))) as Invitation[],
    enabled,
  });
}

export function useInvitationPreview(token: string) {
  return useQuery({
    queryKey: invitationKeys.link(token),
    queryFn: async () => (await data(api.GET('/api/v1/invitations/{token}', { params: { path: { token } } }))) as InvitationPreview,
    retry: false,
  });
}

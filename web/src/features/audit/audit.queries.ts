import { useInfiniteQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { paths } from '../../api/schema';

/** The audit log (docs/audit.md): read only, newest first, paged by an opaque cursor. */
type AuditPage = paths['/api/v1/audit-log']['get']['responses'][200]['content']['application/json'];
export type AuditEntry = AuditPage['data'][number];
export type AuditAction = AuditEntry['action'];

/** The filter's groups of actions, in the words of the screen. */
export const ACTION_GROUPS: { value: string; label: string; actions: AuditAction[] }[] = [
  {
    value: 'sign-ins',
    label: 'Sign-ins and passwords',
    actions: [
      'auth.signin',
      'auth.signin_failed',
      'auth.signout',
      'auth.session_revoked',
      'auth.password_changed',
      'auth.password_reset_link_created',
      'auth.password_reset',
      'auth.email_verified',
      'auth.unverified_account_claimed',
    ],
  },
  {
    value: 'members',
    label: 'Members and roles',
    actions: [
      'member.added',
      'member.role_changed',
      'member.removed',
      'invitation.created',
      'invitation.revoked',
      'invitation.accepted',
      'invitation.declined',
      'space_member.added',
      'space_member.role_changed',
      'space_member.removed',
      'group_member.added',
      'group_member.removed',
    ],
  },
  { value: 'keys', label: 'API keys', actions: ['api_key.created', 'api_key.revoked'] },
  {
    value: 'sharing',
    label: 'Sharing and restrictions',
    actions: ['share.created', 'share.updated', 'share.revoked', 'page_restriction.set', 'page_restriction.removed'],
  },
  { value: 'exports', label: 'Exports', actions: ['export.created'] },
  { value: 'webhooks', label: 'Webhooks', actions: ['webhook.created', 'webhook.updated', 'webhook.deleted', 'webhook.secret_rotated'] },
];

export interface AuditFilter {
  group: string | null;
  actorId: string | null;
}

export function useAuditLog(workspaceId: string, filter: AuditFilter) {
  const actions = ACTION_GROUPS.find((g) => g.value === filter.group)?.actions;
  return useInfiniteQuery({
    queryKey: ['settings', workspaceId, 'audit-log', filter.group, filter.actorId],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      call(
        api.GET('/api/v1/audit-log', {
          params: {
            query: {
              workspaceId,
              limit: 50,
              ...(actions ? { action: actions } : {}),
              ...(filter.actorId ? { actorId: filter.actorId } : {}),
              ...(pageParam ? { cursor: pageParam } : {}),
            },
          },
        }),
      ) as Promise<AuditPage>,
    getNextPageParam: (last) => last.meta.nextCursor,
  });
}

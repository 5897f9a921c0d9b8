import { useQuery } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { Role } from './settings.queries';

export interface SpaceDetail {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  icon: string | null;
  visibility: 'public' | 'private';
  pageCount: number;
  memberCount?: number;
}

/** A direct role grant in a space: to a user, or to a group (`isGroup`). */
export interface SpacePermission {
  targetId: string;
  isGroup: boolean;
  name: string;
  role: Role;
  addedAt: string;
}

export const spaceSettingsKeys = {
  one: (workspaceId: string, spaceId: string) => ['settings', workspaceId, 'space', spaceId] as const,
  permissions: (workspaceId: string, spaceId: string) => ['settings', workspaceId, 'space', spaceId, 'permissions'] as const,
};

export function useSpaceDetail(workspaceId: string, spaceId: string) {
  return useQuery({
    queryKey: spaceSettingsKeys.one(workspaceId, spaceId),
    queryFn: async () => (await data(api.GET('/api/v1/spaces/{spaceId}', { params: { path: { spaceId }, query: { workspaceId } } }))) as SpaceDetail,
  });
}

export function useSpacePermissions(workspaceId: string, spaceId: string) {
  return useQuery({
    queryKey: spaceSettingsKeys.permissions(workspaceId, spaceId),
    queryFn: async () =>
      (await data(api.GET('/api/v1/spaces/{spaceId}/permissions', { params: { path: { spaceId }, query: { workspaceId } } }))) as SpacePermission[],
  });
}

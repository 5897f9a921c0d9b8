import { useQuery } from '@tanstack/react-query';
import { api, data } from '../../api/client';

/** Shapes the settings screens read, in the interface's words (cast from the generated types where they are wide). */
export type Role = 'admin' | 'editor' | 'viewer';
export const ROLES: { value: Role; label: string }[] = [
  { value: 'admin', label: 'Admin' },
  { value: 'editor', label: 'Editor' },
  { value: 'viewer', label: 'Viewer' },
];

export interface WorkspaceDetail {
  id: string;
  name: string;
  hostname: string;
  description: string | null;
  logoUrl: string | null;
  settings: { defaultRole: Role; allowPublicPages: boolean };
  memberCount: number;
}

export interface Member {
  id: string;
  name: string;
  email: string;
  role: Role;
  joinedAt: string;
}

export interface GroupSummary {
  id: string;
  name: string;
  description: string | null;
  memberCount: number;
}

export interface GroupDetail extends GroupSummary {
  members: { id: string; name: string; email: string; addedAt: string }[];
}

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  access: 'read-only' | 'read-write';
  expiresAt: string | null;
  /** The only workspace the key acts in (and its name); null: all of yours. */
  workspaceId: string | null;
  workspaceName: string | null;
  createdAt: string;
  lastUsedAt: string | null;
}

export const settingsKeys = {
  workspace: (workspaceId: string) => ['workspaces', workspaceId] as const,
  members: (workspaceId: string) => ['settings', workspaceId, 'members'] as const,
  groups: (workspaceId: string) => ['settings', workspaceId, 'groups'] as const,
  group: (workspaceId: string, groupId: string) => ['settings', workspaceId, 'groups', groupId] as const,
  apiKeys: ['settings', 'api-keys'] as const,
};

export function useWorkspaceDetail(workspaceId: string) {
  return useQuery({
    queryKey: settingsKeys.workspace(workspaceId),
    queryFn: async () => (await data(api.GET('/api/v1/workspaces/{workspaceId}', { params: { path: { workspaceId } } }))) as WorkspaceDetail,
    // Every page's Publish button asks for it: read once a while, not on every page opened (a save invalidates it).
    staleTime: 30_000,
  });
}

export function useMembers(workspaceId: string) {
  return useQuery({
    queryKey: settingsKeys.members(workspaceId),
    queryFn: async () => (await data(api.GET('/api/v1/workspaces/{workspaceId}/members', { params: { path: { workspaceId } } }))) as Member[],
  });
}

export function useGroups(workspaceId: string) {
  return useQuery({
    queryKey: settingsKeys.groups(workspaceId),
    queryFn: async () => (await data(api.GET('/api/v1/groups', { params: { query: { workspaceId } } }))) as GroupSummary[],
  });
}

export function useGroup(workspaceId: string, groupId: string) {
  return useQuery({
    queryKey: settingsKeys.group(workspaceId, groupId),
    queryFn: async () => (await data(api.GET('/api/v1/groups/{groupId}', { params: { path: { groupId }, query: { workspaceId } } }))) as GroupDetail,
  });
}

export function useApiKeys() {
  return useQuery({
    queryKey: settingsKeys.apiKeys,
    queryFn: async () => (await data(api.GET('/api/v1/api-keys'))) as ApiKey[],
  });
}

/** A date as a person reads it; `fallback` for a missing one ("Never"). */
export function shortDate(iso: string | null | undefined, fallback = '—'): string {
  if (!iso) return fallback;
  return new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, data } from '../../api/client';

export interface WorkspaceSummary {
  id: string;
  name: string;
  hostname: string;
  role?: string | null;
  memberCount?: number;
  description?: string | null;
  logoUrl?: string | null;
}

export const workspaceKeys = {
  all: ['workspaces'] as const,
  one: (id: string) => ['workspaces', id] as const,
};

/** The caller's workspaces, with their role in each (also started before the first render: app/first-screen.ts). */
export const workspacesQuery = queryOptions({
  queryKey: workspaceKeys.all,
  queryFn: async () => (await data(api.GET('/api/v1/workspaces'))) as WorkspaceSummary[],
  staleTime: 30_000,
});

/** The caller's workspaces, with their role in each. */
export function useWorkspaces() {
  return useQuery(workspacesQuery);
}

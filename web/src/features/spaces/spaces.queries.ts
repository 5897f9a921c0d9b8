import { queryOptions, useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { api, data } from '../../api/client';
import { useWorkspace } from '../workspaces/workspace-context';

export interface SpaceSummary {
  id: string;
  name: string;
  slug: string;
  icon?: string | null;
  description?: string | null;
  visibility: 'public' | 'private' | string;
  workspaceId: string;
  pageCount?: number;
  role?: string | null;
}

export const spaceKeys = {
  all: (workspaceId: string) => ['spaces', workspaceId] as const,
};

/** The spaces the caller can see in a workspace. */
export const spacesQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: spaceKeys.all(workspaceId),
    queryFn: async () => (await data(api.GET('/api/v1/spaces', { params: { query: { workspaceId } } }))) as SpaceSummary[],
    staleTime: 30_000,
  });

/** The spaces the caller can see in a workspace. */
export function useSpaces(workspaceId: string) {
  return useQuery(spacesQuery(workspaceId));
}

/** The space named by the `:space` slug of the current URL, once the list is loaded. */
export function useCurrentSpace(): { space: SpaceSummary | undefined; isPending: boolean; error: unknown } {
  const workspace = useWorkspace();
  const { space: slug } = useParams();
  const spaces = useSpaces(workspace.id);
  return { space: spaces.data?.find((s) => s.slug === slug), isPending: spaces.isPending, error: spaces.error };
}

import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, data } from '../../api/client';

export interface ListedPage {
  id: string;
  title: string;
  slug: string;
  icon: string | null;
  spaceId: string;
  spaceName: string;
  updatedAt: string;
}

export const personalKeys = {
  favorites: (workspaceId: string) => ['personal', 'favorites', workspaceId] as const,
  recent: (workspaceId: string) => ['personal', 'recent', workspaceId] as const,
};

/** The person's favourite pages in a workspace, oldest star first. */
export const favoritesQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: personalKeys.favorites(workspaceId),
    queryFn: async () => (await data(api.GET('/api/v1/favorites', { params: { query: { workspaceId } } }))) as ListedPage[],
    staleTime: 30_000,
  });

export const useFavorites = (workspaceId: string) => useQuery(favoritesQuery(workspaceId));

/** The pages the person opened last, and those edited last in the workspace. */
export const useRecentPages = (workspaceId: string) =>
  useQuery({
    queryKey: personalKeys.recent(workspaceId),
    queryFn: async () =>
      (await data(api.GET('/api/v1/pages/recent', { params: { query: { workspaceId, limit: 8 } } }))) as { visited: ListedPage[]; updated: ListedPage[] },
    staleTime: 10_000,
  });

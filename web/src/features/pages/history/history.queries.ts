import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, data } from '../../../api/client';
import { pageKeys } from '../pages.queries';

export interface HistoryEntry {
  id: string;
  pageId: string;
  version: number;
  title: string;
  summary: string;
  createdAt: string;
  createdBy: string | null;
}

interface Listed {
  entries: HistoryEntry[];
  total: number;
}

export const historyKeys = {
  list: (pageId: string, limit: number) => ['pages', 'history', pageId, limit] as const,
  entry: (pageId: string, historyId: string) => ['pages', 'history', pageId, 'entry', historyId] as const,
  current: (pageId: string) => ['pages', 'history', pageId, 'current'] as const,
};

/** The page's versions, newest first (the first is the page as it is now). */
export function useHistory(pageId: string, limit: number) {
  return useQuery({
    queryKey: historyKeys.list(pageId, limit),
    queryFn: async (): Promise<Listed> => {
      const result = (await call(
        api.GET('/api/v1/pages/{pageId}/history', { params: { path: { pageId }, query: { limit: Math.min(limit, 100) } } }),
      )) as unknown as { data: HistoryEntry[]; meta: { total: number } };
      return { entries: result.data, total: result.meta.total };
    },
    placeholderData: (previous) => previous,
  });
}

/** One version as Markdown (the form people read a diff in). */
export function useVersionMarkdown(pageId: string, historyId: string | null) {
  return useQuery({
    queryKey: historyKeys.entry(pageId, historyId ?? ''),
    queryFn: async () =>
      (await data(
        api.GET('/api/v1/pages/{pageId}/history/{historyId}', {
          params: { path: { pageId, historyId: historyId as string }, query: { format: 'markdown' } },
        }),
      )) as unknown as HistoryEntry & { markdown: string },
    enabled: Boolean(historyId),
    staleTime: Number.POSITIVE_INFINITY, // a version never changes
  });
}

/** The page as it is now, as Markdown. */
export function useCurrentMarkdown(pageId: string) {
  return useQuery({
    queryKey: historyKeys.current(pageId),
    queryFn: async () =>
      (await data(api.GET('/api/v1/pages/{pageId}', { params: { path: { pageId }, query: { format: 'markdown' } } }))) as unknown as {
        title: string;
        slug: string;
        markdown: string;
        role?: string;
      },
  });
}

/** Makes a version current again; every page query (editor, tree, history) refreshes. */
export function useRestore(pageId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (historyId: string) => data(api.POST('/api/v1/pages/{pageId}/restore', { params: { path: { pageId } }, body: { historyId } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pageKeys.all }),
  });
}

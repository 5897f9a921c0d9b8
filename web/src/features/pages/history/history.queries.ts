import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, data } from '../../../api/client';
import { pageKeys } from '../pages.queries';
import type { DocNode } from './block-diff';

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

/** One version with its document (compared block by block on this device, diff.worker.ts). */
export function useVersion(pageId: string, historyId: string | null) {
  return useQuery({
    queryKey: historyKeys.entry(pageId, historyId ?? ''),
    queryFn: async () =>
      (await data(
        api.GET('/api/v1/pages/{pageId}/history/{historyId}', { params: { path: { pageId, historyId: historyId as string } } }),
      )) as unknown as HistoryEntry & { content: DocNode },
    enabled: Boolean(historyId),
    staleTime: Number.POSITIVE_INFINITY, // a version never changes
  });
}

/** The page as it is now, with its document. */
export function useCurrentPage(pageId: string) {
  return useQuery({
    queryKey: historyKeys.current(pageId),
    queryFn: async () =>
      (await data(api.GET('/api/v1/pages/{pageId}', { params: { path: { pageId } } }))) as unknown as {
        title: string;
        slug: string;
        content: DocNode;
        role?: string;
      },
  });
}

export interface RestoreOutcome {
  historyId: string;
  version: number;
  restoredVersion: number;
  previousHistoryId: string;
  previousVersion: number;
}

/**
 * Makes a version current again (a new version); every page query (editor, tree, history) refreshes. A plain function
 * as well as the hook: "Undo" runs from a notification, after the history screen has gone.
 */
export async function restoreVersion(queryClient: QueryClient, pageId: string, historyId: string): Promise<RestoreOutcome> {
  const page = await data(api.POST('/api/v1/pages/{pageId}/restore', { params: { path: { pageId } }, body: { historyId } }));
  void queryClient.invalidateQueries({ queryKey: pageKeys.all });
  return (page as unknown as { restore: RestoreOutcome }).restore;
}

export function useRestore(pageId: string) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: (historyId: string) => restoreVersion(queryClient, pageId, historyId) });
}

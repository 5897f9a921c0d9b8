import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api, data } from '../../../api/client';
import { type PageSummary, pageKeys } from '../pages.queries';

/** Deep enough for any real tree; a guard against a parent cycle in bad data. */
const MAX_DEPTH = 64;

const readPage = (qc: QueryClient, pageId: string) =>
  qc.fetchQuery({
    queryKey: pageKeys.page(pageId),
    queryFn: async () => (await data(api.GET('/api/v1/pages/{pageId}', { params: { path: { pageId } } }))) as unknown as PageSummary,
    staleTime: 30_000,
  });

/** The pages above `pageId`, the root first, walking up parent links (the API has no "ancestors" read). */
async function fetchAncestors(qc: QueryClient, pageId: string): Promise<string[]> {
  const chain: string[] = [];
  let parentId = (await readPage(qc, pageId)).parentId;
  while (parentId && chain.length < MAX_DEPTH && !chain.includes(parentId)) {
    chain.unshift(parentId);
    parentId = (await readPage(qc, parentId)).parentId;
  }
  return chain;
}

/**
 * Opens the tree down to the page in the URL once per visit, when the tree does not show it already (a deep link, a
 * search result, a mention): its ancestors are read and opened, and the tree then brings the row into view.
 * Closing one of them afterwards is left alone.
 */
export function useRevealPage(pageId: string | null, shown: boolean, open: (id: string) => void) {
  const qc = useQueryClient();
  const ancestors = useQuery({
    queryKey: ['pages', 'ancestors', pageId ?? ''],
    queryFn: () => fetchAncestors(qc, pageId as string),
    enabled: Boolean(pageId) && !shown,
    gcTime: 0,
  });
  const revealed = useRef<string | null>(null);
  useEffect(() => {
    if (!pageId || revealed.current === pageId || !ancestors.data) return;
    revealed.current = pageId;
    for (const id of ancestors.data) open(id);
  }, [pageId, ancestors.data, open]);
}

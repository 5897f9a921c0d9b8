import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';

/** A page's public share, as an editor sees it (its link is shown only when made). */
export interface Share {
  id: string;
  pageId: string;
  includeSubtree: boolean;
  allowIndexing: boolean;
  createdAt: string;
  lastViewedAt: string | null;
}

export interface ShareSettings {
  includeSubtree: boolean;
  allowIndexing: boolean;
}

export const shareKeys = {
  page: (pageId: string) => ['shares', 'page', pageId] as const,
};

export function usePageShare(pageId: string, enabled: boolean) {
  return useQuery({
    queryKey: shareKeys.page(pageId),
    queryFn: async () => (await data(api.GET('/api/v1/pages/{pageId}/share', { params: { path: { pageId } } }))) as Share | null,
    enabled,
  });
}

/** Publish (or update the settings of) a page's share; `newLink` replaces its link. Answers the link when one is made. */
export function usePublish(pageId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: ShareSettings & { newLink?: boolean }) =>
      (await data(api.POST('/api/v1/pages/{pageId}/share', { params: { path: { pageId } }, body: { newLink: false, ...body } }))) as {
        share: Share;
        url: string | null;
      },
    onSuccess: (result) => client.setQueryData(shareKeys.page(pageId), result.share),
  });
}

export function useRevokeShare(pageId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (shareId: string) => data(api.DELETE('/api/v1/shares/{shareId}', { params: { path: { shareId } } })),
    onSuccess: () => client.setQueryData(shareKeys.page(pageId), null),
  });
}

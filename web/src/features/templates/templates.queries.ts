import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import { pageKeys } from '../pages/pages.queries';

export interface TemplateSummary {
  id: string;
  workspaceId: string;
  spaceId: string | null;
  title: string;
  icon: string | null;
  description: string | null;
}

export const templateKeys = {
  all: ['templates'] as const,
  list: (workspaceId: string, spaceId?: string) => ['templates', workspaceId, spaceId ?? 'all'] as const,
};

/** The templates usable in a space (its own and the workspace-wide ones), or every readable one without `spaceId`. */
export const templatesQuery = (workspaceId: string, spaceId?: string) =>
  queryOptions({
    queryKey: templateKeys.list(workspaceId, spaceId),
    queryFn: ({ signal }) =>
      data(api.GET('/api/v1/templates', { params: { query: { workspaceId, spaceId, limit: 100, page: 1 } }, signal })) as unknown as Promise<TemplateSummary[]>,
    staleTime: 30_000,
  });

/** The caller's today as YYYY-MM-DD in their own time zone: the value of `{{date}}`. */
export const localDate = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

export function useSaveAsTemplate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { workspaceId: string; spaceId: string | null; fromPageId: string; title: string }) => data(api.POST('/api/v1/templates', { body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: templateKeys.all }),
  });
}

/** A page from a template; the tree and the space's page list learn of it as after any new page. */
export function usePageFromTemplate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ templateId, ...body }: { templateId: string; spaceId: string; parentId?: string | null; title?: string }) =>
      data(api.POST('/api/v1/templates/{templateId}/pages', { params: { path: { templateId } }, body: { ...body, date: localDate() } })),
    onSuccess: (_page, input) => {
      qc.invalidateQueries({ queryKey: pageKeys.level(input.spaceId, input.parentId ?? null) });
      qc.invalidateQueries({ queryKey: pageKeys.roots(input.spaceId) });
    },
  });
}

import { useMutation, useQuery } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { DataOf } from '../../api/types';

/** An export of a space or a page tree (docs/exports.md): a background job, then a zip to download. */
export type ExportJob = DataOf<'/api/v1/exports/{exportId}'>;
export type ExportFormat = ExportJob['format'];

/** What is exported: a whole space, or a page (and, with `includeChildren`, the pages under it). */
export type ExportTarget = { workspaceId: string; spaceId: string } | { workspaceId: string; pageId: string };

export interface ExportChoices {
  format: ExportFormat;
  includeChildren: boolean;
  includeAttachments: boolean;
}

const POLL_MS = 500;
export const isFinished = (job: ExportJob | undefined) => job?.status === 'succeeded' || job?.status === 'failed';

export function useStartExport(target: ExportTarget) {
  return useMutation({
    mutationFn: ({ format, includeChildren, includeAttachments }: ExportChoices) =>
      data(
        api.POST('/api/v1/exports', {
          body: { ...target, format, includeAttachments, ...('pageId' in target ? { includeChildren } : {}) },
        }),
      ) as Promise<ExportJob>,
  });
}

/** The export, polled every half second until it has succeeded or failed. */
export function useExportJob(started: ExportJob | undefined) {
  return useQuery({
    queryKey: ['exports', started?.id],
    queryFn: () => data(api.GET('/api/v1/exports/{exportId}', { params: { path: { exportId: started?.id as string } } })),
    enabled: Boolean(started),
    initialData: started,
    refetchInterval: (query) => (isFinished(query.state.data) ? false : POLL_MS),
    gcTime: 0,
  });
}

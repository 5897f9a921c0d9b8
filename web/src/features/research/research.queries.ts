import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, data } from '../../api/client';

export type ResearchStatus = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';
export type ResearchSource = 'docs' | 'web' | 'repository';
export const ACTIVE: ResearchStatus[] = ['pending', 'running'];
export const isActive = (s: ResearchStatus) => ACTIVE.includes(s);

export const STATUS_LABEL: Record<ResearchStatus, string> = {
  pending: 'Queued',
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
};
export const STATUS_COLOR: Record<ResearchStatus, string> = { pending: 'gray', running: 'blue', completed: 'green', failed: 'red', cancelled: 'orange' };

export interface ResearchJob {
  id: string;
  topic: string;
  status: ResearchStatus;
  sources: ResearchSource[];
  outputMode: 'longform' | 'brief';
  timeBudget: number;
  targetSpaceId: string | null;
  progress: number;
  sourcesSearched: number;
  documentsFound: number;
  timeElapsed: number;
  estimatedTimeRemaining: number;
  error: string | null;
  pageId: string | null;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
}
export interface ResearchListItem {
  id: string;
  topic: string;
  status: ResearchStatus;
  progress: number;
  createdAt: string;
  completedAt: string | null;
}
export interface ResearchReport {
  summary: string;
  content: string;
  sources: { type: 'doc' | 'web'; kind: string; title: string; url: string; relevance: number }[];
  coverage: { source: ResearchSource; status: 'searched' | 'partial' | 'skipped' | 'failed'; detail: string }[];
  writer: 'extractive' | 'llm';
  pageId: string | null;
  timeSpent: number;
}
export interface ResearchInput {
  topic: string;
  sources: ResearchSource[];
  outputMode: 'longform' | 'brief';
  timeBudget: number;
  targetSpaceId?: string;
  repository?: { url: string; branch?: string };
}

export const researchKeys = {
  all: (ws: string) => ['research', ws] as const,
  list: (ws: string) => ['research', ws, 'list'] as const,
  job: (ws: string, id: string) => ['research', ws, 'job', id] as const,
  report: (ws: string, id: string) => ['research', ws, 'report', id] as const,
  page: (id: string) => ['research', 'page', id] as const,
};

/** How often a job's progress is read while it runs. */
const POLL_MS = 1500;

export function useResearchList(ws: string) {
  return useQuery({
    queryKey: researchKeys.list(ws),
    queryFn: async () =>
      (await call(api.GET('/api/workspaces/{workspaceId}/research', { params: { path: { workspaceId: ws }, query: { limit: 50 } } }))) as unknown as {
        jobs: ResearchListItem[];
        total: number;
      },
    // Keep the list's statuses moving while any job is still at work.
    refetchInterval: (q) => (q.state.data?.jobs.some((j) => isActive(j.status)) ? POLL_MS * 2 : false),
  });
}

/** A job's status view, read again every POLL_MS until it reaches a final state. */
export function useResearchJob(ws: string, id: string) {
  return useQuery({
    queryKey: researchKeys.job(ws, id),
    queryFn: async () =>
      (await call(api.GET('/api/workspaces/{workspaceId}/research/{jobId}', { params: { path: { workspaceId: ws, jobId: id } } }))) as unknown as ResearchJob,
    refetchInterval: (q) => (q.state.data && !isActive(q.state.data.status) ? false : POLL_MS),
  });
}

export function useResearchReport(ws: string, id: string, ready: boolean) {
  return useQuery({
    queryKey: researchKeys.report(ws, id),
    queryFn: async () =>
      (await call(
        api.GET('/api/workspaces/{workspaceId}/research/{jobId}/report', { params: { path: { workspaceId: ws, jobId: id } } }),
      )) as unknown as ResearchReport,
    enabled: ready,
  });
}

/** The page holding a report: its space and slug make the link. */
export function useReportPage(ws: string, pageId: string | null) {
  return useQuery({
    queryKey: researchKeys.page(pageId ?? ''),
    queryFn: async () =>
      (await data(api.GET('/api/v1/pages/{pageId}', { params: { path: { pageId: pageId ?? '' }, query: { workspaceId: ws } } }))) as unknown as {
        id: string;
        slug: string;
        spaceId: string;
      },
    enabled: !!pageId,
  });
}

export function useStartResearch(ws: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (input: ResearchInput) =>
      (await call(api.POST('/api/workspaces/{workspaceId}/research', { params: { path: { workspaceId: ws } }, body: input }))) as unknown as ResearchJob,
    onSuccess: () => qc.invalidateQueries({ queryKey: researchKeys.list(ws) }),
  });
}

export function useCancelResearch(ws: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(api.POST('/api/workspaces/{workspaceId}/research/{jobId}/cancel', { params: { path: { workspaceId: ws, jobId: id } } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: researchKeys.all(ws) }),
  });
}

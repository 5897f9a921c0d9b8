import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, data } from '../../api/client';

export type BugStatus = 'open' | 'triaged' | 'in_progress' | 'resolved' | 'closed';
export const BUG_STATUSES: { value: BugStatus; label: string }[] = [
  { value: 'open', label: 'Open' },
  { value: 'triaged', label: 'Triaged' },
  { value: 'in_progress', label: 'In progress' },
  { value: 'resolved', label: 'Resolved' },
  { value: 'closed', label: 'Closed' },
];
export const statusLabel = (s: string) => BUG_STATUSES.find((b) => b.value === s)?.label ?? s;
export const SEVERITY_COLOR: Record<string, string> = { low: 'gray', medium: 'yellow', high: 'orange', critical: 'red' };

export interface BugSummary {
  id: string;
  title: string;
  source: string;
  severity: string;
  status: BugStatus;
  occurrenceCount: number;
  createdAt: string;
}

export interface BugReport extends BugSummary {
  description: string | null;
  errorMessage: string | null;
  errorStack: string | null;
  errorCode: string | null;
  occurredAt: string;
  resolvedAt: string | null;
  reporter: { id: string; name: string } | null;
  userJourney: { recentActions: { id: string; summary: string; timestamp: string }[] } | null;
}

interface BugPage {
  items: BugSummary[];
  meta: { page: number; hasNextPage: boolean; hasPrevPage: boolean };
}

export const bugKeys = {
  all: (workspaceId: string) => ['settings', workspaceId, 'bug-reports'] as const,
  list: (workspaceId: string, status: string | null, page: number) => ['settings', workspaceId, 'bug-reports', 'list', status, page] as const,
  one: (workspaceId: string, id: string) => ['settings', workspaceId, 'bug-reports', 'one', id] as const,
};

/** Bug reports of this workspace (the `{ data, success, status }` envelope still unwraps through `data`). */
export function useBugReports(workspaceId: string, status: BugStatus | null, page: number) {
  return useQuery({
    queryKey: bugKeys.list(workspaceId, status, page),
    queryFn: async () =>
      (await data(api.POST('/api/bug-reports/list', { body: { workspaceId, page, limit: 20, ...(status ? { status } : {}) } }))) as BugPage,
    placeholderData: keepPreviousData,
  });
}

export function useBugReport(workspaceId: string, bugReportId: string) {
  return useQuery({
    queryKey: bugKeys.one(workspaceId, bugReportId),
    queryFn: async () => (await data(api.POST('/api/bug-reports/get', { body: { bugReportId } }))) as BugReport,
  });
}

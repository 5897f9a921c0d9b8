import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';

/** Local-sync answers are bare JSON (no `{ data }` envelope): read with `call`, shaped per local-sync.schema.ts. */
export interface SyncConnector {
  connectorId: string;
  name: string;
  platform: string;
  version: string;
  lastSeenAt: string;
  online: boolean;
}

export interface SyncSource {
  sourceId: string;
  name: string;
  mode: 'bidirectional' | 'push_only' | 'pull_only';
  connectorId: string | null;
  includePatterns: string[];
  excludePatterns: string[];
  paused: boolean;
  connector: SyncConnector | null;
  fileCount: number;
  openConflicts: number;
  createdAt: string;
}

export interface SyncConflict {
  conflictId: string;
  sourceId: string;
  relativePath: string;
  origin: 'push' | 'update';
  createdAt: string;
}

interface PreviewSide {
  contentHash: string | null;
  contentType: string;
  content: string | null;
  lines: string[];
}

export interface ConflictPreview {
  conflictId: string;
  relativePath: string;
  status: 'open' | 'resolved';
  binary: boolean;
  base: PreviewSide | null;
  local: PreviewSide | null;
  service: PreviewSide | null;
  clashes: number;
  mergeable: boolean;
  merged: string | null;
}

export const MODES = [
  { value: 'bidirectional', label: 'Both ways' },
  { value: 'push_only', label: 'Push only (folder → service)' },
  { value: 'pull_only', label: 'Pull only (service → folder)' },
];

export const syncKeys = {
  sources: (workspaceId: string) => ['settings', workspaceId, 'sync', 'sources'] as const,
  conflicts: (workspaceId: string, sourceId: string) => ['settings', workspaceId, 'sync', 'sources', sourceId, 'conflicts'] as const,
  preview: (workspaceId: string, conflictId: string) => ['settings', workspaceId, 'sync', 'preview', conflictId] as const,
};

export function useSyncSources(workspaceId: string) {
  return useQuery({
    queryKey: syncKeys.sources(workspaceId),
    queryFn: async () => ((await call(api.POST('/api/local-sync/sources/list', { body: { workspaceId } }))) as { sources: SyncSource[] }).sources,
  });
}

export function useConflicts(workspaceId: string, sourceId: string) {
  return useQuery({
    queryKey: syncKeys.conflicts(workspaceId, sourceId),
    queryFn: async () =>
      ((await call(api.POST('/api/local-sync/sources/conflicts', { body: { workspaceId, sourceId } }))) as { conflicts: SyncConflict[] }).conflicts,
  });
}

export function useConflictPreview(workspaceId: string, conflictId: string) {
  return useQuery({
    queryKey: syncKeys.preview(workspaceId, conflictId),
    queryFn: async () => (await call(api.POST('/api/local-sync/sources/conflicts/preview', { body: { workspaceId, conflictId } }))) as ConflictPreview,
  });
}

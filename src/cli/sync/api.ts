import type { Hunk } from '../../areas/local-sync/local-sync.merge.js';
import type { HttpClient } from './client.js';

/** The service's local-sync endpoints (docs/local-sync.md), typed for the connector. */

export interface ConnectorRecord {
  connectorId: string;
  name: string;
  platform: string;
  version: string;
  lastSeenAt: string | null;
  online: boolean;
}

export interface SourceRecord {
  sourceId: string;
  name: string;
  mode: 'bidirectional' | 'push_only' | 'pull_only' | string;
  connectorId: string | null;
  includePatterns: string[];
  excludePatterns: string[];
  paused: boolean;
  pausedAt: string | null;
  connector: ConnectorRecord | null;
  fileCount: number;
  openConflicts: number;
  lastCursor: string;
}

export interface PushItem {
  operationId: string;
  relativePath: string;
  content?: string;
  contentType?: string;
  contentHash?: string;
  baseHash?: string | null;
  isDelete?: boolean;
}

export interface PushResult {
  operationId: string;
  relativePath: string;
  status: 'applied' | 'unchanged' | 'conflict' | 'duplicate' | 'rejected';
  contentHash: string | null;
  conflictId: string | null;
  serviceHash: string | null;
  originalStatus?: string;
  error: { status: number; code: string; message: string; field?: string; reason?: string } | null;
}

export interface DeltaEvent {
  cursor: string;
  type: 'file.upsert' | 'file.delete' | 'conflict.opened' | 'conflict.resolved' | 'source.paused' | 'source.resumed' | string;
  sourceId: string;
  relativePath: string | null;
  contentHash: string | null;
  contentType: string | null;
  size: number | null;
  conflictId: string | null;
  localHash: string | null;
  serviceHash: string | null;
  baseHash: string | null;
  resolution: string | null;
  connectorId: string | null;
  userId: string | null;
  createdAt: string;
  /** With `includeContent`, on `file.upsert`. */
  content?: string;
}

export interface FileRecord {
  sourceId: string;
  relativePath: string;
  contentHash: string | null;
  contentType: string;
  size: number;
  deleted: boolean;
  version: number;
  conflictId: string | null;
  updatedAt: string;
}

export interface FileContent extends FileRecord {
  content: string;
}

export interface ConflictRecord {
  conflictId: string;
  sourceId: string;
  relativePath: string;
  localHash: string | null;
  serviceHash: string | null;
  baseHash: string | null;
  origin: 'push' | 'update';
  connectorId: string | null;
  createdAt: string;
}

export interface ResolveResult {
  conflictId: string;
  relativePath: string;
  resolution: string;
  status: 'resolved';
  contentHash: string | null;
  deleted: boolean;
  file: FileRecord;
}

export type Resolution = 'keep_local' | 'keep_service' | 'manual_merge';

export interface PreviewSide {
  contentHash: string | null;
  contentType: string;
  content: string | null;
  lines: string[];
}

/** A hunk of the three-way view: the service's own type (a type-only import: nothing of the service is loaded). */
export type MergeHunk = Hunk;

/** `sources/conflicts/preview`: the three-way view of a conflict and, when it merges cleanly, the merge. */
export interface ConflictPreview {
  conflictId: string;
  relativePath: string;
  status: 'open' | 'resolved';
  binary: boolean;
  base: PreviewSide | null;
  local: PreviewSide | null;
  service: PreviewSide | null;
  hunks: MergeHunk[];
  clashes: number;
  mergeable: boolean;
  merged: string | null;
}

export interface VersionRecord {
  versionId: string;
  contentHash: string | null;
  contentType: string;
  size: number;
  deleted: boolean;
  origin: 'push' | 'update' | 'resolve';
  userId: string | null;
  connectorId: string | null;
  conflictId: string | null;
  createdAt: string;
}

export function syncApi(http: HttpClient) {
  const p = <T>(path: string, body: unknown) => http.post<T>(`/local-sync${path}`, body);
  return {
    register: (body: { name: string; platform: string; version: string }) => p<ConnectorRecord>('/connectors/register', body),
    heartbeat: (connectorId: string) => p<ConnectorRecord>('/connectors/heartbeat', { connectorId }),
    createSource: (body: { name: string; mode: string; connectorId: string; includePatterns: string[]; excludePatterns: string[] }) =>
      p<SourceRecord>('/sources', body),
    listSources: () => p<{ sources: SourceRecord[] }>('/sources/list', {}),
    push: (sourceId: string, connectorId: string, items: PushItem[]) => p<{ results: PushResult[] }>('/sources/push-batch', { sourceId, connectorId, items }),
    deltas: (sourceId: string, cursor: string | null, limit: number, excludeConnectorId: string, includeContent = true) =>
      p<{ events: DeltaEvent[]; nextCursor: string; hasMore: boolean }>('/sources/deltas', {
        sourceId,
        ...(cursor ? { cursor } : {}),
        limit,
        excludeConnectorId,
        includeContent,
      }),
    /** The current version, or the version with `contentHash`. */
    file: (sourceId: string, relativePath: string, contentHash?: string) =>
      p<FileContent>('/sources/file', { sourceId, relativePath, ...(contentHash ? { contentHash } : {}) }),
    conflicts: (sourceId: string) => p<{ conflicts: ConflictRecord[] }>('/sources/conflicts', { sourceId }),
    resolve: (conflictId: string, resolution: Resolution, connectorId: string, merged?: { content: string; contentType: string }) =>
      p<ResolveResult>('/sources/conflicts/resolve', {
        conflictId,
        resolution,
        connectorId,
        ...(merged === undefined ? {} : { resolvedContent: merged.content, contentType: merged.contentType }),
      }),
    preview: (conflictId: string) => p<ConflictPreview>('/sources/conflicts/preview', { conflictId }),
    /** Versions of a path, newest first. */
    history: (sourceId: string, relativePath: string, limit: number, cursor?: string) =>
      p<{ versions: VersionRecord[]; nextCursor: string | null; hasMore: boolean }>('/sources/history', {
        sourceId,
        relativePath,
        limit,
        ...(cursor ? { cursor } : {}),
      }),
  };
}

export type SyncApi = ReturnType<typeof syncApi>;

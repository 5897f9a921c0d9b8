import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, UpdatedAt } from '../types.js';

export type SyncMode = 'bidirectional' | 'push_only' | 'pull_only';
/** A MIME type's essence (`text/markdown`, `image/png`) or the word `text` or `binary` (src/sync-rules/content.ts). */
export type SyncContentType = string;
export type SyncEventType = 'file.upsert' | 'file.delete' | 'conflict.opened' | 'conflict.resolved' | 'source.paused' | 'source.resumed';
export type SyncOrigin = 'push' | 'update' | 'resolve';
export type SyncResolution = 'keep_local' | 'keep_service' | 'manual_merge';

type Patterns = ColumnType<string[], string, string>;

export interface SyncConnectorTable {
  id: string;
  workspaceId: string;
  userId: string | null;
  name: string;
  platform: string;
  version: string;
  lastSeenAt: ColumnType<Date, Date | string, Date | string>;
  createdAt: CreatedAt;
}

export interface SyncSourceTable {
  id: string;
  workspaceId: string;
  name: string;
  mode: SyncMode;
  connectorId: string | null;
  includePatterns: Patterns;
  excludePatterns: Patterns;
  pausedAt: Date | null;
  pausedBy: string | null;
  createdBy: string | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

/** Content-addressed bytes: one row per distinct SHA-256 per workspace. */
export interface SyncBlobTable {
  workspaceId: string;
  hash: string;
  size: number;
  content: Buffer;
  createdAt: CreatedAt;
}

/** The current state of each path of a source (a tombstone when deleted). */
export interface SyncFileTable {
  sourceId: string;
  relativePath: string;
  workspaceId: string;
  contentHash: string | null;
  contentType: SyncContentType;
  size: number;
  deleted: boolean;
  version: number;
  updatedBy: string | null;
  updatedByConnector: string | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export interface SyncVersionTable {
  id: Generated<number>;
  workspaceId: string;
  sourceId: string;
  relativePath: string;
  contentHash: string | null;
  contentType: SyncContentType;
  size: number;
  deleted: boolean;
  origin: SyncOrigin;
  userId: string | null;
  connectorId: string | null;
  conflictId: string | null;
  createdAt: CreatedAt;
}

export interface SyncEventTable {
  seq: Generated<number>;
  workspaceId: string;
  sourceId: string;
  type: SyncEventType;
  relativePath: string | null;
  contentHash: string | null;
  contentType: SyncContentType | null;
  size: number | null;
  conflictId: string | null;
  localHash: string | null;
  serviceHash: string | null;
  baseHash: string | null;
  resolution: SyncResolution | null;
  userId: string | null;
  connectorId: string | null;
  createdAt: CreatedAt;
}

export interface SyncConflictTable {
  id: string;
  workspaceId: string;
  sourceId: string;
  relativePath: string;
  status: 'open' | 'resolved';
  origin: 'push' | 'update';
  localHash: string | null;
  localContentType: SyncContentType;
  serviceHash: string | null;
  serviceContentType: SyncContentType;
  baseHash: string | null;
  connectorId: string | null;
  createdBy: string | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
  resolution: SyncResolution | null;
  resolvedHash: string | null;
  resolvedBy: string | null;
  resolvedAt: Date | null;
}

/** Operation ids a source has answered (idempotency of push-batch). */
export interface SyncOperationTable {
  sourceId: string;
  operationId: string;
  workspaceId: string;
  status: 'applied' | 'unchanged' | 'conflict';
  contentHash: string | null;
  conflictId: string | null;
  createdAt: CreatedAt;
}

export interface LocalSyncTables {
  syncConnectors: SyncConnectorTable;
  syncSources: SyncSourceTable;
  syncBlobs: SyncBlobTable;
  syncFiles: SyncFileTable;
  syncVersions: SyncVersionTable;
  syncEvents: SyncEventTable;
  syncConflicts: SyncConflictTable;
  syncOperations: SyncOperationTable;
}

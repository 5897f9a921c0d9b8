import type { SyncContentType } from '../../db/tables/local-sync.js';
import { ONLINE_WINDOW_MS } from './local-sync.policy.js';

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();
const isoOrNull = (d: Date | string | null) => (d == null ? null : iso(d));

export const isOnline = (lastSeenAt: Date, now: Date) => now.getTime() - new Date(lastSeenAt).getTime() < ONLINE_WINDOW_MS;

export function presentConnector(
  r: { id: string; workspaceId: string; userId: string | null; name: string; platform: string; version: string; lastSeenAt: Date; createdAt: Date },
  now: Date,
) {
  return {
    connectorId: r.id,
    workspaceId: r.workspaceId,
    userId: r.userId,
    name: r.name,
    platform: r.platform,
    version: r.version,
    lastSeenAt: iso(r.lastSeenAt),
    online: isOnline(r.lastSeenAt, now),
    createdAt: iso(r.createdAt),
  };
}

export interface SourceListRow {
  id: string;
  workspaceId: string;
  name: string;
  mode: 'bidirectional' | 'push_only' | 'pull_only';
  connectorId: string | null;
  includePatterns: string[];
  excludePatterns: string[];
  pausedAt: Date | null;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
  cName: string | null;
  cPlatform: string | null;
  cVersion: string | null;
  cLastSeenAt: Date | null;
  fileCount: number;
  openConflicts: number;
  lastSeq: number | null;
}

export function presentSource(r: SourceListRow, now: Date) {
  return {
    sourceId: r.id,
    workspaceId: r.workspaceId,
    name: r.name,
    mode: r.mode,
    connectorId: r.connectorId,
    includePatterns: r.includePatterns,
    excludePatterns: r.excludePatterns,
    paused: r.pausedAt != null,
    pausedAt: isoOrNull(r.pausedAt),
    connector:
      r.connectorId && r.cLastSeenAt
        ? {
            connectorId: r.connectorId,
            name: r.cName as string,
            platform: r.cPlatform as string,
            version: r.cVersion as string,
            lastSeenAt: iso(r.cLastSeenAt),
            online: isOnline(r.cLastSeenAt, now),
          }
        : null,
    fileCount: Number(r.fileCount),
    openConflicts: Number(r.openConflicts),
    lastCursor: encodeSeq(r.lastSeq ?? 0),
    createdBy: r.createdBy,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  };
}

export function presentFile(
  f: {
    sourceId: string;
    relativePath: string;
    contentHash: string | null;
    contentType: SyncContentType;
    size: number;
    deleted: boolean;
    version: number;
    updatedAt: Date;
    updatedBy: string | null;
    updatedByConnector: string | null;
  },
  conflictId: string | null,
) {
  return {
    sourceId: f.sourceId,
    relativePath: f.relativePath,
    contentHash: f.deleted ? null : f.contentHash,
    contentType: f.contentType,
    size: f.deleted ? 0 : f.size,
    deleted: f.deleted,
    version: f.version,
    conflictId,
    updatedAt: iso(f.updatedAt),
    updatedBy: { userId: f.updatedBy, connectorId: f.updatedByConnector },
  };
}
export type FileRecord = ReturnType<typeof presentFile>;

export function presentConflict(c: {
  id: string;
  sourceId: string;
  relativePath: string;
  localHash: string | null;
  serviceHash: string | null;
  baseHash: string | null;
  localContentType: SyncContentType;
  serviceContentType: SyncContentType;
  origin: 'push' | 'update';
  connectorId: string | null;
  createdAt: Date;
}) {
  return {
    conflictId: c.id,
    sourceId: c.sourceId,
    relativePath: c.relativePath,
    localHash: c.localHash,
    serviceHash: c.serviceHash,
    baseHash: c.baseHash,
    localContentType: c.localContentType,
    serviceContentType: c.serviceContentType,
    origin: c.origin,
    connectorId: c.connectorId,
    createdAt: iso(c.createdAt),
  };
}

/** Cursors are opaque to clients; today a decimal sequence number. */
export const encodeSeq = (seq: number) => String(seq);
export function decodeSeq(cursor: string | null | undefined): number | null {
  if (cursor == null || cursor === '') return 0;
  if (!/^\d{1,18}$/.test(cursor)) return null;
  return Number(cursor);
}

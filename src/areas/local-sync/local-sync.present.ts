import type { Selectable } from 'kysely';
import type { SyncConnectorTable } from '../../db/tables/local-sync.js';
import type { ConflictRow, FileRow, VersionRow } from './local-sync.files.repo.js';
import { ONLINE_WINDOW_MS } from './local-sync.policy.js';
import type { SourceListRow } from './local-sync.repo.js';

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();
const isoOrNull = (d: Date | string | null) => (d == null ? null : iso(d));

export const isOnline = (lastSeenAt: Date, now: Date) => now.getTime() - new Date(lastSeenAt).getTime() < ONLINE_WINDOW_MS;

export function presentConnector(r: Selectable<SyncConnectorTable>, now: Date) {
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

export function presentFile(f: Omit<FileRow, 'conflictId'>, conflictId: string | null) {
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

export function presentConflict(c: ConflictRow) {
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

export function presentVersion(v: VersionRow) {
  return {
    versionId: String(v.id),
    contentHash: v.contentHash,
    contentType: v.contentType,
    size: v.size,
    deleted: v.deleted,
    origin: v.origin,
    userId: v.userId,
    connectorId: v.connectorId,
    conflictId: v.conflictId,
    createdAt: iso(v.createdAt),
  };
}

/** Cursors are opaque to clients; today a decimal sequence number. */
export const encodeSeq = (seq: number) => String(seq);
export function decodeSeq(cursor: string | null | undefined): number | null {
  if (cursor == null || cursor === '') return 0;
  if (!/^\d{1,18}$/.test(cursor)) return null;
  return Number(cursor);
}

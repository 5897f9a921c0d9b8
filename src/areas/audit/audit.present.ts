import type { AuditAction } from './audit.record.js';
import type { AuditKey, AuditRow } from './audit.repo.js';

/** An audit row as the interface shows it: the actor and target as small objects, never the raw row. */
export function presentAuditEntry(row: AuditRow) {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    action: row.action as AuditAction,
    actor: row.actorId && row.actorName !== null && row.actorEmail !== null ? { id: row.actorId, name: row.actorName, email: row.actorEmail } : null,
    target: row.targetType ? { type: row.targetType, id: row.targetId, name: row.targetName } : null,
    details: row.details,
    address: row.address,
    userAgent: row.userAgent,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Cursors are opaque to clients: today the last entry's exact time and id, base64url-encoded JSON. */
export function encodeAuditCursor(key: AuditKey): string {
  return Buffer.from(JSON.stringify([key.at, key.id])).toString('base64url');
}

/** The key a cursor names, or null when it is not one this service gave out. */
export function decodeAuditCursor(cursor: string): AuditKey | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return null;
    const [at, id] = value;
    if (typeof at !== 'string' || typeof id !== 'string' || id.length === 0 || id.length > 200) return null;
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(at) || Number.isNaN(Date.parse(at))) return null;
    return { at, id };
  } catch {
    return null;
  }
}

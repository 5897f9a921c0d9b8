import type { ListKey, NotificationRow } from './notifications.repo.js';

/** A notification as the interface shows it: who acted, what it is about, never the raw row. */
export function presentNotification(row: NotificationRow) {
  return {
    id: row.id,
    kind: row.kind,
    workspaceId: row.workspaceId,
    eventType: row.eventType,
    actor: row.actorId && row.actorName !== null ? { id: row.actorId, name: row.actorName } : null,
    subject: { type: row.subjectType, id: row.subjectId, title: row.title },
    pageId: row.pageId,
    spaceId: row.spaceId,
    readAt: row.readAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export type PresentedNotification = ReturnType<typeof presentNotification>;

/** Cursors are opaque to clients: today whether the last one was unread, and its id, as base64url JSON. */
export function encodeListCursor(key: ListKey): string {
  return Buffer.from(JSON.stringify([key.unread, key.id])).toString('base64url');
}

/** The key a cursor names, or null when it is not one this service gave out. */
export function decodeListCursor(cursor: string): ListKey | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return null;
    const [unread, id] = value;
    if ((unread !== 0 && unread !== 1) || typeof id !== 'string' || id.length === 0 || id.length > 200) return null;
    return { unread, id };
  } catch {
    return null;
  }
}

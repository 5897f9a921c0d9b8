import type { SessionVia } from '../../db/tables/auth.js';
import { deviceLabel } from './device-label.js';

interface SessionFields {
  id: string;
  via: SessionVia;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  userAgent: string | null;
  firstAddress: string | null;
  lastAddress: string | null;
}

export function presentSession(row: SessionFields, currentId: string | undefined) {
  return {
    id: row.id,
    device: deviceLabel(row.userAgent),
    userAgent: row.userAgent,
    address: row.lastAddress ?? row.firstAddress,
    firstAddress: row.firstAddress,
    via: row.via,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    current: row.id === currentId,
  };
}

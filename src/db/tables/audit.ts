import type { CreatedAt, Json } from '../types.js';

export interface AuditLogTable {
  id: string;
  /** The workspace the event belongs to; null for account events (sign-ins, sessions, keys, passwords); of these, a workspace's admins see only its members' sign-ins since joining. */
  workspaceId: string | null;
  /** Who acted; null when nobody is known (a failed sign-in with an unknown email). */
  actorId: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  details: Json;
  address: string | null;
  userAgent: string | null;
  createdAt: CreatedAt;
}

export interface AuditTables {
  auditLog: AuditLogTable;
}

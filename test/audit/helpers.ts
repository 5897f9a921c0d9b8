import { type AuditEntry, recordAudit } from '../../src/areas/audit/audit.record.js';
import type { Ctx } from '../../src/context.js';
import type { TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';

/** Reads the workspace's audit log over HTTP as `user`; fails the test on anything but 200. */
export async function auditLog(t: TestApp, user: TestUser, workspaceId: string, query: Record<string, string | string[]> = {}) {
  const res = await t.request({ url: '/api/v1/audit-log', token: user.token, query: { workspaceId, ...query } });
  if (res.status !== 200) throw new Error(`audit log failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { data: Entry[]; meta: { limit: number; hasMore: boolean; nextCursor: string | null } };
}

export interface Entry {
  id: string;
  workspaceId: string | null;
  action: string;
  actor: { id: string; name: string; email: string } | null;
  target: { type: string; id: string | null; name: string | null } | null;
  details: Record<string, unknown>;
  address: string | null;
  userAgent: string | null;
  createdAt: string;
}

/** The entries with this action (newest first). */
export async function entriesOf(t: TestApp, admin: TestUser, workspaceId: string, action: string) {
  return (await auditLog(t, admin, workspaceId, { action })).data;
}

/**
 * Writes an entry the way the auth area does (account events have no HTTP route of their own here): through
 * `recordAudit`, with an acting user and a client.
 */
export function recordAs(t: TestApp, actorId: string | null, entry: AuditEntry, address = '203.0.113.9') {
  const ctx: Pick<Ctx, 'actor' | 'client'> = {
    actor: actorId ? { userId: actorId, via: 'jwt', apiKeyId: null } : null,
    client: { address, userAgent: 'test-agent' },
  };
  return recordAudit(t.database.db, ctx, entry);
}

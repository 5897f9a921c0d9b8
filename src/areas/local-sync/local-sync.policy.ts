import { sql } from 'kysely';
import { type Ctx, requireActor } from '../../context.js';
import type { Db } from '../../db/index.js';
import type { SyncMode } from '../../db/tables/local-sync.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import { resolveWorkspaceId } from '../workspaces/workspace-context.js';
import { type Role, requireWorkspaceRole } from '../workspaces/workspaces.policy.js';

export interface SyncAccess {
  workspaceId: string;
  userId: string;
  role: Role;
}

/**
 * The workspace of a local-sync call (body `workspaceId`, else `x-workspace-id`, else the caller's only one) and
 * the caller's role in it: 404 unknown workspace, 403 not a member or below `min`. Every query after it names
 * this workspace, so an id of another workspace is a 404.
 */
export async function requireSyncRole(ctx: Ctx, body: { workspaceId?: string | null }, min: Role): Promise<SyncAccess> {
  const actor = requireActor(ctx);
  const workspaceId = await resolveWorkspaceId(ctx, body.workspaceId);
  const role = await requireWorkspaceRole(ctx, workspaceId, min);
  return { workspaceId, userId: actor.userId, role };
}

export type SourceRow = Awaited<ReturnType<typeof findSource>>;

/** A source of the workspace; with `lock`, its row is locked for the transaction (every write of a source takes it). */
export async function findSource(db: Db, workspaceId: string, sourceId: string, lock = false) {
  let q = db
    .selectFrom('syncSources')
    .select(['id', 'workspaceId', 'name', 'mode', 'connectorId', 'includePatterns', 'excludePatterns', 'pausedAt'])
    .where('id', '=', sourceId)
    .where('workspaceId', '=', workspaceId);
  if (lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  if (!row) throw notFound('Source', sourceId);
  return row;
}

/** A connector of the workspace (404 otherwise): its id, to attribute writes. */
export async function requireConnector(db: Db, workspaceId: string, connectorId: string): Promise<string> {
  const row = await db.selectFrom('syncConnectors').select('id').where('id', '=', connectorId).where('workspaceId', '=', workspaceId).executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND', 'Connector not found', { resource: 'Connector', id: connectorId, field: 'connectorId' });
  return row.id;
}

/** Marks a connector as seen now (register, heartbeat, a push naming it). */
export async function touchConnector(db: Db, workspaceId: string, connectorId: string, now: Date) {
  await db.updateTable('syncConnectors').set({ lastSeenAt: now }).where('id', '=', connectorId).where('workspaceId', '=', workspaceId).execute();
}

/** 403 when the source is paused: it accepts no writes and emits no events. */
export function assertNotPaused(source: { id: string; pausedAt: Date | null }) {
  if (source.pausedAt) throw forbidden('The source is paused: resume it to write to it', { reason: 'source_paused', sourceId: source.id });
}

/** 403 when the source's mode refuses the operation. */
export function assertModeAllows(source: { id: string; mode: SyncMode }, op: 'push' | 'service_edit') {
  if (op === 'push' && source.mode === 'pull_only')
    throw forbidden('This source is pull_only (a service → connector mirror): it refuses pushes', { reason: 'mode', mode: source.mode, sourceId: source.id });
  if (op === 'service_edit' && source.mode === 'push_only')
    throw forbidden('This source is push_only (a connector → service mirror): it refuses service-side edits', {
      reason: 'mode',
      mode: source.mode,
      sourceId: source.id,
    });
}

export const ONLINE_WINDOW_MS = 5 * 60 * 1000;

/** SQL: whether a connector's last_seen_at is within the online window. */
export const onlineSql = (column: string) => sql<boolean>`(${sql.ref(column)} > now() - interval '5 minutes')`;

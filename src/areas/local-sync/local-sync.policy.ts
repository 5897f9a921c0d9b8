import { type Ctx, requireActor } from '../../context.js';
import type { Db } from '../../db/index.js';
import type { SyncMode } from '../../db/tables/local-sync.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import { resolveWorkspaceId } from '../workspaces/workspace-context.js';
import { type Role, requireWorkspaceRole } from '../workspaces/workspaces.policy.js';
import { localSyncRepo } from './local-sync.repo.js';

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

export type SourceRow = Awaited<ReturnType<typeof requireSource>>;

/** A source of the workspace (404 otherwise); with `lock`, its row is locked for the transaction. */
export async function requireSource(db: Db, workspaceId: string, sourceId: string, lock = false) {
  const row = await localSyncRepo.findSource(db, workspaceId, sourceId, lock);
  if (!row) throw notFound('Source', sourceId);
  return row;
}

export const connectorNotFound = (connectorId: string) =>
  new AppError('NOT_FOUND', 'Connector not found', { resource: 'Connector', id: connectorId, field: 'connectorId' });

/** A connector of the workspace (404 otherwise): a source may name any member's connector. */
export async function requireConnector(db: Db, workspaceId: string, connectorId: string): Promise<string> {
  const row = await localSyncRepo.findConnector(db, workspaceId, connectorId);
  if (!row) throw connectorNotFound(connectorId);
  return row.id;
}

/**
 * The caller's own connector, for writes attributed to it (push-batch, resolve) and heartbeats: another user's
 * connector is answered 404 like an unknown one, so a member can neither act as someone else's connector nor
 * learn which ids exist.
 */
export async function requireOwnConnector(db: Db, access: SyncAccess, connectorId: string): Promise<string> {
  const row = await localSyncRepo.findConnector(db, access.workspaceId, connectorId);
  if (!row || row.userId !== access.userId) throw connectorNotFound(connectorId);
  return row.id;
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

/** A connector is online while it was seen within this window. */
export const ONLINE_WINDOW_MS = 5 * 60 * 1000;

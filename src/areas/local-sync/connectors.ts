import type { z } from 'zod';
import type { Ctx } from '../../context.js';
import { notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { requireSyncRole } from './local-sync.policy.js';
import { presentConnector } from './local-sync.present.js';
import type { ConnectorBody, RegisterBody } from './local-sync.schema.js';

const COLUMNS = ['id', 'workspaceId', 'userId', 'name', 'platform', 'version', 'lastSeenAt', 'createdAt'] as const;

/** Registers a connector instance of the caller in the workspace (any member: a read-only mirror needs one too). */
export async function registerConnector(ctx: Ctx, body: z.infer<typeof RegisterBody>) {
  const access = await requireSyncRole(ctx, body, 'viewer');
  const now = ctx.now();
  const row = await ctx.db
    .insertInto('syncConnectors')
    .values({
      id: newId(),
      workspaceId: access.workspaceId,
      userId: access.userId,
      name: body.name,
      platform: body.platform,
      version: body.version,
      lastSeenAt: now,
      createdAt: now,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return presentConnector(row, now);
}

/** Marks the connector as alive now. */
export async function heartbeat(ctx: Ctx, body: z.infer<typeof ConnectorBody>) {
  const access = await requireSyncRole(ctx, body, 'viewer');
  const now = ctx.now();
  const row = await ctx.db
    .updateTable('syncConnectors')
    .set({ lastSeenAt: now })
    .where('id', '=', body.connectorId)
    .where('workspaceId', '=', access.workspaceId)
    .returning(COLUMNS)
    .executeTakeFirst();
  if (!row) throw notFound('Connector', body.connectorId);
  return presentConnector(row, now);
}

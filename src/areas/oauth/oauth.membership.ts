import type { Ctx } from '../../context.js';
import type { Db } from '../../db/index.js';
import { recordAudit } from '../audit/audit.record.js';
import { oauthRepo } from './oauth.repo.js';

/**
 * A person left a workspace (or was removed): the apps they connected to it are disconnected in the same transaction,
 * each audited as `oauth.app_disconnected` with `by: 'membership_ended'`; the connections ended, for
 * `forgetEndedConnections` once the transaction is committed.
 */
export async function endMemberConnections(trx: Db, ctx: Ctx, workspaceId: string, userId: string) {
  const ended = await oauthRepo.revokeForMember(trx, workspaceId, userId, ctx.now());
  for (const row of ended)
    await recordAudit(trx, ctx, {
      workspaceId,
      action: 'oauth.app_disconnected',
      targetType: 'oauth_connection',
      targetId: row.id,
      details: { client: row.clientName, clientId: row.clientId, by: 'membership_ended' },
    });
  return ended.map((row) => row.id);
}

/** Their tokens are refused at once on this instance (within the token cache's ~10 s on others). */
export function forgetEndedConnections(ctx: Ctx, connectionIds: readonly string[]) {
  for (const id of connectionIds) ctx.env.connectedApps?.forgetConnection(id);
}

import { type Insertable, sql, type UpdateQueryBuilder } from 'kysely';
import type { Db } from '../../db/index.js';
import type { OAuthConnectionTable } from '../../db/tables/oauth.js';
import type { DB } from '../../db/types.js';
import { storedPayload, UNUSED_CLIENT_TTL_S } from './oauth.adapter.js';

type ConnectionUpdate = UpdateQueryBuilder<DB, 'oauthConnections', 'oauthConnections', object>;

/**
 * Marks the connections `which` selects disconnected (each once), drops every code and token of their grants, and
 * starts the unused-registration clock of the apps left with no connection; the connections ended.
 */
async function endConnections(db: Db, now: Date, which: (q: ConnectionUpdate) => ConnectionUpdate) {
  const rows = await which(db.updateTable('oauthConnections').set({ revokedAt: now }).where('revokedAt', 'is', null) as ConnectionUpdate)
    .returning(['id', 'userId', 'workspaceId', 'clientId', 'clientName'])
    .execute();
  if (!rows.length) return rows;
  await db
    .deleteFrom('oauthRecords')
    .where(
      'grantId',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
  await db
    .updateTable('oauthRecords as r')
    .set({ expiresAt: new Date(now.getTime() + UNUSED_CLIENT_TTL_S * 1000) })
    .where('r.model', '=', 'Client')
    .where('r.id', 'in', [...new Set(rows.map((r) => r.clientId))])
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('oauthConnections as c').select(sql`1`.as('one')).whereRef('c.clientId', '=', 'r.id').where('c.revokedAt', 'is', null))),
    )
    .execute();
  return rows;
}

/** kb's record of the apps people connected, and the one lookup the authenticator makes per (uncached) OAuth token. */
export const oauthRepo = {
  insertConnection(db: Db, row: Insertable<OAuthConnectionTable>) {
    return db.insertInto('oauthConnections').values(row).execute();
  },

  /** A person's connected apps that are still connected, newest first, with their workspace's name. */
  listConnections(db: Db, userId: string) {
    return db
      .selectFrom('oauthConnections as c')
      .innerJoin('workspaces as w', 'w.id', 'c.workspaceId')
      .select([
        'c.id',
        'c.clientId',
        'c.clientName',
        'c.clientUri',
        'c.registration',
        'c.workspaceId',
        'w.name as workspaceName',
        'c.scopes',
        'c.createdAt',
        'c.lastUsedAt',
      ])
      .where('c.userId', '=', userId)
      .where('c.revokedAt', 'is', null)
      .orderBy('c.createdAt', 'desc')
      .execute();
  },

  /** Marks a connection disconnected (once) and drops every code and token of its grant; the connection, or undefined if there was none to end. */
  async revoke(db: Db, id: string, now: Date, userId?: string) {
    const [row] = await endConnections(db, now, (q) => q.where('id', '=', id).$if(userId !== undefined, (w) => w.where('userId', '=', userId as string)));
    return row;
  },

  /** Ends every connection a person gave apps to one workspace (they left it, or were removed); the connections ended. */
  revokeForMember(db: Db, workspaceId: string, userId: string, now: Date) {
    return endConnections(db, now, (q) => q.where('workspaceId', '=', workspaceId).where('userId', '=', userId));
  },

  /** A dynamically registered app someone connected stays registered (the expiry `unusedClientExpiry` set is lifted). */
  keepClient(db: Db, clientId: string) {
    return db.updateTable('oauthRecords').set({ expiresAt: null }).where('model', '=', 'Client').where('id', '=', clientId).execute();
  },

  /** An access token (by its hash) with its connection: what a bearer OAuth token stands for. */
  findAccessToken(db: Db, tokenHash: string) {
    return db
      .selectFrom('oauthRecords as r')
      .innerJoin('oauthConnections as c', 'c.id', 'r.grantId')
      .select([storedPayload, 'r.expiresAt', 'c.id as connectionId', 'c.userId', 'c.workspaceId', 'c.scopes', 'c.revokedAt', 'c.lastUsedAt'])
      .where('r.model', '=', 'AccessToken')
      .where('r.id', '=', tokenHash)
      .executeTakeFirst();
  },

  touch(db: Db, connectionId: string, at: Date) {
    return db.updateTable('oauthConnections').set({ lastUsedAt: at }).where('id', '=', connectionId).execute();
  },
};

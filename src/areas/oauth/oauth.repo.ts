import type { Insertable } from 'kysely';
import type { Db } from '../../db/index.js';
import type { OAuthConnectionTable } from '../../db/tables/oauth.js';
import { storedPayload } from './oauth.adapter.js';

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
    const row = await db
      .updateTable('oauthConnections')
      .set({ revokedAt: now })
      .where('id', '=', id)
      .where('revokedAt', 'is', null)
      .$if(userId !== undefined, (q) => q.where('userId', '=', userId as string))
      .returning(['id', 'userId', 'workspaceId', 'clientId', 'clientName'])
      .executeTakeFirst();
    if (row) await db.deleteFrom('oauthRecords').where('grantId', '=', id).execute();
    return row;
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

import type { Db } from '../../db/index.js';
import type { ApiKeyAccess } from '../../db/types.js';

export const apiKeysRepo = {
  insert(
    db: Db,
    key: {
      id: string;
      userId: string;
      name: string;
      keyHash: string;
      keyPrefix: string;
      access: ApiKeyAccess;
      expiresAt: Date | null;
      workspaceId: string | null;
    },
  ) {
    return db.insertInto('apiKeys').values(key).returning(['id', 'name', 'createdAt', 'access', 'expiresAt', 'workspaceId']).executeTakeFirstOrThrow();
  },

  /** The user's unrevoked keys, counted with the user's row locked, so two concurrent creations cannot both pass the cap. */
  async lockAndCountActive(db: Db, userId: string): Promise<number> {
    await db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
    const row = await db
      .selectFrom('apiKeys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('userId', '=', userId)
      .where('revokedAt', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** The user's unrevoked keys, newest first, with the name of the workspace a key is limited to. */
  listForUser(db: Db, userId: string) {
    return db
      .selectFrom('apiKeys as k')
      .leftJoin('workspaces as w', 'w.id', 'k.workspaceId')
      .select(['k.id', 'k.name', 'k.keyPrefix', 'k.createdAt', 'k.lastUsedAt', 'k.access', 'k.expiresAt', 'k.workspaceId', 'w.name as workspaceName'])
      .where('k.userId', '=', userId)
      .where('k.revokedAt', 'is', null)
      .orderBy('k.createdAt', 'desc')
      .execute();
  },

  /** An unrevoked key by its hash, with its owner. */
  findActiveByHash(db: Db, keyHash: string) {
    return db
      .selectFrom('apiKeys')
      .select(['id', 'userId', 'lastUsedAt', 'access', 'expiresAt', 'workspaceId'])
      .where('keyHash', '=', keyHash)
      .where('revokedAt', 'is', null)
      .executeTakeFirst();
  },

  revoke(db: Db, id: string, userId: string, now: Date) {
    return db
      .updateTable('apiKeys')
      .set({ revokedAt: now })
      .where('id', '=', id)
      .where('userId', '=', userId)
      .where('revokedAt', 'is', null)
      .returning(['id', 'keyHash', 'workspaceId'])
      .executeTakeFirst();
  },

  /** Revokes every key of the user; answers their hashes, for the authenticator to forget. */
  async revokeAllForUser(db: Db, userId: string, now: Date): Promise<string[]> {
    const rows = await db
      .updateTable('apiKeys')
      .set({ revokedAt: now })
      .where('userId', '=', userId)
      .where('revokedAt', 'is', null)
      .returning('keyHash')
      .execute();
    return rows.map((r) => r.keyHash);
  },

  touch(db: Db, id: string, now: Date) {
    return db.updateTable('apiKeys').set({ lastUsedAt: now }).where('id', '=', id).execute();
  },
};

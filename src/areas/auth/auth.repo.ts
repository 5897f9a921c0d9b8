import type { Db } from '../../db/index.js';
import type { ApiKeyAccess } from '../../db/types.js';

export const apiKeysRepo = {
  insert(db: Db, key: { id: string; userId: string; name: string; keyHash: string; keyPrefix: string; access: ApiKeyAccess; expiresAt: Date | null }) {
    return db.insertInto('apiKeys').values(key).returning(['id', 'name', 'createdAt', 'access', 'expiresAt']).executeTakeFirstOrThrow();
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

  listForUser(db: Db, userId: string) {
    return db
      .selectFrom('apiKeys')
      .select(['id', 'name', 'keyPrefix', 'createdAt', 'lastUsedAt', 'access', 'expiresAt'])
      .where('userId', '=', userId)
      .where('revokedAt', 'is', null)
      .orderBy('createdAt', 'desc')
      .execute();
  },

  /** An unrevoked key by its hash, with its owner. */
  findActiveByHash(db: Db, keyHash: string) {
    return db
      .selectFrom('apiKeys')
      .select(['id', 'userId', 'lastUsedAt', 'access', 'expiresAt'])
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
      .returning(['id', 'keyHash'])
      .executeTakeFirst();
  },

  touch(db: Db, id: string, now: Date) {
    return db.updateTable('apiKeys').set({ lastUsedAt: now }).where('id', '=', id).execute();
  },
};

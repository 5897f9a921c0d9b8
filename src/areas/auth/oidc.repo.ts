import type { Db } from '../../db/index.js';

export const identitiesRepo = {
  /** The identity of (issuer, subject), with the user it signs in as. */
  find(db: Db, issuer: string, subject: string) {
    return db.selectFrom('userIdentities').select(['id', 'userId']).where('issuer', '=', issuer).where('subject', '=', subject).executeTakeFirst();
  },

  insert(db: Db, identity: { id: string; userId: string; issuer: string; subject: string; email: string | null; lastLoginAt: Date }) {
    return db.insertInto('userIdentities').values(identity).execute();
  },

  /** Records a sign-in, and the email the provider gives now (kept when it gives none). */
  touch(db: Db, id: string, email: string | null, now: Date) {
    return db
      .updateTable('userIdentities')
      .set({ lastLoginAt: now, ...(email ? { email } : {}) })
      .where('id', '=', id)
      .execute();
  },

  /** The user's identities at the configured provider (`issuer`), or at any provider when `issuer` is null. */
  async countForUser(db: Db, userId: string, issuer: string | null = null): Promise<number> {
    let q = db
      .selectFrom('userIdentities')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('userId', '=', userId);
    if (issuer !== null) q = q.where('issuer', '=', issuer);
    return Number((await q.executeTakeFirstOrThrow()).n);
  },
};

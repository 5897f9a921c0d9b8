import { sql } from 'kysely';
import type { Db } from '../../db/index.js';

/** Passwords and one-time reset links: the secrets of an account, kept apart from its profile (users.repo). */
export const credentialsRepo = {
  /** What single sign-on weighs before it lets the provider's person into an account: its email, password and verification. */
  accountOf(db: Db, userId: string) {
    return db.selectFrom('users').select(['id', 'email', 'passwordHash', 'emailVerifiedAt']).where('id', '=', userId).executeTakeFirst();
  },

  async passwordHashOf(db: Db, userId: string): Promise<string | null | undefined> {
    const row = await db.selectFrom('users').select('passwordHash').where('id', '=', userId).executeTakeFirst();
    return row?.passwordHash;
  },

  /**
   * Sets (or, with null, removes) the password, and voids the account's open reset links: a link dies with the password
   * it was made to replace, whichever way the password changes (a change, a reset, a single sign-on claim).
   */
  async setPasswordHash(db: Db, userId: string, passwordHash: string | null, now: Date) {
    await db.updateTable('users').set({ passwordHash, updatedAt: now }).where('id', '=', userId).execute();
    return credentialsRepo.voidResetLinks(db, userId, now);
  },

  /** Voids the user's open reset links (only those made in `workspaceId` when given); answers how many. */
  async voidResetLinks(db: Db, userId: string, now: Date, workspaceId?: string): Promise<number> {
    let q = db.updateTable('passwordResetLinks').set({ voidedAt: now }).where('userId', '=', userId).where('usedAt', 'is', null).where('voidedAt', 'is', null);
    if (workspaceId !== undefined) q = q.where('workspaceId', '=', workspaceId);
    const rows = await q.returning('id').execute();
    return rows.length;
  },

  voidResetLink(db: Db, id: string, now: Date) {
    return db.updateTable('passwordResetLinks').set({ voidedAt: now }).where('id', '=', id).execute();
  },

  /** A live link by its token's hash, locked until the transaction ends, with who made it and where. */
  findLiveResetLink(db: Db, tokenHash: string, now: Date) {
    return db
      .selectFrom('passwordResetLinks')
      .select(['id', 'userId', 'workspaceId', 'createdBy'])
      .where('tokenHash', '=', tokenHash)
      .where('usedAt', 'is', null)
      .where('voidedAt', 'is', null)
      .where('expiresAt', '>', now)
      .forUpdate()
      .executeTakeFirst();
  },

  /** Voids the user's unused links, then adds a new one: only the newest link works. */
  async replaceResetLink(db: Db, link: { id: string; userId: string; workspaceId: string; createdBy: string; tokenHash: string; expiresAt: Date }, now: Date) {
    await db
      .updateTable('passwordResetLinks')
      .set({ voidedAt: now })
      .where('userId', '=', link.userId)
      .where('usedAt', 'is', null)
      .where('voidedAt', 'is', null)
      .execute();
    await db.insertInto('passwordResetLinks').values(link).execute();
  },

  /** Marks a live link used, in one statement so two concurrent uses cannot both win; answers its user, or nothing. */
  useResetLink(db: Db, id: string, now: Date) {
    return db
      .updateTable('passwordResetLinks')
      .set({ usedAt: now })
      .where('id', '=', id)
      .where('usedAt', 'is', null)
      .where('voidedAt', 'is', null)
      .where('expiresAt', '>', now)
      .returning(['id', 'userId'])
      .executeTakeFirst();
  },

  /** How many workspaces `memberId` belongs to where `callerId` is not an admin. */
  async workspacesBeyondAdmin(db: Db, memberId: string, callerId: string): Promise<number> {
    const row = await db
      .selectFrom('workspaceMembers as m')
      .leftJoin('workspaceMembers as c', (j) => j.onRef('c.workspaceId', '=', 'm.workspaceId').on('c.userId', '=', callerId))
      .select(sql<number>`count(*)`.as('n'))
      .where('m.userId', '=', memberId)
      .where((eb) => eb.or([eb('c.role', 'is', null), eb('c.role', '<>', 'admin')]))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },
};

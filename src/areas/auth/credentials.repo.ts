import { sql } from 'kysely';
import type { Db } from '../../db/index.js';

/** Passwords and one-time reset links: the secrets of an account, kept apart from its profile (users.repo). */
export const credentialsRepo = {
  async passwordHashOf(db: Db, userId: string): Promise<string | null | undefined> {
    const row = await db.selectFrom('users').select('passwordHash').where('id', '=', userId).executeTakeFirst();
    return row?.passwordHash;
  },

  setPasswordHash(db: Db, userId: string, passwordHash: string, now: Date) {
    return db.updateTable('users').set({ passwordHash, updatedAt: now }).where('id', '=', userId).execute();
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
  useResetLink(db: Db, tokenHash: string, now: Date) {
    return db
      .updateTable('passwordResetLinks')
      .set({ usedAt: now })
      .where('tokenHash', '=', tokenHash)
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

import type { Db } from '../../db/index.js';
import type { SessionVia } from '../../db/tables/auth.js';

const LISTED = ['id', 'userId', 'via', 'createdAt', 'lastSeenAt', 'expiresAt', 'userAgent', 'firstAddress', 'lastAddress'] as const;

export const sessionsRepo = {
  insert(
    db: Db,
    session: { id: string; userId: string; via: SessionVia; expiresAt: Date; userAgent: string | null; firstAddress: string | null; lastSeenAt: Date },
  ) {
    return db
      .insertInto('sessions')
      .values({ ...session, lastAddress: session.firstAddress })
      .returning(['id'])
      .executeTakeFirstOrThrow();
  },

  /** A session by id, revoked or not: the authenticator decides what a revoked or expired one means. */
  find(db: Db, id: string) {
    return db.selectFrom('sessions').select(['id', 'userId', 'expiresAt', 'revokedAt', 'lastSeenAt']).where('id', '=', id).executeTakeFirst();
  },

  /** The user's unrevoked, unexpired sessions, most recently used first. */
  listActiveForUser(db: Db, userId: string, now: Date) {
    return db
      .selectFrom('sessions')
      .select(LISTED)
      .where('userId', '=', userId)
      .where('revokedAt', 'is', null)
      .where('expiresAt', '>', now)
      .orderBy('lastSeenAt', 'desc')
      .orderBy('id', 'desc')
      .execute();
  },

  /** Revokes the user's active sessions: one (`onlyId`), or all but `exceptId` (null: all). Answers the ids revoked. */
  async revoke(db: Db, userId: string, now: Date, which: { onlyId?: string; exceptId?: string | null }): Promise<string[]> {
    let q = db.updateTable('sessions').set({ revokedAt: now }).where('userId', '=', userId).where('revokedAt', 'is', null).where('expiresAt', '>', now);
    if (which.onlyId !== undefined) q = q.where('id', '=', which.onlyId);
    if (which.exceptId) q = q.where('id', '<>', which.exceptId);
    const rows = await q.returning(['id']).execute();
    return rows.map((r) => r.id);
  },

  /** Deletes the user's sessions that ended (expired or signed out) before `before`: the audit log keeps their story. */
  pruneEnded(db: Db, userId: string, before: Date) {
    return db
      .deleteFrom('sessions')
      .where('userId', '=', userId)
      .where((eb) => eb.or([eb('expiresAt', '<', before), eb('revokedAt', '<', before)]))
      .execute();
  },

  touch(db: Db, id: string, now: Date, address: string | null) {
    return db
      .updateTable('sessions')
      .set(address === null ? { lastSeenAt: now } : { lastSeenAt: now, lastAddress: address })
      .where('id', '=', id)
      .execute();
  },
};

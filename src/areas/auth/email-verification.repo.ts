import { sql } from 'kysely';
import type { Db } from '../../db/index.js';
import type { HourlyUse } from './hourly-limit.js';

/** One-time links that prove an account's holder reads its mailbox: only their tokens' sha256 is kept. */
export const emailVerificationsRepo = {
  insert(db: Db, row: { id: string; userId: string; email: string; tokenHash: string; expiresAt: Date }) {
    return db.insertInto('emailVerifications').values(row).execute();
  },

  /** The links made for the user since `since` (the hourly allowance), with the user's row locked so two requests count in turn. */
  async lockAndCountSince(db: Db, userId: string, since: Date): Promise<HourlyUse> {
    await db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
    const row = await db
      .selectFrom('emailVerifications')
      .select([sql<number>`count(*)::int`.as('n'), sql<Date | null>`min(created_at)`.as('oldest')])
      .where('userId', '=', userId)
      .where('createdAt', '>', since)
      .executeTakeFirstOrThrow();
    return { n: Number(row.n), oldest: row.oldest === null ? null : new Date(row.oldest) };
  },

  /** Marks a live link used, in one statement so two uses cannot both win; answers its user and the email it was mailed to. */
  use(db: Db, tokenHash: string, now: Date) {
    return db
      .updateTable('emailVerifications')
      .set({ usedAt: now })
      .where('tokenHash', '=', tokenHash)
      .where('usedAt', 'is', null)
      .where('expiresAt', '>', now)
      .returning(['id', 'userId', 'email'])
      .executeTakeFirst();
  },
};

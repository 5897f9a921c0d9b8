import { sql } from 'kysely';
import type { Db } from '../../db/index.js';
import type { InvitationRole } from '../../db/tables/invitations.js';
import type { HourlyUse } from '../auth/hourly-limit.js';

const COLUMNS = [
  'i.id',
  'i.workspaceId',
  'i.email',
  'i.role',
  'i.invitedBy',
  'i.createdAt',
  'i.expiresAt',
  'i.acceptedAt',
  'i.acceptedBy',
  'i.revokedAt',
  'i.declinedAt',
  'i.userId',
  'inviter.name as inviterName',
  'w.name as workspaceName',
  'w.hostname as workspaceHostname',
] as const;

/** Invitations with their workspace's name and their inviter's (null once that account is gone). */
const withInviter = (db: Db) =>
  db
    .selectFrom('invitations as i')
    .innerJoin('workspaces as w', 'w.id', 'i.workspaceId')
    .leftJoin('users as inviter', 'inviter.id', 'i.invitedBy')
    .select(COLUMNS);

/** Open invitations (neither accepted nor revoked) to this account, or to its email when that is verified. */
function forAccount<Q extends ReturnType<typeof withInviter>>(q: Q, account: { id: string; email: string; emailVerified: boolean }): Q {
  return q
    .where('i.acceptedAt', 'is', null)
    .where('i.revokedAt', 'is', null)
    .where((eb) =>
      account.emailVerified
        ? eb.or([eb('i.userId', '=', account.id), eb.and([eb('i.userId', 'is', null), eb('i.email', '=', account.email.toLowerCase())])])
        : eb('i.userId', '=', account.id),
    ) as Q;
}

export type InvitationRow = Awaited<ReturnType<typeof invitationsRepo.findInWorkspace>> & {};

export const invitationsRepo = {
  insert(
    db: Db,
    row: { id: string; workspaceId: string; email: string; role: InvitationRole; tokenHash: string; invitedBy: string; expiresAt: Date; userId: string | null },
  ) {
    return db.insertInto('invitations').values(row).execute();
  },

  /**
   * Invitations made in the last hour by `inviterId`, and in `workspaceId`, with the oldest of each: the hourly limits.
   * The inviter's and the workspace's rows are locked first (in that order, always), so two invitations count in turn
   * on every instance.
   */
  async lockAndCountSince(db: Db, inviterId: string, workspaceId: string, since: Date): Promise<{ byInviter: HourlyUse; inWorkspace: HourlyUse }> {
    await db.selectFrom('users').select('id').where('id', '=', inviterId).forUpdate().execute();
    await db.selectFrom('workspaces').select('id').where('id', '=', workspaceId).forUpdate().execute();
    const count = async (column: 'invitedBy' | 'workspaceId', value: string): Promise<HourlyUse> => {
      const row = await db
        .selectFrom('invitations')
        .select([sql<number>`count(*)::int`.as('n'), sql<Date | null>`min(created_at)`.as('oldest')])
        .where(column, '=', value)
        .where('createdAt', '>', since)
        .executeTakeFirstOrThrow();
      return { n: Number(row.n), oldest: row.oldest === null ? null : new Date(row.oldest) };
    };
    return { byInviter: await count('invitedBy', inviterId), inWorkspace: await count('workspaceId', workspaceId) };
  },

  /**
   * The open, unexpired invitations a signed-in person may answer without a link: those to their account (an add by
   * user id), and, once kb has verified their email, those to that address. Newest first.
   */
  listForAccount(db: Db, account: { id: string; email: string; emailVerified: boolean }, now: Date) {
    return forAccount(withInviter(db), account).where('i.expiresAt', '>', now).orderBy('i.createdAt', 'desc').orderBy('i.id', 'desc').execute();
  },

  /** One of `listForAccount`'s invitations by id (expired ones too, so the answer can say so); `lock` holds it until the transaction ends. */
  findForAccount(db: Db, account: { id: string; email: string; emailVerified: boolean }, id: string, lock = false) {
    let q = forAccount(withInviter(db), account).where('i.id', '=', id);
    if (lock) q = q.forUpdate('i');
    return q.executeTakeFirst();
  },

  /** The person declined: the invitation closes like a revoked one (its link dies), and says why. */
  decline(db: Db, workspaceId: string, id: string, now: Date) {
    return db
      .updateTable('invitations')
      .set({ revokedAt: now, declinedAt: now })
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', id)
      .where('acceptedAt', 'is', null)
      .where('revokedAt', 'is', null)
      .execute();
  },

  /** Revokes the open invitations of this address to this workspace (at most one); answers their ids. */
  async revokeOpenForEmail(db: Db, workspaceId: string, email: string, now: Date): Promise<string[]> {
    const rows = await db
      .updateTable('invitations')
      .set({ revokedAt: now })
      .where('workspaceId', '=', workspaceId)
      .where('email', '=', email)
      .where('acceptedAt', 'is', null)
      .where('revokedAt', 'is', null)
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  },

  /** Neither accepted nor revoked (expired ones included, so an admin sees them and invites again), newest first. */
  listOpen(db: Db, workspaceId: string) {
    return withInviter(db)
      .where('i.workspaceId', '=', workspaceId)
      .where('i.acceptedAt', 'is', null)
      .where('i.revokedAt', 'is', null)
      .orderBy('i.createdAt', 'desc')
      .orderBy('i.id', 'desc')
      .execute();
  },

  findInWorkspace(db: Db, workspaceId: string, id: string) {
    return withInviter(db).where('i.workspaceId', '=', workspaceId).where('i.id', '=', id).executeTakeFirst();
  },

  /** The invitation of a link, with what its page shows; `lock` holds the row until the accepting transaction ends. */
  findByTokenHash(db: Db, tokenHash: string, lock = false) {
    let q = withInviter(db).where('i.tokenHash', '=', tokenHash);
    if (lock) q = q.forUpdate('i');
    return q.executeTakeFirst();
  },

  revoke(db: Db, workspaceId: string, id: string, now: Date) {
    return db
      .updateTable('invitations')
      .set({ revokedAt: now })
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', id)
      .where('acceptedAt', 'is', null)
      .where('revokedAt', 'is', null)
      .execute();
  },

  markAccepted(db: Db, workspaceId: string, id: string, userId: string, now: Date) {
    return db.updateTable('invitations').set({ acceptedAt: now, acceptedBy: userId }).where('workspaceId', '=', workspaceId).where('id', '=', id).execute();
  },

  /** Whether an account with this email (any case) is a member of the workspace. */
  async isMemberByEmail(db: Db, workspaceId: string, email: string): Promise<boolean> {
    const row = await db
      .selectFrom('workspaceMembers as m')
      .innerJoin('users as u', 'u.id', 'm.userId')
      .select('m.userId')
      .where('m.workspaceId', '=', workspaceId)
      .where(sql`lower(u.email)`, '=', email.toLowerCase())
      .executeTakeFirst();
    return row !== undefined;
  },
};

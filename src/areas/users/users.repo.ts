import { sql } from 'kysely';
import type { Db } from '../../db/index.js';
import { type MemberScope, withinKeyScopeSql } from '../workspaces/member-scope.js';

const USER_COLUMNS = ['users.id', 'users.email', 'users.name', 'users.avatarUrl', 'users.emailVerifiedAt', 'users.createdAt'] as const;

export const usersRepo = {
  findById(db: Db, id: string) {
    return db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
  },

  findByEmail(db: Db, email: string) {
    return db
      .selectFrom('users')
      .select([...USER_COLUMNS, 'users.passwordHash'])
      .where(sql`lower(email)`, '=', email.toLowerCase())
      .executeTakeFirst();
  },

  insert(db: Db, user: { id: string; email: string; name: string; passwordHash: string | null; emailVerifiedAt?: Date | null }) {
    return db.insertInto('users').values(user).returning(USER_COLUMNS).executeTakeFirstOrThrow();
  },

  /** Records that the account's holder proved its mailbox (kept when it was proved before). */
  markEmailVerified(db: Db, id: string, now: Date) {
    return db.updateTable('users').set({ emailVerifiedAt: now }).where('id', '=', id).where('emailVerifiedAt', 'is', null).execute();
  },

  update(db: Db, id: string, patch: { name?: string; avatarUrl?: string | null }, now: Date) {
    return db
      .updateTable('users')
      .set({ ...patch, updatedAt: now })
      .where('id', '=', id)
      .returning(USER_COLUMNS)
      .executeTakeFirstOrThrow();
  },

  /** Members of a workspace, optionally matching `query` in name or email, with their role there. */
  listInWorkspace(db: Db, workspaceId: string, query: string | undefined, limit: number) {
    let q = db
      .selectFrom('workspaceMembers as m')
      .innerJoin('users', 'users.id', 'm.userId')
      .select([...USER_COLUMNS, 'm.role'])
      .where('m.workspaceId', '=', workspaceId);
    if (query) {
      const pattern = `%${query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q = q.where((eb) => eb.or([eb(sql`lower(users.name)`, 'like', pattern), eb(sql`lower(users.email)`, 'like', pattern)]));
    }
    return q.orderBy('users.name').orderBy('users.id').limit(limit).execute();
  },

  /** A user as seen by `viewer`: themselves, or someone sharing a workspace with them (within the viewer's key scope). */
  findVisibleTo(db: Db, userId: string, viewer: MemberScope) {
    const viewerId = viewer.userId;
    return db
      .selectFrom('users')
      .select(USER_COLUMNS)
      .where('users.id', '=', userId)
      .where((eb) =>
        eb.or([
          eb('users.id', '=', viewerId),
          eb.exists(
            eb
              .selectFrom('workspaceMembers as a')
              .innerJoin('workspaceMembers as b', 'b.workspaceId', 'a.workspaceId')
              .select(sql`1`.as('one'))
              .where('a.userId', '=', userId)
              .where('b.userId', '=', viewerId)
              .where(withinKeyScopeSql(sql.ref('b.workspace_id'), viewer.keyWorkspaceId)),
          ),
        ]),
      )
      .executeTakeFirst();
  },
};

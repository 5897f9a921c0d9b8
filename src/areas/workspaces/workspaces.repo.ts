import { sql } from 'kysely';
import { compiledOnce } from '../../db/compiled.js';
import type { Db } from '../../db/index.js';
import type { Role } from '../../db/tables/spaces.js';
import { type MemberScope, withinKeyScopeSql } from './member-scope.js';

// memberCount is kept on the row by a trigger on workspace_members (migration 0013).
const WORKSPACE_COLUMNS = ['w.id', 'w.name', 'w.hostname', 'w.description', 'w.logoUrl', 'w.settings', 'w.memberCount', 'w.createdAt', 'w.updatedAt'] as const;

/** On every workspace-scoped request's path: compiled once. */
const findForUser = compiledOnce((db: Db, workspaceId: string, userId: string, keyWorkspaceId: string | null) =>
  db
    .selectFrom('workspaces as w')
    .leftJoin('workspaceMembers as m', (j) =>
      j
        .onRef('m.workspaceId', '=', 'w.id')
        .on('m.userId', '=', userId)
        .on(withinKeyScopeSql(sql.ref('m.workspace_id'), keyWorkspaceId)),
    )
    .select([...WORKSPACE_COLUMNS, 'm.role'])
    .where('w.id', '=', workspaceId),
);

export const workspacesRepo = {
  /** The workspace with the member's role in it (null for a non-member, or outside their key's scope) and its member count, in one query. */
  async findForUser(db: Db, workspaceId: string, member: MemberScope) {
    return (await findForUser(db, workspaceId, member.userId, member.keyWorkspaceId))[0];
  },

  /** The member's workspaces, within their key's scope. */
  listForUser(db: Db, member: MemberScope) {
    return db
      .selectFrom('workspaceMembers as m')
      .innerJoin('workspaces as w', 'w.id', 'm.workspaceId')
      .select([...WORKSPACE_COLUMNS, 'm.role'])
      .where('m.userId', '=', member.userId)
      .where(withinKeyScopeSql(sql.ref('m.workspace_id'), member.keyWorkspaceId))
      .orderBy('w.createdAt')
      .orderBy('w.id')
      .execute();
  },

  /** A workspace named by its id or its hostname (the `kb` command accepts either). */
  findByIdOrHostname(db: Db, idOrHostname: string) {
    return db
      .selectFrom('workspaces')
      .select(['id', 'name', 'hostname'])
      .where((eb) => eb.or([eb('id', '=', idOrHostname), eb('hostname', '=', idOrHostname)]))
      .executeTakeFirst();
  },

  insert(db: Db, w: { id: string; name: string; hostname: string; description: string | null; logoUrl: string | null; settings: object }) {
    return db
      .insertInto('workspaces')
      .values({ ...w, settings: JSON.stringify(w.settings) })
      .execute();
  },

  update(db: Db, id: string, patch: { name?: string; description?: string | null; logoUrl?: string | null; settings?: object }, now: Date) {
    const { settings, ...rest } = patch;
    return db
      .updateTable('workspaces')
      .set({ ...rest, ...(settings ? { settings: JSON.stringify(settings) } : {}), updatedAt: now })
      .where('id', '=', id)
      .execute();
  },

  listMembers(db: Db, workspaceId: string) {
    return db
      .selectFrom('workspaceMembers as m')
      .innerJoin('users as u', 'u.id', 'm.userId')
      .select(['u.id', 'u.email', 'u.name', 'u.avatarUrl', 'm.role', 'm.joinedAt'])
      .where('m.workspaceId', '=', workspaceId)
      .orderBy('m.joinedAt')
      .orderBy('u.id')
      .execute();
  },

  findMember(db: Db, workspaceId: string, userId: string) {
    return db
      .selectFrom('workspaceMembers as m')
      .innerJoin('users as u', 'u.id', 'm.userId')
      .select(['u.id', 'u.email', 'u.name', 'u.avatarUrl', 'm.role', 'm.joinedAt'])
      .where('m.workspaceId', '=', workspaceId)
      .where('m.userId', '=', userId)
      .executeTakeFirst();
  },

  insertMember(db: Db, workspaceId: string, userId: string, role: Role) {
    return db.insertInto('workspaceMembers').values({ workspaceId, userId, role }).execute();
  },

  setMemberRole(db: Db, workspaceId: string, userId: string, role: Role) {
    return db.updateTable('workspaceMembers').set({ role }).where('workspaceId', '=', workspaceId).where('userId', '=', userId).execute();
  },

  deleteMember(db: Db, workspaceId: string, userId: string) {
    return db.deleteFrom('workspaceMembers').where('workspaceId', '=', workspaceId).where('userId', '=', userId).execute();
  },

  /** Locks the workspace's admin rows and counts them, so two concurrent demotions cannot both pass the last-admin rule. */
  async lockAdminCount(db: Db, workspaceId: string): Promise<number> {
    const rows = await db
      .selectFrom('workspaceMembers')
      .select('userId')
      .where('workspaceId', '=', workspaceId)
      .where('role', '=', 'admin')
      .forUpdate()
      .execute();
    return rows.length;
  },
};

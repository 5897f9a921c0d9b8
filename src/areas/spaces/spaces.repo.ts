import { sql } from 'kysely';
import type { Db } from '../../db/index.js';
import type { Role } from '../../db/tables/spaces.js';
import { pageOpenToSql } from '../pages/page-access.sql.js';
import { readableSpaceIds } from './spaces.access.js';

const SPACE_COLUMNS = [
  's.id',
  's.workspaceId',
  's.name',
  's.slug',
  's.description',
  's.icon',
  's.visibility',
  's.createdBy',
  's.createdAt',
  's.updatedAt',
] as const;

/** Live pages of the space the user may open (the trash and pages restricted away from them excluded). */
const pageCountFor = (userId: string) =>
  sql<number>`(select count(*)::int from pages p where p.space_id = s.id and p.workspace_id = s.workspace_id and p.deleted_at is null
    and ${pageOpenToSql(sql.ref('p.id'), sql.ref('s.workspace_id'), userId)})`.as('pageCount');

/** Distinct workspace members holding a role in the space, directly or through a group. */
const memberCount = sql<number>`(select count(distinct x.user_id)::int from (
    select sm.user_id from space_members sm where sm.space_id = s.id and sm.workspace_id = s.workspace_id and sm.user_id is not null
    union
    select gm.user_id from space_members sm
      join group_members gm on gm.group_id = sm.group_id and gm.workspace_id = sm.workspace_id
      where sm.space_id = s.id and sm.workspace_id = s.workspace_id
  ) x join workspace_members wm on wm.workspace_id = s.workspace_id and wm.user_id = x.user_id)`.as('memberCount');

export interface SpacePatch {
  name?: string;
  description?: string | null;
  icon?: string | null;
  visibility?: 'public' | 'private';
}

export const spacesRepo = {
  /** The spaces of the workspace the user may read, with their page counts: one query, filtered in SQL. */
  listReadable(db: Db, workspaceId: string, userId: string) {
    return db
      .selectFrom('spaces as s')
      .select([...SPACE_COLUMNS, pageCountFor(userId)])
      .where('s.workspaceId', '=', workspaceId)
      .where('s.id', 'in', readableSpaceIds(db, workspaceId, userId))
      .orderBy('s.name')
      .orderBy('s.id')
      .execute();
  },

  findWithCounts(db: Db, workspaceId: string, spaceId: string, userId: string) {
    return db
      .selectFrom('spaces as s')
      .select([...SPACE_COLUMNS, pageCountFor(userId), memberCount])
      .where('s.workspaceId', '=', workspaceId)
      .where('s.id', '=', spaceId)
      .executeTakeFirst();
  },

  /** The workspace of a space, for routes that name none. */
  async workspaceOf(db: Db, spaceId: string): Promise<string | undefined> {
    const row = await db.selectFrom('spaces').select('workspaceId').where('id', '=', spaceId).executeTakeFirst();
    return row?.workspaceId;
  },

  /** Slugs of the workspace equal to `base` or `base-<n>`. */
  async slugsLike(db: Db, workspaceId: string, base: string): Promise<string[]> {
    const pattern = `${base.replace(/[\\%_]/g, (c) => `\\${c}`)}-%`;
    const rows = await db
      .selectFrom('spaces')
      .select('slug')
      .where('workspaceId', '=', workspaceId)
      .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', pattern)]))
      .execute();
    return rows.map((r) => r.slug);
  },

  insert(
    db: Db,
    space: {
      id: string;
      workspaceId: string;
      name: string;
      slug: string;
      description: string | null;
      icon: string | null;
      visibility: 'public' | 'private';
      createdBy: string;
    },
  ) {
    return db.insertInto('spaces').values(space).execute();
  },

  update(db: Db, workspaceId: string, spaceId: string, patch: SpacePatch, now: Date) {
    return db
      .updateTable('spaces')
      .set({ ...patch, updatedAt: now })
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', spaceId)
      .execute();
  },

  /** Deletes the space; its pages, their history, comments and attachments, and its memberships go by FK cascade. */
  delete(db: Db, workspaceId: string, spaceId: string) {
    return db.deleteFrom('spaces').where('workspaceId', '=', workspaceId).where('id', '=', spaceId).executeTakeFirst();
  },

  /**
   * Every role grant that reaches a user: direct ones (groupId null) and those through groups, for users who are
   * still workspace members. One row per (user, grant).
   */
  listMemberGrants(db: Db, workspaceId: string, spaceId: string) {
    const direct = db
      .selectFrom('spaceMembers as sm')
      .select(['sm.userId as userId', 'sm.role', 'sm.addedAt', sql<string | null>`null::text`.as('groupId')])
      .where('sm.spaceId', '=', spaceId)
      .where('sm.workspaceId', '=', workspaceId)
      .where('sm.userId', 'is not', null);
    const viaGroups = db
      .selectFrom('spaceMembers as sm')
      .innerJoin('groupMembers as gm', (j) => j.onRef('gm.groupId', '=', 'sm.groupId').onRef('gm.workspaceId', '=', 'sm.workspaceId'))
      .select(['gm.userId as userId', 'sm.role', sql<Date>`greatest(sm.added_at, gm.added_at)`.as('addedAt'), 'sm.groupId'])
      .where('sm.spaceId', '=', spaceId)
      .where('sm.workspaceId', '=', workspaceId);
    return db
      .selectFrom(direct.unionAll(viaGroups).as('g'))
      .innerJoin('users as u', 'u.id', 'g.userId')
      .innerJoin('workspaceMembers as wm', (j) => j.onRef('wm.userId', '=', 'g.userId').on('wm.workspaceId', '=', workspaceId))
      .select(['u.id', 'u.name', 'u.email', 'u.avatarUrl', 'g.role', 'g.addedAt', 'g.groupId'])
      .orderBy('g.addedAt')
      .orderBy('u.id')
      .execute();
  },

  /** The direct grants of the space: users and groups, with their names. */
  listPermissions(db: Db, workspaceId: string, spaceId: string) {
    return db
      .selectFrom('spaceMembers as sm')
      .leftJoin('users as u', 'u.id', 'sm.userId')
      .leftJoin('groups as g', (j) => j.onRef('g.id', '=', 'sm.groupId').onRef('g.workspaceId', '=', 'sm.workspaceId'))
      .select(['sm.spaceId', 'sm.userId', 'sm.groupId', 'sm.role', 'sm.addedAt', 'u.name as userName', 'g.name as groupName'])
      .where('sm.spaceId', '=', spaceId)
      .where('sm.workspaceId', '=', workspaceId)
      .orderBy('sm.addedAt')
      .orderBy('sm.id')
      .execute();
  },

  /** Sets the role of users and groups in the space, adding the missing grants. */
  async upsertGrants(
    db: Db,
    grants: { id: string; spaceId: string; workspaceId: string; userId: string | null; groupId: string | null; role: Role; addedBy: string }[],
  ) {
    for (const column of ['userId', 'groupId'] as const) {
      const rows = grants.filter((g) => g[column] !== null);
      if (!rows.length) continue;
      await db
        .insertInto('spaceMembers')
        .values(rows)
        .onConflict((oc) => oc.columns(['spaceId', column]).doUpdateSet((eb) => ({ role: eb.ref('excluded.role') })))
        .execute();
    }
  },

  /** Removes the direct grant of a user or a group; the number of rows removed. */
  async deleteGrant(db: Db, workspaceId: string, spaceId: string, targetId: string): Promise<number> {
    const res = await db
      .deleteFrom('spaceMembers')
      .where('workspaceId', '=', workspaceId)
      .where('spaceId', '=', spaceId)
      .where((eb) => eb.or([eb('userId', '=', targetId), eb('groupId', '=', targetId)]))
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  },

  /** Removes every direct space grant of a user in the workspace (they are leaving it). */
  deleteUserGrants(db: Db, workspaceId: string, userId: string) {
    return db.deleteFrom('spaceMembers').where('workspaceId', '=', workspaceId).where('userId', '=', userId).execute();
  },

  /** Of `userIds`, those who are members of the workspace. */
  async workspaceMemberIds(db: Db, workspaceId: string, userIds: string[]): Promise<Set<string>> {
    if (!userIds.length) return new Set();
    const rows = await db.selectFrom('workspaceMembers').select('userId').where('workspaceId', '=', workspaceId).where('userId', 'in', userIds).execute();
    return new Set(rows.map((r) => r.userId));
  },

  /** Of `groupIds`, those that are groups of the workspace. */
  async workspaceGroupIds(db: Db, workspaceId: string, groupIds: string[]): Promise<Set<string>> {
    if (!groupIds.length) return new Set();
    const rows = await db.selectFrom('groups').select('id').where('workspaceId', '=', workspaceId).where('id', 'in', groupIds).execute();
    return new Set(rows.map((r) => r.id));
  },
};

import { sql } from 'kysely';
import type { Db } from '../../../db/index.js';
import { newId } from '../../../ids.js';
import { roleRankSql, spaceRankSql } from '../../spaces/spaces.access.js';
import { pageOpenToSql } from '../page-access.sql.js';

/** A grant as the service hands it in: one user or one group, as viewer or editor. */
export interface GrantInput {
  userId: string | null;
  groupId: string | null;
  role: 'viewer' | 'editor';
}

/** A workspace member who can see the page's space, with what gives them that (before restrictions). */
export interface SpaceReader {
  id: string;
  name: string;
  email: string;
  workspaceRole: 'viewer' | 'editor' | 'admin';
  directRank: number | null;
  groupRank: number | null;
  groupName: string | null;
}

/** The best space rank a user holds through a group of `space_id`, with that group's name (the highest, then by name). */
const groupSpaceGrant = (spaceId: string) => sql`(select ${roleRankSql(sql.ref('gsm.role'))} as rank, g.name from space_members gsm
  join group_members ggm on ggm.group_id = gsm.group_id and ggm.workspace_id = gsm.workspace_id
  join groups g on g.id = gsm.group_id
  where gsm.space_id = ${spaceId} and ggm.user_id = wm.user_id
  order by 1 desc, g.name limit 1)`;

/** What carrying a subtree away would do (see `restrictionsRepo.carried`). */
export interface CarriedSubtree {
  /** Pages of the subtree closed to the actor. */
  closed: number;
  /** Restricted pages of the subtree whose own grantees the new parent's restrictions would shut out, and those grantees. */
  lockedPageIds: string[];
  lockedUserIds: string[];
}

/** The user (a column) holds a grant, directly or through a group, on the restriction of page `restrictionRef` (a column). */
const grantedOnSql = (restrictionRef: ReturnType<typeof sql.ref>, userRef: ReturnType<typeof sql.ref>, workspaceId: string) =>
  sql`exists (select 1 from page_restriction_grants cq where cq.page_id = ${restrictionRef}
    and (cq.user_id = ${userRef} or cq.group_id in (select cgm.group_id from group_members cgm where cgm.user_id = ${userRef} and cgm.workspace_id = ${workspaceId})))`;

/** For a user column: true when they hold a grant on every restriction above page `pageId`. */
const openToUserRef = (pageId: string) => sql`not exists (select 1 from page_restricted_by prb
  where prb.page_id = ${pageId}
    and not exists (select 1 from page_restriction_grants prg
      where prg.page_id = prb.restriction_page_id
        and (prg.user_id = wm.user_id
          or prg.group_id in (select gm.group_id from group_members gm where gm.user_id = wm.user_id and gm.workspace_id = wm.workspace_id))))`;

export const restrictionsRepo = {
  /** Drops a leaving member's own grants (group grants stay with the group): re-adding them later gives nothing back. */
  deleteUserGrants(db: Db, workspaceId: string, userId: string) {
    return db.deleteFrom('pageRestrictionGrants').where('workspaceId', '=', workspaceId).where('userId', '=', userId).execute();
  },

  /** The page's own restriction (undefined when it has none). */
  findOwn(db: Db, pageId: string) {
    return db.selectFrom('pageRestrictions').selectAll().where('pageId', '=', pageId).executeTakeFirst();
  },

  /** The grants of a restriction with their grantees' names, users first then groups, each by name. */
  grantsOf(db: Db, pageId: string) {
    return db
      .selectFrom('pageRestrictionGrants as prg')
      .leftJoin('users as u', 'u.id', 'prg.userId')
      .leftJoin('groups as g', 'g.id', 'prg.groupId')
      .select(['prg.userId', 'prg.groupId', 'prg.role', 'u.name as userName', 'u.email as userEmail', 'g.name as groupName'])
      .where('prg.pageId', '=', pageId)
      .orderBy(sql`prg.user_id is null`)
      .orderBy(sql`coalesce(u.name, g.name)`)
      .execute();
  },

  /** The restricted pages above the page (each restriction it inherits), by title. */
  inheritedOf(db: Db, pageId: string) {
    return db
      .selectFrom('pageRestrictedBy as prb')
      .innerJoin('pages as p', 'p.id', 'prb.restrictionPageId')
      .select(['p.id as pageId', 'p.title'])
      .where('prb.pageId', '=', pageId)
      .where('prb.restrictionPageId', '<>', pageId)
      .orderBy('p.title')
      .execute();
  },

  /**
   * Every grant of every restriction on the page's path, expanded to the users it reaches (a group's members), for
   * working out each reader's cap and why.
   */
  pathGrants(db: Db, pageId: string) {
    return sql<{ restrictionPageId: string; role: 'viewer' | 'editor'; userId: string; groupName: string | null }>`
      select prb.restriction_page_id as "restrictionPageId", prg.role, coalesce(prg.user_id, gm.user_id) as "userId", g.name as "groupName"
      from page_restricted_by prb
      join page_restriction_grants prg on prg.page_id = prb.restriction_page_id
      left join groups g on g.id = prg.group_id
      left join group_members gm on gm.group_id = prg.group_id and gm.workspace_id = prg.workspace_id
      where prb.page_id = ${pageId} and coalesce(prg.user_id, gm.user_id) is not null`
      .execute(db)
      .then((r) => r.rows);
  },

  /** The restrictions on the page's path (its own included). */
  async pathRestrictionIds(db: Db, pageId: string): Promise<string[]> {
    const rows = await db.selectFrom('pageRestrictedBy').select('restrictionPageId').where('pageId', '=', pageId).execute();
    return rows.map((r) => r.restrictionPageId);
  },

  /**
   * Workspace members who can read the space and whom no restriction on the page's path shuts out, by name, at most
   * `limit`: the candidates for "who has access".
   */
  spaceReaders(db: Db, at: { workspaceId: string; spaceId: string; visibility: 'public' | 'private'; pageId: string }, limit: number) {
    return sql<SpaceReader>`select * from (
        select u.id, u.name, u.email, wm.role as "workspaceRole",
          (select max(${roleRankSql(sql.ref('dsm.role'))}) from space_members dsm where dsm.space_id = ${at.spaceId} and dsm.user_id = wm.user_id) as "directRank",
          gs.rank as "groupRank", gs.name as "groupName"
        from workspace_members wm
        join users u on u.id = wm.user_id
        left join lateral ${groupSpaceGrant(at.spaceId)} gs on true
        where wm.workspace_id = ${at.workspaceId} and ${openToUserRef(at.pageId)}
      ) r
      where r."workspaceRole" = 'admin' or r."directRank" is not null or r."groupRank" is not null or ${at.visibility} = 'public'
      order by r.name, r.id
      limit ${limit}`
      .execute(db)
      .then((res) => res.rows);
  },

  /** Which of these users are members of the workspace. */
  async membersAmong(db: Db, workspaceId: string, userIds: string[]): Promise<Set<string>> {
    if (userIds.length === 0) return new Set();
    const rows = await db.selectFrom('workspaceMembers').select('userId').where('workspaceId', '=', workspaceId).where('userId', 'in', userIds).execute();
    return new Set(rows.map((r) => r.userId));
  },

  /** Which of these groups belong to the workspace. */
  async groupsAmong(db: Db, workspaceId: string, groupIds: string[]): Promise<Set<string>> {
    if (groupIds.length === 0) return new Set();
    const rows = await db.selectFrom('groups').select('id').where('workspaceId', '=', workspaceId).where('id', 'in', groupIds).execute();
    return new Set(rows.map((r) => r.id));
  },

  /** The groups among these that the user is in. */
  async groupsOfUserAmong(db: Db, workspaceId: string, userId: string, groupIds: string[]): Promise<Set<string>> {
    if (groupIds.length === 0) return new Set();
    const rows = await db
      .selectFrom('groupMembers')
      .select('groupId')
      .where('workspaceId', '=', workspaceId)
      .where('userId', '=', userId)
      .where('groupId', 'in', groupIds)
      .execute();
    return new Set(rows.map((r) => r.groupId));
  },

  /**
   * Restricts the page or replaces its grants: the restriction row, the grants, and a `page_restricted_by` row for
   * every page of its subtree (the trash included). Returns whether the page was restricted before.
   */
  async put(db: Db, at: { workspaceId: string; pageId: string; by: string; now: Date }, grants: GrantInput[]): Promise<boolean> {
    const before = await db.selectFrom('pageRestrictions').select('pageId').where('pageId', '=', at.pageId).forUpdate().executeTakeFirst();
    if (before) {
      await db.updateTable('pageRestrictions').set({ updatedAt: at.now }).where('pageId', '=', at.pageId).execute();
      await db.deleteFrom('pageRestrictionGrants').where('pageId', '=', at.pageId).execute();
    } else {
      await db
        .insertInto('pageRestrictions')
        .values({ pageId: at.pageId, workspaceId: at.workspaceId, createdBy: at.by, createdAt: at.now, updatedAt: at.now })
        .execute();
      await sql`insert into page_restricted_by (page_id, restriction_page_id, workspace_id)
        select s.id, ${at.pageId}, ${at.workspaceId} from page_subtree(${at.pageId}) s
        on conflict do nothing`.execute(db);
    }
    await db
      .insertInto('pageRestrictionGrants')
      .values(grants.map((g) => ({ id: newId(), pageId: at.pageId, workspaceId: at.workspaceId, userId: g.userId, groupId: g.groupId, role: g.role })))
      .execute();
    return !!before;
  },

  /**
   * What carrying page `pageId` and everything below it would do, in one query over the whole subtree (the trash
   * included, as a move carries it; only the live pages with `liveOnly`, as a trash takes them): how many of its pages
   * are closed to `userId`; and, for a move under `newParentId` (null: none), the restricted pages inside it whose own
   * grantees (members who read the space and open the page now) hold no grant on a restriction of the new parent's
   * path, which would then shut them out.
   */
  async carried(db: Db, at: { workspaceId: string; pageId: string; userId: string; newParentId: string | null; liveOnly: boolean }): Promise<CarriedSubtree> {
    const { workspaceId, userId } = at;
    const res = await sql<CarriedSubtree>`
      with sub as (
        select p.id, p.space_id from page_subtree(${at.pageId}) t join pages p on p.id = t.id
        where p.workspace_id = ${workspaceId} and (not ${at.liveOnly}::boolean or p.deleted_at is null)
      ),
      grantees as (
        select distinct sub.id as page_id, sub.space_id, coalesce(prg.user_id, gm.user_id) as user_id
        from sub
        join page_restriction_grants prg on prg.page_id = sub.id
        left join group_members gm on gm.group_id = prg.group_id and gm.workspace_id = prg.workspace_id
        where coalesce(prg.user_id, gm.user_id) is not null
      ),
      locked as (
        select g.page_id, g.user_id from grantees g
        join workspace_members wm on wm.workspace_id = ${workspaceId} and wm.user_id = g.user_id
        join spaces s on s.id = g.space_id and s.workspace_id = ${workspaceId}
        where (s.visibility = 'public' or wm.role = 'admin' or ${spaceRankSql(sql.ref('s.id'), workspaceId, sql.ref('g.user_id'))} is not null)
          and ${pageOpenToSql(sql.ref('g.page_id'), workspaceId, sql.ref('g.user_id'))}
          and exists (select 1 from page_restricted_by np where np.page_id = ${at.newParentId}::text
            and not ${grantedOnSql(sql.ref('np.restriction_page_id'), sql.ref('g.user_id'), workspaceId)})
      )
      select (select count(*)::int from sub where not ${pageOpenToSql(sql.ref('sub.id'), workspaceId, userId)}) as closed,
        coalesce((select array_agg(distinct page_id order by page_id) from locked), '{}') as locked_page_ids,
        coalesce((select array_agg(distinct user_id order by user_id) from locked), '{}') as locked_user_ids`.execute(db);
    const row = res.rows[0];
    return { closed: row?.closed ?? 0, lockedPageIds: row?.lockedPageIds ?? [], lockedUserIds: row?.lockedUserIds ?? [] };
  },

  /** Opens the page up: its restriction goes, and with it its grants and its `page_restricted_by` rows (FK cascade). */
  async remove(db: Db, pageId: string): Promise<boolean> {
    const res = await db.deleteFrom('pageRestrictions').where('pageId', '=', pageId).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  },

  /** The workspace's restricted pages, by title, with how many grants each has. */
  listOfWorkspace(db: Db, workspaceId: string) {
    return db
      .selectFrom('pageRestrictions as r')
      .innerJoin('pages as p', 'p.id', 'r.pageId')
      .select([
        'r.pageId',
        'p.title',
        'p.spaceId',
        'p.deletedAt',
        'r.createdBy',
        'r.createdAt',
        sql<number>`(select count(*)::int from page_restriction_grants g where g.page_id = r.page_id)`.as('grantCount'),
      ])
      .where('r.workspaceId', '=', workspaceId)
      .orderBy('p.title')
      .orderBy('r.pageId')
      .execute();
  },
};

import { sql } from 'kysely';
import type { Db } from '../../db/index.js';

const GROUP_COLUMNS = ['g.id', 'g.workspaceId', 'g.name', 'g.description', 'g.createdBy', 'g.createdAt', 'g.updatedAt'] as const;
/** Members who still belong to the workspace. */
const memberCount = sql<number>`(select count(*)::int from group_members gm
  join workspace_members wm on wm.workspace_id = gm.workspace_id and wm.user_id = gm.user_id
  where gm.group_id = g.id and gm.workspace_id = g.workspace_id)`.as('memberCount');

export const groupsRepo = {
  list(db: Db, workspaceId: string) {
    return db
      .selectFrom('groups as g')
      .select([...GROUP_COLUMNS, memberCount])
      .where('g.workspaceId', '=', workspaceId)
      .orderBy('g.name')
      .orderBy('g.id')
      .execute();
  },

  find(db: Db, workspaceId: string, groupId: string) {
    return db
      .selectFrom('groups as g')
      .select([...GROUP_COLUMNS, memberCount])
      .where('g.workspaceId', '=', workspaceId)
      .where('g.id', '=', groupId)
      .executeTakeFirst();
  },

  async workspaceOf(db: Db, groupId: string): Promise<string | undefined> {
    const row = await db.selectFrom('groups').select('workspaceId').where('id', '=', groupId).executeTakeFirst();
    return row?.workspaceId;
  },

  insert(db: Db, group: { id: string; workspaceId: string; name: string; description: string | null; createdBy: string }) {
    return db.insertInto('groups').values(group).execute();
  },

  update(db: Db, workspaceId: string, groupId: string, patch: { name?: string; description?: string | null }, now: Date) {
    return db
      .updateTable('groups')
      .set({ ...patch, updatedAt: now })
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', groupId)
      .execute();
  },

  /** Its memberships and its roles in spaces go with it (FK cascade). */
  delete(db: Db, workspaceId: string, groupId: string) {
    return db.deleteFrom('groups').where('workspaceId', '=', workspaceId).where('id', '=', groupId).execute();
  },

  listMembers(db: Db, workspaceId: string, groupId: string) {
    return db
      .selectFrom('groupMembers as gm')
      .innerJoin('users as u', 'u.id', 'gm.userId')
      .innerJoin('workspaceMembers as wm', (j) => j.onRef('wm.userId', '=', 'gm.userId').onRef('wm.workspaceId', '=', 'gm.workspaceId'))
      .select(['u.id', 'u.name', 'u.email', 'u.avatarUrl', 'gm.addedAt'])
      .where('gm.workspaceId', '=', workspaceId)
      .where('gm.groupId', '=', groupId)
      .orderBy('gm.addedAt')
      .orderBy('u.id')
      .execute();
  },

  /** The users who were not in the group yet. */
  addMembers(db: Db, workspaceId: string, groupId: string, userIds: string[]) {
    return db
      .insertInto('groupMembers')
      .values(userIds.map((userId) => ({ groupId, userId, workspaceId })))
      .onConflict((oc) => oc.columns(['groupId', 'userId']).doNothing())
      .returning('userId')
      .execute();
  },

  /** Takes a user out of every group of the workspace (they are leaving it). */
  removeFromAllGroups(db: Db, workspaceId: string, userId: string) {
    return db.deleteFrom('groupMembers').where('workspaceId', '=', workspaceId).where('userId', '=', userId).execute();
  },

  async removeMember(db: Db, workspaceId: string, groupId: string, userId: string): Promise<number> {
    const res = await db
      .deleteFrom('groupMembers')
      .where('workspaceId', '=', workspaceId)
      .where('groupId', '=', groupId)
      .where('userId', '=', userId)
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  },
};

import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/index.js';

/** `visible` (a condition on `t.space_id`) keeps the count to tasks the reader may see. */
const taskCount = (visible: RawBuilder<boolean>) =>
  sql<number>`(select count(*)::int from tasks t where t.project_id = p.id and t.workspace_id = p.workspace_id and ${visible})`.as('taskCount');

const PROJECT_COLUMNS = ['p.id', 'p.workspaceId', 'p.spaceId', 'p.name', 'p.description', 'p.archivedAt', 'p.createdBy', 'p.createdAt', 'p.updatedAt'] as const;

export const projectsRepo = {
  /** Where a project lives, for the access check; the workspace comes from the project itself. */
  findScope(db: Db, projectId: string) {
    return db.selectFrom('projects').select(['id', 'workspaceId', 'spaceId', 'archivedAt']).where('id', '=', projectId).executeTakeFirst();
  },

  /** A project of this workspace the reader may see (`visible` is a condition on `p.space_id`), for references from tasks. */
  findVisible(db: Db, workspaceId: string, projectId: string, visible: RawBuilder<boolean>) {
    return db
      .selectFrom('projects as p')
      .select(['p.id', 'p.spaceId', 'p.archivedAt'])
      .where('p.workspaceId', '=', workspaceId)
      .where('p.id', '=', projectId)
      .where(visible)
      .executeTakeFirst();
  },

  find(db: Db, workspaceId: string, projectId: string, tasksVisible: RawBuilder<boolean>) {
    return db
      .selectFrom('projects as p')
      .select([...PROJECT_COLUMNS, taskCount(tasksVisible)])
      .where('p.workspaceId', '=', workspaceId)
      .where('p.id', '=', projectId)
      .executeTakeFirst();
  },

  async list(
    db: Db,
    workspaceId: string,
    visible: RawBuilder<boolean>,
    tasksVisible: RawBuilder<boolean>,
    f: { spaceId?: string; includeArchived: boolean },
    limit: number,
    offset: number,
  ) {
    let q = db.selectFrom('projects as p').where('p.workspaceId', '=', workspaceId).where(visible);
    if (f.spaceId) q = q.where('p.spaceId', '=', f.spaceId);
    if (!f.includeArchived) q = q.where('p.archivedAt', 'is', null);
    const [rows, total] = await Promise.all([
      q
        .select([...PROJECT_COLUMNS, taskCount(tasksVisible)])
        .orderBy('p.createdAt', 'desc')
        .orderBy('p.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: total.n };
  },

  insert(db: Db, p: { id: string; workspaceId: string; spaceId: string | null; name: string; description: string | null; createdBy: string }, now: Date) {
    return db
      .insertInto('projects')
      .values({ ...p, createdAt: now, updatedAt: now })
      .execute();
  },

  update(
    db: Db,
    workspaceId: string,
    projectId: string,
    patch: { name?: string; description?: string | null; spaceId?: string | null; archivedAt?: Date | null },
    now: Date,
  ) {
    return db
      .updateTable('projects')
      .set({ ...patch, updatedAt: now })
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', projectId)
      .execute();
  },

  /** Deletes the project; its tasks stay, with no project (the foreign key sets their project_id to null). */
  delete(db: Db, workspaceId: string, projectId: string) {
    return db.deleteFrom('projects').where('workspaceId', '=', workspaceId).where('id', '=', projectId).execute();
  },
};

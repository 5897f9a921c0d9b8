import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/index.js';
import type { GoalHorizon } from '../../db/tables/goals.js';

const GOAL_COLUMNS = [
  'g.id',
  'g.workspaceId',
  'g.spaceId',
  'g.title',
  'g.description',
  'g.horizon',
  'g.keywords',
  'g.createdBy',
  'g.createdAt',
  'g.updatedAt',
] as const;

/**
 * The goal's linked tasks the reader may see (`tasksVisible` is a condition on `t.space_id`), counted in SQL:
 * total, done, and progress = done / total × 100 rounded to 2 decimals (0 without tasks).
 */
function withCounts(db: Db, workspaceId: string, tasksVisible: RawBuilder<boolean>) {
  return db
    .selectFrom('goals as g')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('goalTasks as gt')
          .innerJoin('tasks as t', (j) => j.onRef('t.id', '=', 'gt.taskId').onRef('t.workspaceId', '=', 'gt.workspaceId'))
          .select([sql<number>`count(*)::int`.as('total'), sql<number>`(count(*) filter (where t.status = 'done'))::int`.as('done')])
          .whereRef('gt.goalId', '=', 'g.id')
          .whereRef('gt.workspaceId', '=', 'g.workspaceId')
          .where(tasksVisible)
          .as('c'),
      (j) => j.onTrue(),
    )
    .select([
      ...GOAL_COLUMNS,
      sql<number>`c.total`.as('taskCount'),
      sql<number>`c.done`.as('completedTaskCount'),
      sql<number>`(case when c.total = 0 then 0 else round(c.done * 100.0 / c.total, 2) end)::float8`.as('progress'),
    ])
    .where('g.workspaceId', '=', workspaceId);
}

export const goalsRepo = {
  /** Where a goal lives, for the access check. */
  findScope(db: Db, workspaceId: string, goalId: string) {
    return db.selectFrom('goals').select(['id', 'workspaceId', 'spaceId']).where('workspaceId', '=', workspaceId).where('id', '=', goalId).executeTakeFirst();
  },

  find(db: Db, workspaceId: string, goalId: string, tasksVisible: RawBuilder<boolean>) {
    return withCounts(db, workspaceId, tasksVisible).where('g.id', '=', goalId).executeTakeFirst();
  },

  /** A page of the goals the reader may see (`visible` is a condition on `g.space_id`), newest first, and the total. */
  async list(
    db: Db,
    workspaceId: string,
    visible: RawBuilder<boolean>,
    tasksVisible: RawBuilder<boolean>,
    f: { spaceId?: string; horizon?: GoalHorizon },
    limit: number,
    offset: number,
  ) {
    let rows = withCounts(db, workspaceId, tasksVisible).where(visible);
    let count = db.selectFrom('goals as g').select(sql<number>`count(*)::int`.as('n')).where('g.workspaceId', '=', workspaceId).where(visible);
    if (f.spaceId) {
      rows = rows.where('g.spaceId', '=', f.spaceId);
      count = count.where('g.spaceId', '=', f.spaceId);
    }
    if (f.horizon) {
      rows = rows.where('g.horizon', '=', f.horizon);
      count = count.where('g.horizon', '=', f.horizon);
    }
    const [page, total] = await Promise.all([
      rows.orderBy('g.createdAt', 'desc').orderBy('g.id', 'desc').limit(limit).offset(offset).execute(),
      count.executeTakeFirstOrThrow(),
    ]);
    return { rows: page, total: total.n };
  },

  /** The visible linked tasks of these goals, in the order they were linked. */
  tasksOf(db: Db, workspaceId: string, goalIds: string[], tasksVisible: RawBuilder<boolean>) {
    if (!goalIds.length) return Promise.resolve([]);
    return db
      .selectFrom('goalTasks as gt')
      .innerJoin('tasks as t', (j) => j.onRef('t.id', '=', 'gt.taskId').onRef('t.workspaceId', '=', 'gt.workspaceId'))
      .select(['gt.goalId', 't.id', 't.title', 't.status', 't.priority'])
      .where('gt.workspaceId', '=', workspaceId)
      .where('gt.goalId', 'in', goalIds)
      .where(tasksVisible)
      .orderBy('gt.createdAt')
      .orderBy('t.id')
      .execute();
  },

  insert(
    db: Db,
    g: {
      id: string;
      workspaceId: string;
      spaceId: string | null;
      title: string;
      description: string | null;
      horizon: GoalHorizon;
      keywords: string[];
      createdBy: string;
    },
    now: Date,
  ) {
    return db
      .insertInto('goals')
      .values({ ...g, createdAt: now, updatedAt: now })
      .execute();
  },

  update(
    db: Db,
    workspaceId: string,
    goalId: string,
    patch: { title?: string; description?: string | null; horizon?: GoalHorizon; keywords?: string[] },
    now: Date,
  ) {
    return db
      .updateTable('goals')
      .set({ ...patch, updatedAt: now })
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', goalId)
      .execute();
  },

  /** Deletes the goal and its links; the tasks stay. */
  delete(db: Db, workspaceId: string, goalId: string) {
    return db.deleteFrom('goals').where('workspaceId', '=', workspaceId).where('id', '=', goalId).execute();
  },

  /** Links a task; linking twice changes nothing. */
  link(db: Db, workspaceId: string, goalId: string, taskId: string, now: Date) {
    return db
      .insertInto('goalTasks')
      .values({ workspaceId, goalId, taskId, createdAt: now })
      .onConflict((oc) => oc.columns(['goalId', 'taskId']).doNothing())
      .execute();
  },

  unlink(db: Db, workspaceId: string, goalId: string, taskId: string) {
    return db.deleteFrom('goalTasks').where('workspaceId', '=', workspaceId).where('goalId', '=', goalId).where('taskId', '=', taskId).execute();
  },

  async taskCount(db: Db, workspaceId: string, goalId: string, tasksVisible: RawBuilder<boolean>) {
    const row = await db
      .selectFrom('goalTasks as gt')
      .innerJoin('tasks as t', (j) => j.onRef('t.id', '=', 'gt.taskId').onRef('t.workspaceId', '=', 'gt.workspaceId'))
      .select(sql<number>`count(*)::int`.as('n'))
      .where('gt.workspaceId', '=', workspaceId)
      .where('gt.goalId', '=', goalId)
      .where(tasksVisible)
      .executeTakeFirstOrThrow();
    return row.n;
  },
};

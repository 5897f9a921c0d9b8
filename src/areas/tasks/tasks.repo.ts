import { type Expression, type RawBuilder, type Selectable, type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/index.js';
import type { TaskBucket, TaskPriority, TaskStatus, TaskTable } from '../../db/tables/tasks.js';

export interface TaskFilters {
  spaceId?: string;
  projectId?: string;
  pageId?: string;
  assigneeId?: string;
  status?: TaskStatus[];
  priority?: TaskPriority[];
  /** `none` matches tasks without a bucket. */
  bucket?: (TaskBucket | 'none')[];
  labels?: string[];
  dueBefore?: string;
  dueAfter?: string;
}

export type TaskSort = 'dueDate' | 'priority' | 'createdAt' | 'updatedAt';

/** The columns a new task is written with (the rest have defaults or are set by the write). */
export type NewTask = Omit<Selectable<TaskTable>, 'completedAt' | 'createdAt' | 'updatedAt' | 'createdBy'> & { createdBy: string };

export interface TaskPatch {
  title?: string;
  description?: string | null;
  status?: TaskStatus;
  priority?: TaskPriority | null;
  bucket?: TaskBucket | null;
  assigneeId?: string | null;
  projectId?: string | null;
  pageId?: string | null;
  spaceId?: string | null;
  dueDate?: string | null;
}

const dueDate = sql<string | null>`to_char(t.due_date, 'YYYY-MM-DD')`.as('dueDate');
const labels = sql<
  string[]
>`coalesce((select array_agg(l.name order by l.key) from task_labels l where l.task_id = t.id and l.workspace_id = t.workspace_id), '{}')`.as('labels');
const TASK_COLUMNS = [
  't.id',
  't.workspaceId',
  't.spaceId',
  't.projectId',
  't.pageId',
  't.assigneeId',
  't.title',
  't.description',
  't.status',
  't.priority',
  't.bucket',
  dueDate,
  't.completedAt',
  labels,
  't.createdBy',
  't.createdAt',
  't.updatedAt',
] as const;

const PRIORITY_RANK = sql`case t.priority when 'high' then 3 when 'medium' then 2 when 'low' then 1 end`;

/** `completed_at` follows `status`: entering done stamps it (once), leaving done clears it. */
const completedAtFor = (status: TaskStatus, now: Date) => (status === 'done' ? sql<Date>`coalesce(completed_at, ${now})` : sql<null>`null`);

export const tasksRepo = {
  /** Where a task lives, for the access check; the workspace comes from the task itself. */
  findScope(db: Db, taskId: string) {
    return db.selectFrom('tasks').select(['id', 'workspaceId', 'spaceId', 'projectId', 'pageId']).where('id', '=', taskId).executeTakeFirst();
  },

  /**
   * The detail form: the task, its labels, its assignee, its project (when the reader may see that project) and its
   * page (when the reader may open it: `pageOpen` of the joined page's alias, and it is not in the trash).
   */
  findDetail(db: Db, workspaceId: string, taskId: string, projectVisible: (column: string) => RawBuilder<boolean>, pageOpen: (alias: string) => Expression<SqlBool>) {
    return db
      .selectFrom('tasks as t')
      .leftJoin('users as a', 'a.id', 't.assigneeId')
      .leftJoin('projects as p', (j) => j.onRef('p.id', '=', 't.projectId').onRef('p.workspaceId', '=', 't.workspaceId').on(projectVisible('p.spaceId')))
      .leftJoin('pages as pg', (j) =>
        j.onRef('pg.id', '=', 't.pageId').onRef('pg.workspaceId', '=', 't.workspaceId').on('pg.deletedAt', 'is', null).on(pageOpen('pg')),
      )
      .select([
        ...TASK_COLUMNS,
        'a.name as assigneeName',
        'a.avatarUrl as assigneeAvatarUrl',
        'p.id as projectRefId',
        'p.name as projectName',
        'pg.id as pageRefId',
        'pg.title as pageTitle',
        'pg.spaceId as pageSpaceId',
      ])
      .where('t.workspaceId', '=', workspaceId)
      .where('t.id', '=', taskId)
      .executeTakeFirst();
  },

  /** One page of the workspace's tasks the reader may see (`visible` is the space condition), and the total. */
  async list(db: Db, workspaceId: string, visible: RawBuilder<boolean>, f: TaskFilters, sort: TaskSort, order: 'asc' | 'desc', limit: number, offset: number) {
    let q = db.selectFrom('tasks as t').where('t.workspaceId', '=', workspaceId).where(visible);
    if (f.spaceId) q = q.where('t.spaceId', '=', f.spaceId);
    if (f.projectId) q = q.where('t.projectId', '=', f.projectId);
    if (f.pageId) q = q.where('t.pageId', '=', f.pageId);
    if (f.assigneeId) q = q.where('t.assigneeId', '=', f.assigneeId);
    if (f.status) q = q.where('t.status', 'in', f.status);
    if (f.priority) q = q.where('t.priority', 'in', f.priority);
    if (f.bucket) {
      const named = f.bucket.filter((b): b is TaskBucket => b !== 'none');
      const none = f.bucket.includes('none');
      q = q.where((eb) => eb.or([...(named.length ? [eb('t.bucket', 'in', named)] : []), ...(none ? [eb('t.bucket', 'is', null)] : [])]));
    }
    for (const label of f.labels ?? [])
      q = q.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('taskLabels as l')
            .select(sql`1`.as('one'))
            .whereRef('l.taskId', '=', 't.id')
            .whereRef('l.workspaceId', '=', 't.workspaceId')
            .where('l.key', '=', label.toLowerCase()),
        ),
      );
    if (f.dueBefore) q = q.where('t.dueDate', '<=', f.dueBefore);
    if (f.dueAfter) q = q.where('t.dueDate', '>=', f.dueAfter);

    const dir = sql.raw(order);
    const key =
      sort === 'dueDate'
        ? sql`t.due_date ${dir} nulls last`
        : sort === 'priority'
          ? sql`${PRIORITY_RANK} ${dir} nulls last`
          : sort === 'updatedAt'
            ? sql`t.updated_at ${dir}`
            : sql`t.created_at ${dir}`;
    const [rows, total] = await Promise.all([
      q.select(TASK_COLUMNS).orderBy(key).orderBy('t.id', order).limit(limit).offset(offset).execute(),
      q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: total.n };
  },

  insert(db: Db, task: NewTask, now: Date) {
    return db
      .insertInto('tasks')
      .values({ ...task, completedAt: task.status === 'done' ? now : null, createdAt: now, updatedAt: now })
      .execute();
  },

  update(db: Db, workspaceId: string, taskId: string, patch: TaskPatch, now: Date) {
    const { status, ...rest } = patch;
    return db
      .updateTable('tasks')
      .set({ ...rest, ...(status ? { status, completedAt: completedAtFor(status, now) } : {}), updatedAt: now })
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', taskId)
      .execute();
  },

  delete(db: Db, workspaceId: string, taskId: string) {
    return db.deleteFrom('tasks').where('workspaceId', '=', workspaceId).where('id', '=', taskId).executeTakeFirst();
  },

  /** Replaces the task's labels (already trimmed and de-duplicated). */
  async setLabels(db: Db, workspaceId: string, taskId: string, names: string[]) {
    await db.deleteFrom('taskLabels').where('workspaceId', '=', workspaceId).where('taskId', '=', taskId).execute();
    if (names.length)
      await db
        .insertInto('taskLabels')
        .values(names.map((name) => ({ workspaceId, taskId, name })))
        .execute();
  },

  /** Open (not done) tasks per bucket; a missing bucket counts as `none`. */
  async triageCounts(db: Db, workspaceId: string, visible: RawBuilder<boolean>, spaceId?: string) {
    let q = db
      .selectFrom('tasks as t')
      .select([
        sql<number>`count(*) filter (where t.bucket = 'now')::int`.as('now'),
        sql<number>`count(*) filter (where t.bucket = 'next')::int`.as('next'),
        sql<number>`count(*) filter (where t.bucket = 'later')::int`.as('later'),
        sql<number>`count(*) filter (where t.bucket is null)::int`.as('none'),
      ])
      .where('t.workspaceId', '=', workspaceId)
      .where('t.status', '<>', 'done')
      .where(visible);
    if (spaceId) q = q.where('t.spaceId', '=', spaceId);
    return q.executeTakeFirstOrThrow();
  },

  /** Labels in use on tasks the reader may see, with how many tasks carry each (labels equal ignoring case are one). */
  labelCounts(db: Db, workspaceId: string, visible: RawBuilder<boolean>, spaceId?: string) {
    let q = db
      .selectFrom('taskLabels as l')
      .innerJoin('tasks as t', (j) => j.onRef('t.id', '=', 'l.taskId').onRef('t.workspaceId', '=', 'l.workspaceId'))
      .select([sql<string>`mode() within group (order by l.name collate "C")`.as('name'), sql<number>`count(*)::int`.as('count')])
      .where('l.workspaceId', '=', workspaceId)
      .where(visible)
      .groupBy('l.key');
    if (spaceId) q = q.where('t.spaceId', '=', spaceId);
    return q.orderBy(sql`count(*)`, 'desc').orderBy('l.key').execute();
  },

  /** Is the user a member of the workspace (a valid assignee)? */
  async isMember(db: Db, workspaceId: string, userId: string) {
    const row = await db.selectFrom('workspaceMembers').select('userId').where('workspaceId', '=', workspaceId).where('userId', '=', userId).executeTakeFirst();
    return !!row;
  },
};

import { type Kysely, sql } from 'kysely';

/**
 * Projects, tasks, their labels, goals and the goal–task links. A space's deletion takes its projects, tasks and
 * goals with it (a private space's tasks must never become visible to the whole workspace); a project's deletion
 * keeps its tasks and clears their project; a goal's deletion keeps its tasks.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('projects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('space_id', 'text', (c) => c.references('spaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('archived_at', 'timestamptz')
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('projects_workspace').on('projects').columns(['workspace_id', 'created_at']).execute();
  await db.schema.createIndex('projects_space').on('projects').columns(['space_id']).execute();

  await db.schema
    .createTable('tasks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('space_id', 'text', (c) => c.references('spaces.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.references('projects.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('todo').check(sql`status in ('todo', 'in_progress', 'done')`))
    .addColumn('priority', 'text', (c) => c.check(sql`priority in ('high', 'medium', 'low')`))
    .addColumn('bucket', 'text', (c) => c.check(sql`bucket in ('now', 'next', 'later')`))
    .addColumn('assignee_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('due_date', 'date')
    .addColumn('completed_at', 'timestamptz')
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('tasks_done_has_completed_at', sql`(status = 'done') = (completed_at is not null)`)
    .execute();
  await db.schema.createIndex('tasks_workspace_created').on('tasks').columns(['workspace_id', 'created_at']).execute();
  await db.schema.createIndex('tasks_workspace_space').on('tasks').columns(['workspace_id', 'space_id']).execute();
  await db.schema.createIndex('tasks_project').on('tasks').columns(['project_id']).execute();
  await db.schema.createIndex('tasks_workspace_assignee').on('tasks').columns(['workspace_id', 'assignee_id']).execute();
  await db.schema.createIndex('tasks_workspace_due').on('tasks').columns(['workspace_id', 'due_date']).execute();
  await sql`create index tasks_workspace_open_bucket on tasks (workspace_id, bucket) where status <> 'done'`.execute(db);

  await db.schema
    .createTable('task_labels')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull().generatedAlwaysAs(sql`lower(name)`).stored())
    .addPrimaryKeyConstraint('task_labels_pk', ['task_id', 'key'])
    .execute();
  await db.schema.createIndex('task_labels_workspace_key').on('task_labels').columns(['workspace_id', 'key']).execute();

  await db.schema
    .createTable('goals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('space_id', 'text', (c) => c.references('spaces.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('horizon', 'text', (c) => c.notNull().check(sql`horizon in ('short', 'mid', 'long')`))
    .addColumn('keywords', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('goals_workspace').on('goals').columns(['workspace_id', 'created_at']).execute();

  await db.schema
    .createTable('goal_tasks')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('goal_id', 'text', (c) => c.notNull().references('goals.id').onDelete('cascade'))
    .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('goal_tasks_pk', ['goal_id', 'task_id'])
    .execute();
  await db.schema.createIndex('goal_tasks_task').on('goal_tasks').columns(['task_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['goal_tasks', 'goals', 'task_labels', 'tasks', 'projects']) await db.schema.dropTable(t).execute();
}

import { type Kysely, sql } from 'kysely';

/** Research jobs: the request, its progress and, once completed, its report (the queue job in `jobs` runs it). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('research_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('topic', 'text', (c) => c.notNull())
    .addColumn('sources', 'jsonb', (c) => c.notNull())
    .addColumn('output_mode', 'text', (c) => c.notNull().check(sql`output_mode in ('longform', 'brief')`))
    .addColumn('time_budget', 'double precision', (c) => c.notNull())
    .addColumn('target_space_id', 'text', (c) => c.references('spaces.id').onDelete('set null'))
    .addColumn('repository', 'jsonb')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending').check(sql`status in ('pending', 'running', 'completed', 'failed', 'cancelled')`))
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sources_searched', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('documents_found', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('job_id', 'text')
    .addColumn('started_at', 'timestamptz')
    .addColumn('completed_at', 'timestamptz')
    .addColumn('cancelled_at', 'timestamptz')
    .addColumn('error', 'text')
    .addColumn('report', 'jsonb')
    .addColumn('page_id', 'text', (c) => c.references('pages.id').onDelete('set null'))
    .addColumn('time_spent', 'double precision')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // The list (newest first) and the per-hour limit read by workspace and time; the active limit by status.
  await sql`create index research_jobs_workspace_created on research_jobs (workspace_id, created_at desc, id desc)`.execute(db);
  await sql`create index research_jobs_workspace_active on research_jobs (workspace_id) where status in ('pending', 'running')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('research_jobs').execute();
}

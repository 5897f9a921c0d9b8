import { type Kysely, sql } from 'kysely';

/** The durable job queue: rows claimed with FOR UPDATE SKIP LOCKED under a lease. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued').check(sql`status in ('queued','running','done','failed','cancelled')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(5))
    .addColumn('run_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('lease_until', 'timestamptz')
    .addColumn('locked_by', 'text')
    .addColumn('cancel_requested', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('dedupe_key', 'text')
    .addColumn('last_error', 'text')
    .addColumn('result', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .execute();
  // What a worker scans: runnable queued jobs by time, and running jobs whose lease ran out.
  await sql`create index jobs_runnable on jobs (run_at) where status = 'queued'`.execute(db);
  await sql`create index jobs_leased on jobs (lease_until) where status = 'running'`.execute(db);
  await sql`create index jobs_workspace on jobs (workspace_id, kind, created_at)`.execute(db);
  // At most one live (queued or running) job per dedupe key: recurring jobs are enqueued once across instances.
  await sql`create unique index jobs_dedupe_live on jobs (dedupe_key) where dedupe_key is not null and status in ('queued','running')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('jobs').execute();
}

import { type Kysely, sql } from 'kysely';

/**
 * The event stream (issue 16): every change a user cares about is written here in the transaction of the change (an
 * outbox). A dispatcher job fans each event out to notifications and webhooks once, then stamps `dispatched_at`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('domain_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('subject_type', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('space_id', 'text')
    .addColumn('page_id', 'text')
    .addColumn('data', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('dispatched_at', 'timestamptz')
    .execute();
  await sql`create index domain_events_pending on domain_events (created_at, id) where dispatched_at is null`.execute(db);
  await db.schema.createIndex('domain_events_workspace_time').on('domain_events').columns(['workspace_id', 'created_at desc']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('domain_events').execute();
}

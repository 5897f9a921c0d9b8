import { type Kysely, sql } from 'kysely';

/**
 * The audit log (issue 15): security events with actor, address and time. Append-only: a trigger refuses every
 * UPDATE, and no API edits or deletes entries (deleting a workspace takes its entries with it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.references('workspaces.id').onDelete('cascade'))
    .addColumn('actor_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text')
    .addColumn('target_id', 'text')
    .addColumn('details', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('address', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('audit_log_workspace_time').on('audit_log').columns(['workspace_id', 'created_at desc', 'id desc']).execute();
  await db.schema.createIndex('audit_log_actor_time').on('audit_log').columns(['actor_id', 'created_at desc', 'id desc']).execute();
  await sql`create function audit_log_append_only() returns trigger language plpgsql as $$
    begin raise exception 'audit_log entries cannot be changed'; end $$`.execute(db);
  await sql`create trigger audit_log_no_update before update on audit_log for each row execute function audit_log_append_only()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
  await sql`drop function if exists audit_log_append_only()`.execute(db);
}

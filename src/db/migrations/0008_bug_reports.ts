import { type Kysely, sql } from 'kysely';

/**
 * Bug reports, user-made and automatically captured. Auto reports carry a fingerprint (hash of workspace, source
 * and message); an open, recent report with the same fingerprint absorbs new occurrences (see bug-reports.repo.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bug_reports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.references('workspaces.id').onDelete('cascade'))
    .addColumn('space_id', 'text', (c) => c.references('spaces.id').onDelete('set null'))
    .addColumn('reporter_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('auto:server', 'auto:client', 'auto:agent', 'user:command')`))
    .addColumn('severity', 'text', (c) => c.notNull().check(sql`severity in ('low', 'medium', 'high', 'critical')`))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open').check(sql`status in ('open', 'triaged', 'in_progress', 'resolved', 'closed')`))
    .addColumn('error_message', 'text')
    .addColumn('error_stack', 'text')
    .addColumn('error_code', 'text')
    .addColumn('fingerprint', 'text')
    .addColumn('user_journey', 'jsonb')
    .addColumn('context', 'jsonb')
    .addColumn('metadata', 'jsonb')
    .addColumn('occurrence_count', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('occurred_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_occurred_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('resolved_at', 'timestamptz')
    .addColumn('deleted_at', 'timestamptz')
    .addColumn('deleted_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  // The list: live reports of a workspace, newest first.
  await sql`create index bug_reports_list on bug_reports (workspace_id, created_at desc, id desc) where deleted_at is null`.execute(db);
  // The de-duplication lookup: live open reports by fingerprint.
  await sql`create index bug_reports_dedupe on bug_reports (fingerprint, created_at desc) where status = 'open' and deleted_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('bug_reports').execute();
}

import { type Kysely, sql } from 'kysely';

/** Exports of a space or a page tree as a zip: the request, its progress, and the finished zip's blob (issue 14). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('exports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('page_id', 'text')
    .addColumn('format', 'text', (c) => c.notNull().check(sql`format in ('markdown','html')`))
    .addColumn('include_children', 'boolean', (c) => c.notNull())
    .addColumn('include_attachments', 'boolean', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued').check(sql`status in ('queued','running','succeeded','failed')`))
    .addColumn('progress_done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('progress_total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    // Named when the export is created, so the blob sweep counts the zip as used from its first byte.
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint')
    .addColumn('sha256', 'text')
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index exports_expires on exports (expires_at)`.execute(db);
  await sql`create index exports_blob_key on exports (blob_key)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('exports').execute();
}

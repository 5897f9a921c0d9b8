import { type Kysely, sql } from 'kysely';

/** Imports of a zip (or one file) into a space: the upload's blob, the job's progress, its result and warnings (issue 14). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('imports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('parent_page_id', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('detected_source', 'text')
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    // The upload, kept until the import finishes; named at creation so the blob sweep counts it as used.
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued').check(sql`status in ('queued','running','succeeded','failed')`))
    .addColumn('progress_done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('progress_total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('result', 'jsonb')
    .addColumn('warnings', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('error', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index imports_expires on imports (expires_at)`.execute(db);
  await sql`create index imports_blob_key on imports (blob_key)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('imports').execute();
}

import { type Kysely, sql } from 'kysely';

/**
 * Comments on pages (threads through `parent_id`; a delete is soft so replies stay readable) and attachments
 * (metadata here, bytes in the blob store under `blob_key`). Both go with their page (FK cascade), so a space
 * delete or a trash purge removes them in the same statement.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('comments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('parent_id', 'text', (c) => c.references('comments.id').onDelete('cascade'))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('author_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('resolved_at', 'timestamptz')
    .addColumn('resolved_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', 'timestamptz')
    .addColumn('deleted_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await sql`create index comments_page on comments (page_id, created_at, id)`.execute(db);
  await sql`create index comments_parent on comments (parent_id) where parent_id is not null`.execute(db);
  await sql`create index comments_workspace on comments (workspace_id)`.execute(db);

  await db.schema
    .createTable('attachments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index attachments_page on attachments (page_id, created_at, id)`.execute(db);
  await sql`create index attachments_workspace on attachments (workspace_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('attachments').execute();
  await db.schema.dropTable('comments').execute();
}

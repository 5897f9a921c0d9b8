import { type Kysely, sql } from 'kysely';

/**
 * Public share links (issue 15): a page, optionally with its subtree, readable without signing in through an
 * unguessable link. Only the link's hash is stored. At most one active share per page: publishing again updates it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('shares')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('include_subtree', 'boolean', (c) => c.notNull())
    .addColumn('allow_indexing', 'boolean', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('revoked_by', 'text')
    .addColumn('last_viewed_at', 'timestamptz')
    .execute();
  await sql`create unique index shares_active_page on shares (workspace_id, page_id) where revoked_at is null`.execute(db);
  await sql`create index shares_workspace_active on shares (workspace_id, created_at desc) where revoked_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('shares').execute();
}

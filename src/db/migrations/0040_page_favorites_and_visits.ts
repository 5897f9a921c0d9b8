import { type Kysely, sql } from 'kysely';

/**
 * Around the page (issue 30): a person's favourite pages (a star, listed in the sidebar, ordered by when starred) and
 * the pages they opened last (the home screen's "Recently visited"). One row per person and page in each table; a
 * visit is an upsert of `visited_at`, throttled in its own statement. Rows go with their page, workspace or user.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('page_favorites')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('page_favorites_pkey', ['workspace_id', 'user_id', 'page_id'])
    .execute();
  await sql`create index page_favorites_by_user on page_favorites (workspace_id, user_id, created_at)`.execute(db);
  await sql`create index page_favorites_page on page_favorites (page_id)`.execute(db);

  await db.schema
    .createTable('page_visits')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('visited_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('page_visits_pkey', ['workspace_id', 'user_id', 'page_id'])
    .execute();
  await sql`create index page_visits_by_user on page_visits (workspace_id, user_id, visited_at desc)`.execute(db);
  await sql`create index page_visits_page on page_visits (page_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('page_visits').execute();
  await db.schema.dropTable('page_favorites').execute();
}

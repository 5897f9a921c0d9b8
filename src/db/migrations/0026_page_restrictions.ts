import { type Kysely, sql } from 'kysely';

/**
 * Page-level permissions (issue 15). A restricted page is open only to the users and groups it names, each as viewer or
 * editor, and the restriction covers its subtree. `page_restricted_by` holds, for every page inside a restricted
 * subtree, each restriction above it (itself included), so a read checks one indexed table instead of walking parents.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('page_restrictions')
    .addColumn('page_id', 'text', (c) => c.primaryKey().references('pages.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('page_restriction_grants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('page_id', 'text', (c) => c.notNull().references('page_restrictions.page_id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('group_id', 'text', (c) => c.references('groups.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('viewer','editor')`))
    .addCheckConstraint('page_restriction_grants_one_grantee', sql`(user_id is null) <> (group_id is null)`)
    .execute();
  await sql`create unique index page_restriction_grants_user on page_restriction_grants (page_id, user_id) where user_id is not null`.execute(db);
  await sql`create unique index page_restriction_grants_group on page_restriction_grants (page_id, group_id) where group_id is not null`.execute(db);
  await db.schema
    .createTable('page_restricted_by')
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('restriction_page_id', 'text', (c) => c.notNull().references('page_restrictions.page_id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('page_restricted_by_pk', ['page_id', 'restriction_page_id'])
    .execute();
  await db.schema.createIndex('page_restricted_by_restriction').on('page_restricted_by').column('restriction_page_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('page_restricted_by').execute();
  await db.schema.dropTable('page_restriction_grants').execute();
  await db.schema.dropTable('page_restrictions').execute();
}

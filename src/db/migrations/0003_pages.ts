import { type Kysely, sql } from 'kysely';

/**
 * Pages (a tree per space, ordered among siblings by a fractional `position` key compared bytewise),
 * their immutable history, and the trash columns (`deleted_at`, `deleted_by`, `trash_root_id`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    // A purge removes a trashed subtree whole; `set null` only guards a live child against losing its row.
    .addColumn('parent_id', 'text', (c) => c.references('pages.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('icon', 'text')
    .addColumn('content', 'jsonb', (c) => c.notNull())
    .addColumn('text_content', 'text', (c) => c.notNull().defaultTo(''))
    // Fractional-indexing keys are ordered by code point: the "C" collation compares bytes, as they need.
    .addColumn('position', sql`text collate "C"`, (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', 'timestamptz')
    .addColumn('deleted_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('trash_root_id', 'text')
    .execute();
  // Lists: children of a parent (or roots, parent_id null) by position; every page of a space by position.
  await sql`create index pages_children on pages (workspace_id, space_id, parent_id, position, id) where deleted_at is null`.execute(db);
  await sql`create index pages_space on pages (workspace_id, space_id, position, id) where deleted_at is null`.execute(db);
  await sql`create index pages_parent on pages (parent_id)`.execute(db);
  await sql`create index pages_workspace on pages (workspace_id)`.execute(db);
  await sql`create index pages_trash on pages (workspace_id, space_id, deleted_at) where deleted_at is not null and trash_root_id = id`.execute(db);
  await sql`create index pages_trash_root on pages (trash_root_id) where trash_root_id is not null`.execute(db);
  await sql`create index pages_purge on pages (deleted_at) where deleted_at is not null`.execute(db);

  await db.schema
    .createTable('page_history')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content', 'jsonb', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('page_history_version', ['page_id', 'version'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('page_history').execute();
  await db.schema.dropTable('pages').execute();
}

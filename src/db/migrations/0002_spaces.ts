import { type Kysely, sql } from 'kysely';

/**
 * Spaces, their members (users or groups, each with a role in the space), and workspace groups.
 * Every table carries `workspace_id`; a space's memberships go with the space, a group's with the group.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('spaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('icon', 'text')
    .addColumn('visibility', 'text', (c) => c.notNull().defaultTo('public').check(sql`visibility in ('public', 'private')`))
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('spaces_workspace_slug').on('spaces').columns(['workspace_id', 'slug']).unique().execute();

  await db.schema
    .createTable('groups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index groups_workspace_name on groups (workspace_id, lower(name))`.execute(db);

  await db.schema
    .createTable('group_members')
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('added_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('group_members_pk', ['group_id', 'user_id'])
    .execute();
  await db.schema.createIndex('group_members_user').on('group_members').columns(['user_id', 'workspace_id']).execute();

  // A member is a user or a group (exactly one of the two), with a role in the space.
  await db.schema
    .createTable('space_members')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('group_id', 'text', (c) => c.references('groups.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('admin', 'editor', 'viewer')`))
    .addColumn('added_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('added_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('space_members_one_target', sql`(user_id is null) <> (group_id is null)`)
    .execute();
  await db.schema.createIndex('space_members_space_user').on('space_members').columns(['space_id', 'user_id']).unique().execute();
  await db.schema.createIndex('space_members_space_group').on('space_members').columns(['space_id', 'group_id']).unique().execute();
  await db.schema.createIndex('space_members_user').on('space_members').columns(['user_id', 'workspace_id']).execute();
  await db.schema.createIndex('space_members_group').on('space_members').column('group_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['space_members', 'group_members', 'groups', 'spaces']) await db.schema.dropTable(t).execute();
}

import { type Kysely, sql } from 'kysely';

/**
 * Notifications (issue 16): one row per (recipient, event), made by the events dispatcher; each person's preferences per
 * kind; and what people watch (a page or a space). `in_app` false keeps a row only for the email digest (hidden from the
 * list, the count and the stream); `email` says whether the digest should mail it (the preference when it was made).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('mention','reply','assigned','watch','webhook_disabled')`))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('subject_type', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('page_id', 'text')
    .addColumn('space_id', 'text')
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('in_app', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('email', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('read_at', 'timestamptz')
    .addColumn('emailed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('notifications_user_event', ['user_id', 'event_id'])
    .execute();
  // The bell: a person's unread notifications, newest first; and the list, unread first.
  await sql`create index notifications_user_unread on notifications (user_id, id desc) where read_at is null and in_app`.execute(db);
  await sql`create index notifications_user_list on notifications (user_id, workspace_id, id desc)`.execute(db);
  // The live streams: the notifications of the events a dispatch just fanned out.
  await db.schema.createIndex('notifications_event').on('notifications').column('event_id').execute();
  // The digest: rows still waiting for their mail.
  await sql`create index notifications_digest on notifications (user_id, id) where email and emailed_at is null and read_at is null`.execute(db);

  await db.schema
    .createTable('notification_preferences')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('in_app', 'boolean', (c) => c.notNull())
    .addColumn('email', 'boolean', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('notification_preferences_pk', ['user_id', 'kind'])
    .execute();

  await db.schema
    .createTable('watches')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('target_type', 'text', (c) => c.notNull().check(sql`target_type in ('page','space')`))
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('watches_pk', ['user_id', 'target_type', 'target_id'])
    .execute();
  await db.schema.createIndex('watches_target').on('watches').columns(['workspace_id', 'target_type', 'target_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('watches').execute();
  await db.schema.dropTable('notification_preferences').execute();
  await db.schema.dropTable('notifications').execute();
}

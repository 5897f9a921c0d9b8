import { type Kysely, sql } from 'kysely';

/**
 * Comments on text (issue 30): a thread's first comment may hold an anchor, the commented range as two Yjs relative
 * positions in the page's live document plus the text quoted when it was made (`{ start, end, quote }`, base64 of
 * `Y.encodeRelativePosition`), so the range follows edits by anyone. And emoji reactions: one row per comment, person
 * and emoji; they go with the comment or the person.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('comments').addColumn('anchor', 'jsonb').execute();

  await db.schema
    .createTable('comment_reactions')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('comment_id', 'text', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('emoji', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('comment_reactions_pkey', ['comment_id', 'user_id', 'emoji'])
    .execute();
  await sql`create index comment_reactions_user on comment_reactions (user_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('comment_reactions').execute();
  await db.schema.alterTable('comments').dropColumn('anchor').execute();
}

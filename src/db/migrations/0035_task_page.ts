import { type Kysely, sql } from 'kysely';

/**
 * A task may name the page it is about (issue 12: "a task links to its page"). Purging the page clears the link; a page
 * in the trash keeps it (recovering the page brings the link back). Indexed for "the tasks of this page".
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('tasks')
    .addColumn('page_id', 'text', (c) => c.references('pages.id').onDelete('set null'))
    .execute();
  await sql`create index tasks_page on tasks (workspace_id, page_id) where page_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tasks').dropColumn('page_id').execute();
}

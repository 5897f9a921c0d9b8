import { type Kysely, sql } from 'kysely';

/**
 * Full-text search: stored, generated `tsvector`s, so the index is current in the same transaction as every write
 * to a page or a task, with no code in those areas. Title words weigh A, body words B (ranking reads the weight
 * to tell title matches from body matches). `title_words` keeps page titles unstemmed for suggestions.
 * The GIN indexes skip trashed pages: search never shows them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table pages add column search_vector tsvector generated always as (
      setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', coalesce(text_content, '')), 'B')
    ) stored`.execute(db);
  await sql`alter table pages add column title_words tsvector generated always as (to_tsvector('simple', coalesce(title, ''))) stored`.execute(db);
  await sql`create index pages_search on pages using gin (search_vector) where deleted_at is null`.execute(db);
  await sql`create index pages_title_words on pages using gin (title_words) where deleted_at is null`.execute(db);
  await sql`create index pages_workspace_recent on pages (workspace_id, updated_at desc) where deleted_at is null`.execute(db);

  await sql`alter table tasks add column search_vector tsvector generated always as (
      setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', coalesce(description, '')), 'B')
    ) stored`.execute(db);
  await sql`create index tasks_search on tasks using gin (search_vector)`.execute(db);
  await sql`create index tasks_workspace_recent on tasks (workspace_id, updated_at desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const i of ['pages_search', 'pages_title_words', 'pages_workspace_recent', 'tasks_search', 'tasks_workspace_recent'])
    await sql`drop index if exists ${sql.id(i)}`.execute(db);
  await sql`alter table pages drop column if exists search_vector, drop column if exists title_words`.execute(db);
  await sql`alter table tasks drop column if exists search_vector`.execute(db);
}

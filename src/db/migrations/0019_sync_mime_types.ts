import { type Kysely, sql } from 'kysely';

/**
 * Local sync stores the file's MIME type (`text/markdown`, `image/png`) as its content type, besides the words
 * `text` and `binary` it knew before: the check that allowed only the two words goes. The service validates the
 * value (src/sync-rules/content.ts) and existing rows stay valid as they are.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sync_files drop constraint if exists sync_files_content_type_check`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update sync_files set content_type = case when content_type = 'text' or content_type like 'text/%' or content_type like '%+json'
    or content_type like '%+xml' or content_type in ('application/json', 'application/xml') then 'text' else 'binary' end
    where content_type not in ('text', 'binary')`.execute(db);
  await sql`alter table sync_files add constraint sync_files_content_type_check check (content_type in ('text', 'binary'))`.execute(db);
}

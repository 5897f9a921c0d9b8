import { type Kysely, sql } from 'kysely';

/**
 * History without a second copy of every page: the newest entry of a page is its current version, whose content the
 * page row holds already, so that entry stores no content (null) and reads take the page's. When the page gets a new
 * version, the entry it supersedes is given the content the page had (in the same transaction as the new version).
 * Existing newest entries whose content equals the page's give theirs up here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table page_history alter column content drop not null`.execute(db);
  await sql`update page_history h set content = null from pages p
    where p.id = h.page_id and p.workspace_id = h.workspace_id and h.version = p.version and h.content = p.content`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update page_history h set content = p.content from pages p where p.id = h.page_id and h.content is null`.execute(db);
  await sql`alter table page_history alter column content set not null`.execute(db);
}

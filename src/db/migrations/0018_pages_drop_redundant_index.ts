import { type Kysely, sql } from 'kysely';

/**
 * `pages_workspace_recent` (workspace, updated_at desc, where live; migration 0006) is a prefix of `pages_recent`
 * (workspace, updated_at desc, id desc, where live; migration 0015): every query it served, `pages_recent` serves, and
 * each page write paid for both.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists pages_workspace_recent`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists pages_workspace_recent on pages (workspace_id, updated_at desc) where deleted_at is null`.execute(db);
}

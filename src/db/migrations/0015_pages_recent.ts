import { type Kysely, sql } from 'kysely';

/** A workspace's most recently edited live pages, newest first, without sorting them all. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists pages_recent on pages (workspace_id, updated_at desc, id desc) where deleted_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists pages_recent`.execute(db);
}

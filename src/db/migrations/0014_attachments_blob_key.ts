import { type Kysely, sql } from 'kysely';

/** The blob sweep asks which of a batch of blob keys still have an attachment row. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists attachments_blob_key on attachments (blob_key)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists attachments_blob_key`.execute(db);
}

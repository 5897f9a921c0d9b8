import { type Kysely, sql } from 'kysely';

/**
 * Co-editing: a page keeps its Yjs state (`ydoc`, the CRDT the live document is made of) next to its ProseMirror
 * JSON, so a live session resumes where it stopped and a write from outside can be merged into it. Null until the
 * page is first opened for co-editing. A history entry names everyone whose edits it holds (`contributors`, user ids).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table pages add column ydoc bytea`.execute(db);
  await sql`alter table page_history add column contributors jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table page_history drop column contributors`.execute(db);
  await sql`alter table pages drop column ydoc`.execute(db);
}

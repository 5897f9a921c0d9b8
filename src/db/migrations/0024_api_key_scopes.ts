import { type Kysely, sql } from 'kysely';

/** API keys with scopes (issue 15): read-only or read-write, and an optional expiry. Existing keys stay read-write and never expire. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('api_keys')
    .addColumn('access', 'text', (c) => c.notNull().defaultTo('read-write').check(sql`access in ('read-only','read-write')`))
    .execute();
  await db.schema.alterTable('api_keys').addColumn('expires_at', 'timestamptz').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('expires_at').execute();
  await db.schema.alterTable('api_keys').dropColumn('access').execute();
}

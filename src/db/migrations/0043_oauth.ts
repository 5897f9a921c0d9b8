import { type Kysely, sql } from 'kysely';

/**
 * kb as an OAuth 2.1 authorization server (issue 31). `oauth_records` is oidc-provider's storage (one row per stored
 * object: clients registered dynamically, interactions, grants, codes, tokens), keyed by model and id; the ids of codes
 * and tokens are kept only as sha256 hashes, like API keys. `oauth_connections` is kb's own record of a grant a person
 * gave an app: the workspace it is limited to, the scopes, when it was last used and whether it was disconnected.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oauth_records')
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('grant_id', 'text')
    .addColumn('uid', 'text')
    .addColumn('expires_at', 'timestamptz')
    .addColumn('consumed_at', 'timestamptz')
    .addPrimaryKeyConstraint('oauth_records_pkey', ['model', 'id'])
    .execute();
  await db.schema.createIndex('oauth_records_grant').on('oauth_records').column('grant_id').where(sql.ref('grant_id'), 'is not', null).execute();
  await db.schema.createIndex('oauth_records_uid').on('oauth_records').column('uid').where(sql.ref('uid'), 'is not', null).execute();
  await db.schema.createIndex('oauth_records_expiry').on('oauth_records').column('expires_at').execute();

  await db.schema
    .createTable('oauth_connections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('client_name', 'text', (c) => c.notNull())
    .addColumn('client_uri', 'text')
    .addColumn('registration', 'text', (c) => c.notNull().check(sql`registration in ('metadata_document','dynamic')`))
    .addColumn('scopes', sql`text[]`, (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('oauth_connections_user').on('oauth_connections').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('oauth_connections').execute();
  await db.schema.dropTable('oauth_records').execute();
}

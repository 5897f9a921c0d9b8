import { type Kysely, sql } from 'kysely';

/**
 * Verified email addresses (issue 29): `users.email_verified_at` is set when kb knows the account's holder reads its
 * mailbox (a provider that vouches for the email at single sign-on, a verification link kb mailed, the operator's
 * `kb user create`). Single sign-on links a provider login to an existing account only through it.
 *
 * Existing accounts: verified only when they were made by single sign-on and never had a password of their own (an
 * identity and no password hash). Every other account starts unverified, including password accounts already linked
 * to an identity: such a link may be a pre-account takeover, so their next single sign-on claims them (docs/sso.md).
 *
 * `email_verifications`: the one-time links `POST /auth/verify-email` mails, kept as sha256 hashes like reset links.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('email_verified_at', 'timestamptz').execute();
  await sql`
    update users u set email_verified_at = i.first_seen
    from (select user_id, min(created_at) as first_seen from user_identities group by user_id) i
    where i.user_id = u.id and u.password_hash is null`.execute(db);

  await db.schema
    .createTable('email_verifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('email_verifications_user').on('email_verifications').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('email_verifications').execute();
  await db.schema.alterTable('users').dropColumn('email_verified_at').execute();
}

import { type Kysely, sql } from 'kysely';

/**
 * Invitations to an existing account (issue 29): adding an account to a workspace by its id invites it, and its holder
 * accepts or declines with their own session. `user_id` names that account (null: an invitation to an email address);
 * `declined_at` is set when the person declines (the invitation is closed like a revoked one).
 * Indexes for the hourly invitation limits, counted per inviter and per workspace from these rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('invitations')
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('declined_at', 'timestamptz')
    .execute();
  await sql`create index invitations_open_user on invitations (user_id) where user_id is not null and accepted_at is null and revoked_at is null`.execute(db);
  await db.schema.createIndex('invitations_inviter_created').on('invitations').columns(['invited_by', 'created_at']).execute();
  await db.schema.createIndex('invitations_workspace_created').on('invitations').columns(['workspace_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('invitations_workspace_created').execute();
  await db.schema.dropIndex('invitations_inviter_created').execute();
  await db.schema.dropIndex('invitations_open_user').execute();
  await db.schema.alterTable('invitations').dropColumn('declined_at').dropColumn('user_id').execute();
}

import type { Kysely } from 'kysely';

/**
 * Workspace-scoped API keys (issue 15): a key limited to one workspace acts, everywhere else, as a user who is not a
 * member. Null (every existing key): all of the user's workspaces. Deleting the workspace deletes its keys.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('api_keys')
    .addColumn('workspace_id', 'text', (c) => c.references('workspaces.id').onDelete('cascade'))
    .execute();
  await db.schema.createIndex('api_keys_workspace').on('api_keys').column('workspace_id').where('workspace_id', 'is not', null).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('api_keys_workspace').execute();
  await db.schema.alterTable('api_keys').dropColumn('workspace_id').execute();
}

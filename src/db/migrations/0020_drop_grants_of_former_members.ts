import { type Kysely, sql } from 'kysely';

/**
 * Members removed from a workspace used to keep their space grants and group memberships, so re-adding them (as a
 * viewer, say) gave back a space admin role. Removal now deletes them in the same transaction; this drops the ones
 * left behind by earlier removals.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`delete from space_members sm
    where sm.user_id is not null
      and not exists (select 1 from workspace_members wm where wm.workspace_id = sm.workspace_id and wm.user_id = sm.user_id)`.execute(db);
  await sql`delete from group_members gm
    where not exists (select 1 from workspace_members wm where wm.workspace_id = gm.workspace_id and wm.user_id = gm.user_id)`.execute(db);
}

export async function down(): Promise<void> {
  // The removed grants were stale; there is nothing to restore.
}

import { type Kysely, sql } from 'kysely';

/**
 * `workspaces.member_count`, kept by a trigger on `workspace_members` in the same transaction as every insert and
 * delete (cascades included), so reading a workspace with its member count is one primary-key row, whatever the
 * workspace's size, instead of counting its members on every read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table workspaces add column member_count integer not null default 0`.execute(db);
  await sql`update workspaces w set member_count = (select count(*) from workspace_members m where m.workspace_id = w.id)`.execute(db);
  await sql`create or replace function workspace_member_count() returns trigger language plpgsql as $fn$
    begin
      if tg_op = 'INSERT' then
        update workspaces set member_count = member_count + 1 where id = new.workspace_id;
      elsif tg_op = 'DELETE' then
        update workspaces set member_count = member_count - 1 where id = old.workspace_id;
      elsif new.workspace_id is distinct from old.workspace_id then
        update workspaces set member_count = member_count - 1 where id = old.workspace_id;
        update workspaces set member_count = member_count + 1 where id = new.workspace_id;
      end if;
      return null;
    end $fn$`.execute(db);
  await sql`create trigger workspace_members_count after insert or delete or update of workspace_id on workspace_members
    for each row execute function workspace_member_count()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists workspace_members_count on workspace_members`.execute(db);
  await sql`drop function if exists workspace_member_count()`.execute(db);
  await sql`alter table workspaces drop column if exists member_count`.execute(db);
}

import { type Kysely, sql } from 'kysely';

/**
 * Page-level permissions (issue 15). A restricted page is open only to the users and groups it names, each as viewer or
 * editor, and the restriction covers its subtree. `page_restricted_by` holds, for every page inside a restricted
 * subtree, each restriction above it (itself included), so a read checks one indexed table instead of walking parents.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('page_restrictions')
    .addColumn('page_id', 'text', (c) => c.primaryKey().references('pages.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('page_restriction_grants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('page_id', 'text', (c) => c.notNull().references('page_restrictions.page_id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('group_id', 'text', (c) => c.references('groups.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('viewer','editor')`))
    .addCheckConstraint('page_restriction_grants_one_grantee', sql`(user_id is null) <> (group_id is null)`)
    .execute();
  await sql`create unique index page_restriction_grants_user on page_restriction_grants (page_id, user_id) where user_id is not null`.execute(db);
  await sql`create unique index page_restriction_grants_group on page_restriction_grants (page_id, group_id) where group_id is not null`.execute(db);
  await db.schema
    .createTable('page_restricted_by')
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('restriction_page_id', 'text', (c) => c.notNull().references('page_restrictions.page_id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('page_restricted_by_pk', ['page_id', 'restriction_page_id'])
    .execute();
  await db.schema.createIndex('page_restricted_by_restriction').on('page_restricted_by').column('restriction_page_id').execute();
  await createRestrictedByTriggers(db);
}

/**
 * `page_restricted_by` follows the tree in the same transaction as every write: a new page (one insert or many, an
 * import's parents before their children) takes its parent's rows; a moved page and its subtree drop the rows they
 * inherited from outside the subtree and take their new parent's. Restricting and opening up are the service's
 * (insert the subtree's rows; delete the restriction, whose rows go by cascade).
 */
async function createRestrictedByTriggers(db: Kysely<unknown>): Promise<void> {
  // A page and every page below it (the trash included: a trashed page stays behind its restrictions).
  await sql`create or replace function page_subtree(root text) returns table (id text) language sql stable as $fn$
    with recursive sub(id, depth) as (
      select root, 0
      union all
      select p.id, sub.depth + 1 from pages p join sub on p.parent_id = sub.id where sub.depth < 100000
    )
    select distinct sub.id from sub
  $fn$`.execute(db);
  await sql`create or replace function page_restricted_by_on_insert() returns trigger language plpgsql as $fn$
    begin
      if new.parent_id is not null then
        insert into page_restricted_by (page_id, restriction_page_id, workspace_id)
          select new.id, r.restriction_page_id, r.workspace_id from page_restricted_by r where r.page_id = new.parent_id
          on conflict do nothing;
      end if;
      return null;
    end $fn$`.execute(db);
  await sql`create trigger pages_restricted_by_insert after insert on pages
    for each row execute function page_restricted_by_on_insert()`.execute(db);
  await sql`create or replace function page_restricted_by_on_move() returns trigger language plpgsql as $fn$
    begin
      if new.parent_id is not distinct from old.parent_id then
        return null;
      end if;
      delete from page_restricted_by r
        where r.page_id in (select id from page_subtree(new.id))
          and r.restriction_page_id not in (select id from page_subtree(new.id));
      if new.parent_id is not null then
        insert into page_restricted_by (page_id, restriction_page_id, workspace_id)
          select m.id, r.restriction_page_id, r.workspace_id
          from page_subtree(new.id) m cross join page_restricted_by r
          where r.page_id = new.parent_id
          on conflict do nothing;
      end if;
      return null;
    end $fn$`.execute(db);
  await sql`create trigger pages_restricted_by_move after update of parent_id on pages
    for each row execute function page_restricted_by_on_move()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists pages_restricted_by_move on pages`.execute(db);
  await sql`drop trigger if exists pages_restricted_by_insert on pages`.execute(db);
  await sql`drop function if exists page_restricted_by_on_move()`.execute(db);
  await sql`drop function if exists page_restricted_by_on_insert()`.execute(db);
  await sql`drop function if exists page_subtree(text)`.execute(db);
  await db.schema.dropTable('page_restricted_by').execute();
  await db.schema.dropTable('page_restriction_grants').execute();
  await db.schema.dropTable('page_restrictions').execute();
}

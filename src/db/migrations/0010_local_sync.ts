import { type Kysely, sql } from 'kysely';

/**
 * Local sync: connectors, sources, the current file of each path, every version (history), content-addressed
 * bytes, the per-source event stream (ordered by a bigint identity), conflicts and the operation ids seen.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sync_connectors')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index sync_connectors_ws on sync_connectors (workspace_id)`.execute(db);

  await db.schema
    .createTable('sync_sources')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('bidirectional', 'push_only', 'pull_only')`))
    .addColumn('connector_id', 'text', (c) => c.references('sync_connectors.id').onDelete('set null'))
    .addColumn('include_patterns', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('exclude_patterns', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('paused_at', 'timestamptz')
    .addColumn('paused_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index sync_sources_name on sync_sources (workspace_id, lower(name))`.execute(db);

  await db.schema
    .createTable('sync_blobs')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('content', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('sync_blobs_pk', ['workspace_id', 'hash'])
    .execute();
  // Stored out of line without compression: writing large batches of file contents costs half the time.
  await sql`alter table sync_blobs alter column content set storage external`.execute(db);

  await db.schema
    .createTable('sync_files')
    .addColumn('source_id', 'text', (c) => c.notNull().references('sync_sources.id').onDelete('cascade'))
    .addColumn('relative_path', sql`text collate "C"`, (c) => c.notNull()) // byte order: the files list pages by it
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('content_hash', 'text')
    .addColumn('content_type', 'text', (c) => c.notNull().check(sql`content_type in ('text', 'binary')`))
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('deleted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('updated_by', 'text')
    .addColumn('updated_by_connector', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('sync_files_pk', ['source_id', 'relative_path'])
    .execute();

  await sql`
    create table sync_versions (
      id bigint generated always as identity primary key,
      workspace_id text not null,
      source_id text not null references sync_sources(id) on delete cascade,
      relative_path text not null,
      content_hash text,
      content_type text not null,
      size integer not null,
      deleted boolean not null,
      origin text not null check (origin in ('push', 'update', 'resolve')),
      user_id text,
      connector_id text,
      conflict_id text,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index sync_versions_path on sync_versions (source_id, relative_path, id desc)`.execute(db);

  await sql`
    create table sync_events (
      seq bigint generated always as identity primary key,
      workspace_id text not null,
      source_id text not null references sync_sources(id) on delete cascade,
      type text not null check (type in ('file.upsert', 'file.delete', 'conflict.opened', 'conflict.resolved', 'source.paused', 'source.resumed')),
      relative_path text,
      content_hash text,
      content_type text,
      size integer,
      conflict_id text,
      local_hash text,
      service_hash text,
      base_hash text,
      resolution text,
      user_id text,
      connector_id text,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index sync_events_source on sync_events (source_id, seq)`.execute(db);

  await db.schema
    .createTable('sync_conflicts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('source_id', 'text', (c) => c.notNull().references('sync_sources.id').onDelete('cascade'))
    .addColumn('relative_path', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('open', 'resolved')`))
    .addColumn('origin', 'text', (c) => c.notNull().check(sql`origin in ('push', 'update')`))
    .addColumn('local_hash', 'text')
    .addColumn('local_content_type', 'text', (c) => c.notNull())
    .addColumn('service_hash', 'text')
    .addColumn('service_content_type', 'text', (c) => c.notNull())
    .addColumn('base_hash', 'text')
    .addColumn('connector_id', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('resolution', 'text')
    .addColumn('resolved_hash', 'text')
    .addColumn('resolved_by', 'text')
    .addColumn('resolved_at', 'timestamptz')
    .execute();
  // At most one open conflict per path.
  await sql`create unique index sync_conflicts_open on sync_conflicts (source_id, relative_path) where status = 'open'`.execute(db);
  await sql`create index sync_conflicts_path on sync_conflicts (source_id, relative_path, created_at)`.execute(db);

  await db.schema
    .createTable('sync_operations')
    .addColumn('source_id', 'text', (c) => c.notNull().references('sync_sources.id').onDelete('cascade'))
    .addColumn('operation_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('content_hash', 'text')
    .addColumn('conflict_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('sync_operations_pk', ['source_id', 'operation_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['sync_operations', 'sync_conflicts', 'sync_events', 'sync_versions', 'sync_files', 'sync_blobs', 'sync_sources', 'sync_connectors'])
    await db.schema.dropTable(t).ifExists().execute();
}

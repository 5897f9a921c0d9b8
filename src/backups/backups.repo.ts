import { sql } from 'kysely';
import type { Db } from '../db/index.js';
import type { RecordCounts } from './backup.manifest.js';

/**
 * The few queries a backup and a restore make of the whole database (every workspace at once: a backup is the
 * operator's, not a workspace's). `db` is the snapshot's transaction when the answers must match a dump.
 */
export const backupsRepo = {
  async counts(db: Db): Promise<RecordCounts> {
    const { rows } = await sql<RecordCounts>`
      select (select count(*)::int from users) as users,
             (select count(*)::int from pages) as pages,
             (select count(*)::int from page_history) as page_versions,
             (select count(*)::int from tasks) as tasks,
             (select count(*)::int from attachments) as attachments`.execute(db);
    return rows[0];
  },

  /**
   * Every blob key a row names, as the blob sweep counts them: attachments, finished exports' zips, and the uploads
   * of imports still to run.
   */
  async blobKeys(db: Db): Promise<string[]> {
    const { rows } = await sql<{ key: string }>`
      select blob_key as key from attachments
      union select blob_key from exports where status = 'succeeded'
      union select blob_key from imports where status in ('queued', 'running')
      order by 1`.execute(db);
    return rows.map((r) => r.key);
  },

  async lastMigration(db: Db): Promise<string | null> {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by timestamp desc, name desc limit 1`.execute(db);
    return rows[0]?.name ?? null;
  },

  async serverVersion(db: Db): Promise<{ version: string; major: number }> {
    const { rows } = await sql<{
      version: string;
      num: string;
    }>`select current_setting('server_version') as version, current_setting('server_version_num') as num`.execute(db);
    return { version: rows[0].version, major: Math.floor(Number(rows[0].num) / 10000) };
  },

  /** Tables in the database's own schemas: a restore goes into a database with none. */
  async tableCount(db: Db): Promise<number> {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_catalog.pg_tables
      where schemaname not in ('pg_catalog', 'information_schema')`.execute(db);
    return rows[0].n;
  },

  /** Exports a snapshot of this (repeatable read) transaction, for `pg_dump --snapshot` to read the same data. */
  async exportSnapshot(db: Db): Promise<string> {
    const { rows } = await sql<{ id: string }>`select pg_export_snapshot() as id`.execute(db);
    return rows[0].id;
  },
};

import { sql } from 'kysely';
import type { Db } from '../../db/index.js';
import type { SyncResolution } from '../../db/tables/local-sync.js';

/** SQL of the source writer: the state of paths before a batch, and the multi-row writes of its flush. */

type Columns = readonly (readonly [name: string, type: string])[];
const COMMON: Columns = [
  ['workspace_id', 'text'],
  ['source_id', 'text'],
  ['created_at', 'timestamptz'],
];
export const VERSION_COLUMNS: Columns = [
  ...COMMON,
  ['relative_path', 'text'],
  ['content_hash', 'text'],
  ['content_type', 'text'],
  ['size', 'int'],
  ['deleted', 'boolean'],
  ['origin', 'text'],
  ['user_id', 'text'],
  ['connector_id', 'text'],
  ['conflict_id', 'text'],
];
export const FILE_COLUMNS: Columns = [
  ...COMMON,
  ['relative_path', 'text'],
  ['content_hash', 'text'],
  ['content_type', 'text'],
  ['size', 'int'],
  ['deleted', 'boolean'],
  ['version', 'int'],
  ['updated_by', 'text'],
  ['updated_by_connector', 'text'],
  ['updated_at', 'timestamptz'],
];
export const FILE_UPSERT = `on conflict (source_id, relative_path) do update set content_hash = excluded.content_hash,
  content_type = excluded.content_type, size = excluded.size, deleted = excluded.deleted, version = excluded.version,
  updated_by = excluded.updated_by, updated_by_connector = excluded.updated_by_connector, updated_at = excluded.updated_at`;
export const CONFLICT_COLUMNS: Columns = [
  ...COMMON,
  ['id', 'text'],
  ['relative_path', 'text'],
  ['status', 'text'],
  ['origin', 'text'],
  ['local_hash', 'text'],
  ['local_content_type', 'text'],
  ['service_hash', 'text'],
  ['service_content_type', 'text'],
  ['base_hash', 'text'],
  ['connector_id', 'text'],
  ['created_by', 'text'],
  ['updated_at', 'timestamptz'],
];
export const EVENT_COLUMNS: Columns = [
  ...COMMON,
  ['type', 'text'],
  ['relative_path', 'text'],
  ['content_hash', 'text'],
  ['content_type', 'text'],
  ['size', 'int'],
  ['conflict_id', 'text'],
  ['local_hash', 'text'],
  ['service_hash', 'text'],
  ['base_hash', 'text'],
  ['resolution', 'text'],
  ['user_id', 'text'],
  ['connector_id', 'text'],
];
export const OPERATION_COLUMNS: Columns = [
  ['source_id', 'text'],
  ['operation_id', 'text'],
  ['workspace_id', 'text'],
  ['status', 'text'],
  ['content_hash', 'text'],
  ['conflict_id', 'text'],
  ['created_at', 'timestamptz'],
];

/** Splits rows into chunks of at most `max` rows (and, with `weight`, at most `maxWeight` in total). */
function* chunks<T>(rows: T[], max: number, weight?: (r: T) => number, maxWeight = Number.POSITIVE_INFINITY): Generator<T[]> {
  let cur: T[] = [];
  let w = 0;
  for (const r of rows) {
    const rw = weight ? weight(r) : 0;
    if (cur.length && (cur.length >= max || w + rw > maxWeight)) {
      yield cur;
      cur = [];
      w = 0;
    }
    cur.push(r);
    w += rw;
  }
  if (cur.length) yield cur;
}

/**
 * A multi-row insert as one JSON parameter expanded by json_to_recordset: a short statement PostgreSQL parses
 * (and PGlite prepares) once, instead of thousands of bind parameters. Table and column names are constants.
 * The identity columns number the rows in the order json_to_recordset yields them: the order given.
 */
export async function insertJson(db: Db, table: string, columns: Columns, rows: Record<string, unknown>[], suffix = '') {
  if (!rows.length) return;
  const names = columns.map(([n]) => n).join(', ');
  const types = columns.map(([n, t]) => `${n} ${t}`).join(', ');
  for (const chunk of chunks(rows, 5000))
    await sql`insert into ${sql.raw(table)} (${sql.raw(names)}) select ${sql.raw(names)} from json_to_recordset(${JSON.stringify(chunk)}::json) as x(${sql.raw(types)}) ${sql.raw(suffix)}`.execute(
      db,
    );
}

export const sourceWriterRepo = {
  /** File rows and open conflicts of these paths of a source. */
  async pathState(db: Db, workspaceId: string, sourceId: string, paths: string[]) {
    const [files, conflicts] = await Promise.all([
      db
        .selectFrom('syncFiles')
        .selectAll()
        .where('sourceId', '=', sourceId)
        .where('workspaceId', '=', workspaceId)
        .where('relativePath', 'in', paths)
        .execute(),
      db
        .selectFrom('syncConflicts')
        .select(['id', 'relativePath', 'localHash', 'localContentType', 'serviceHash', 'serviceContentType', 'baseHash'])
        .where('sourceId', '=', sourceId)
        .where('workspaceId', '=', workspaceId)
        .where('status', '=', 'open')
        .where('relativePath', 'in', paths)
        .execute(),
    ]);
    return { files, conflicts };
  },

  /** Content-addressed bytes, stored once per hash (in chunks of at most 16 MB). */
  async insertBlobs(db: Db, workspaceId: string, blobs: Map<string, Buffer>) {
    const rows = [...blobs].map(([hash, content]) => ({ workspaceId, hash, size: content.length, content }));
    for (const chunk of chunks(rows, 2000, (r) => r.size, 16 * 1024 * 1024))
      await db
        .insertInto('syncBlobs')
        .values(chunk)
        .onConflict((oc) => oc.columns(['workspaceId', 'hash']).doNothing())
        .execute();
  },

  async updateConflictSides(
    db: Db,
    workspaceId: string,
    id: string,
    sides: { localHash: string | null; localContentType: string; serviceHash: string | null; serviceContentType: string },
    now: Date,
  ) {
    await db
      .updateTable('syncConflicts')
      .set({ ...sides, updatedAt: now })
      .where('id', '=', id)
      .where('workspaceId', '=', workspaceId)
      .execute();
  },

  async resolveConflict(db: Db, workspaceId: string, r: { id: string; resolution: SyncResolution; resultHash: string | null }, userId: string, now: Date) {
    await db
      .updateTable('syncConflicts')
      .set({ status: 'resolved', resolution: r.resolution, resolvedHash: r.resultHash, resolvedBy: userId, resolvedAt: now, updatedAt: now })
      .where('id', '=', r.id)
      .where('workspaceId', '=', workspaceId)
      .execute();
  },
};

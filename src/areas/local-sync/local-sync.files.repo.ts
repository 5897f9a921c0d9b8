import type { Db } from '../../db/index.js';

/** SQL of local sync's files, versions, blobs and conflicts (reads; writes go through the source writer). */

const FILE_COLUMNS = [
  'f.sourceId',
  'f.relativePath',
  'f.contentHash',
  'f.contentType',
  'f.size',
  'f.deleted',
  'f.version',
  'f.updatedAt',
  'f.updatedBy',
  'f.updatedByConnector',
] as const;

const CONFLICT_COLUMNS = [
  'id',
  'sourceId',
  'relativePath',
  'status',
  'localHash',
  'serviceHash',
  'baseHash',
  'localContentType',
  'serviceContentType',
  'origin',
  'connectorId',
  'createdAt',
] as const;

/** File rows of a source with the id of the path's open conflict. */
function fileQuery(db: Db, workspaceId: string, sourceId: string) {
  return db
    .selectFrom('syncFiles as f')
    .leftJoin('syncConflicts as k', (j) =>
      j
        .onRef('k.sourceId', '=', 'f.sourceId')
        .onRef('k.workspaceId', '=', 'f.workspaceId')
        .onRef('k.relativePath', '=', 'f.relativePath')
        .on('k.status', '=', 'open'),
    )
    .select([...FILE_COLUMNS, 'k.id as conflictId'])
    .where('f.sourceId', '=', sourceId)
    .where('f.workspaceId', '=', workspaceId);
}

export const syncFilesRepo = {
  findFile(db: Db, workspaceId: string, sourceId: string, path: string) {
    return fileQuery(db, workspaceId, sourceId).where('f.relativePath', '=', path).executeTakeFirst();
  },

  /** Up to `limit` files after `after` (byte order of the path). */
  listFiles(db: Db, workspaceId: string, sourceId: string, q: { after: string | null; limit: number; includeDeleted: boolean }) {
    let query = fileQuery(db, workspaceId, sourceId).orderBy('f.relativePath').limit(q.limit);
    if (q.after !== null) query = query.where('f.relativePath', '>', q.after);
    if (!q.includeDeleted) query = query.where('f.deleted', '=', false);
    return query.execute();
  },

  /** Stored bytes of a hash in the workspace. */
  async blob(db: Db, workspaceId: string, hash: string): Promise<Buffer | null> {
    const row = await db.selectFrom('syncBlobs').select('content').where('workspaceId', '=', workspaceId).where('hash', '=', hash).executeTakeFirst();
    return row ? Buffer.from(row.content) : null;
  },

  /** A version of a path with this hash: its content type and when it was written. */
  versionWithHash(db: Db, workspaceId: string, sourceId: string, path: string, hash: string) {
    return db
      .selectFrom('syncVersions')
      .select(['contentType', 'createdAt as at'])
      .where('sourceId', '=', sourceId)
      .where('workspaceId', '=', workspaceId)
      .where('relativePath', '=', path)
      .where('contentHash', '=', hash)
      .limit(1)
      .executeTakeFirst();
  },

  /** A conflict of a path with this hash on one of its sides or as its base. */
  conflictWithHash(db: Db, workspaceId: string, sourceId: string, path: string, hash: string) {
    return db
      .selectFrom('syncConflicts')
      .select(['localHash', 'localContentType', 'serviceContentType', 'createdAt as at'])
      .where('sourceId', '=', sourceId)
      .where('workspaceId', '=', workspaceId)
      .where('relativePath', '=', path)
      .where((eb) => eb.or([eb('localHash', '=', hash), eb('serviceHash', '=', hash), eb('baseHash', '=', hash)]))
      .limit(1)
      .executeTakeFirst();
  },

  /** Versions of a path, newest first, before the version id `before` (when given). */
  history(db: Db, workspaceId: string, sourceId: string, path: string, q: { before: number | null; limit: number }) {
    let query = db
      .selectFrom('syncVersions')
      .select(['id', 'contentHash', 'contentType', 'size', 'deleted', 'origin', 'userId', 'connectorId', 'conflictId', 'createdAt'])
      .where('sourceId', '=', sourceId)
      .where('workspaceId', '=', workspaceId)
      .where('relativePath', '=', path)
      .orderBy('id', 'desc')
      .limit(q.limit);
    if (q.before !== null) query = query.where('id', '<', q.before);
    return query.execute();
  },

  openConflicts(db: Db, workspaceId: string, sourceId: string) {
    return db
      .selectFrom('syncConflicts')
      .select(CONFLICT_COLUMNS)
      .where('sourceId', '=', sourceId)
      .where('workspaceId', '=', workspaceId)
      .where('status', '=', 'open')
      .orderBy('createdAt')
      .orderBy('id')
      .limit(10_000)
      .execute();
  },

  findConflict(db: Db, workspaceId: string, conflictId: string) {
    return db.selectFrom('syncConflicts').select(CONFLICT_COLUMNS).where('id', '=', conflictId).where('workspaceId', '=', workspaceId).executeTakeFirst();
  },
};

export type FileRow = NonNullable<Awaited<ReturnType<typeof syncFilesRepo.findFile>>>;
export type ConflictRow = NonNullable<Awaited<ReturnType<typeof syncFilesRepo.findConflict>>>;
export type VersionRow = Awaited<ReturnType<typeof syncFilesRepo.history>>[number];

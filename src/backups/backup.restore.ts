import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { buffer } from 'node:stream/consumers';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { BlobStore } from '../blobs/index.js';
import { type Database, migrateToLatest, openDatabase } from '../db/index.js';
import { BackupError } from './backup.errors.js';
import { blobEntry, type DatabaseKind, type Manifest, type RecordCounts } from './backup.manifest.js';
import { Meter } from './backup.meter.js';
import { type OpenBackup, openBackup } from './backup.read.js';
import { backupsRepo } from './backups.repo.js';
import { checkTool, startPgRestore } from './pg-tools.js';

/** Where a restore goes: an empty embedded data folder, or an empty database on a server; and the blob store. */
export interface RestoreTarget {
  /** The server's URL; absent, the embedded database in `pgdataDir`. */
  databaseUrl?: string;
  pgdataDir: string;
  blobs: BlobStore;
  /** Where pg_restore is looked for (the PATH setting). */
  path: string;
}

export type RestoreProgress = { phase: 'blobs'; done: number; total: number; bytes: number } | { phase: 'database'; bytes: number; done: boolean };

export interface RestoreResult {
  manifest: Manifest;
  /** Migrations run after the restore (a backup taken by an older kb). */
  migrations: string[];
}

const COUNT_NAMES: Record<keyof RecordCounts, string> = {
  users: 'users',
  pages: 'pages',
  pageVersions: 'page versions',
  tasks: 'tasks',
  attachments: 'attachments',
};

async function refuseNonEmptyFolder(dir: string) {
  if (!existsSync(dir)) return;
  if ((await readdir(dir)).length > 0) throw new BackupError(`${dir} is not empty: restore into a new DATA_DIR (or move the old pgdata folder away first)`);
}

async function refuseNonEmptyServer(database: Database, url: string) {
  const tables = await backupsRepo.tableCount(database.db);
  if (tables > 0) {
    const where = new URL(url);
    throw new BackupError(
      `the database ${where.pathname.slice(1)} on ${where.host} already holds ${tables} table${tables === 1 ? '' : 's'}: restore into a new, empty database (createdb)`,
    );
  }
}

/** Reads the database entry once to check its hash, so a damaged dump is refused before anything is restored. */
async function verifyDatabaseEntry(backup: OpenBackup): Promise<void> {
  const meter = new Meter();
  await pipeline(await backup.open(backup.manifest.database.entry), meter, new Writable({ write: (_chunk, _enc, done) => done() }));
  if (meter.sha256() !== backup.manifest.database.sha256)
    throw new BackupError(`the archive's ${backup.manifest.database.entry} is damaged (its SHA-256 differs from the manifest's)`);
}

/** Every blob into the store, each checked against the manifest's size and hash (a bad one is removed again). */
async function restoreBlobs(backup: OpenBackup, blobs: BlobStore, onProgress?: (p: RestoreProgress) => void) {
  const total = backup.manifest.blobs.length;
  let bytes = 0;
  let done = 0;
  let lastReport = 0;
  onProgress?.({ phase: 'blobs', done, total, bytes });
  for (const blob of backup.manifest.blobs) {
    const stored = await blobs.put(blob.key, await backup.open(blobEntry(blob.key)));
    if (stored.sha256 !== blob.sha256 || stored.size !== blob.size) {
      await blobs.delete(blob.key);
      throw new BackupError(`the archive's blob ${blob.key} is damaged (its SHA-256 differs from the manifest's)`);
    }
    bytes += stored.size;
    done++;
    if (Date.now() - lastReport >= 1000 || done === total) {
      lastReport = Date.now();
      onProgress?.({ phase: 'blobs', done, total, bytes });
    }
  }
}

/** The restored database must hold what the backup counted, before any migration touches it. */
async function checkCounts(database: Database, expected: RecordCounts) {
  const found = await backupsRepo.counts(database.db);
  for (const key of Object.keys(COUNT_NAMES) as (keyof RecordCounts)[])
    if (found[key] !== expected[key])
      throw new BackupError(`the restored database holds ${found[key]} ${COUNT_NAMES[key]}, the backup recorded ${expected[key]}: the restore is incomplete`);
}

async function restoreEmbedded(backup: OpenBackup, target: RestoreTarget): Promise<string[]> {
  const gunzip = createGunzip();
  const [tarball] = await Promise.all([buffer(gunzip), pipeline(await backup.open(backup.manifest.database.entry), gunzip)]);
  let database: Database | undefined;
  try {
    database = await openDatabase({ dataDir: target.pgdataDir, loadDataDir: new Blob([tarball]), poolSize: 1 });
    await checkCounts(database, backup.manifest.counts);
    return await migrateToLatest(database.db);
  } catch (err) {
    await database?.close().catch(() => {});
    database = undefined;
    await rm(target.pgdataDir, { recursive: true, force: true }); // it was empty before: leave it so
    throw err;
  } finally {
    await database?.close();
  }
}

async function restoreServer(backup: OpenBackup, url: string, target: RestoreTarget, database: Database): Promise<string[]> {
  const tool = startPgRestore(url, { PATH: target.path });
  try {
    await Promise.all([pipeline(await backup.open(backup.manifest.database.entry), tool.stdin), tool.done]);
  } catch (err) {
    tool.kill();
    // pg_restore's own words say more than the pipe it closed
    throw await tool.done.then(
      () => err,
      (toolErr) => toolErr,
    );
  }
  await checkCounts(database, backup.manifest.counts);
  return migrateToLatest(database.db);
}

/**
 * Restores an archive: checks it (a readable zip, a known manifest, every entry there) and the target (empty, same
 * kind of database), puts the blobs into the store verifying each hash, then loads the database (all or nothing on a
 * server, and an embedded data folder is removed again on failure), checks its record counts against the manifest and
 * migrates it to this kb's schema.
 */
export async function restoreBackup(file: string, target: RestoreTarget, onProgress?: (p: RestoreProgress) => void): Promise<RestoreResult> {
  const backup = await openBackup(file);
  let server: Database | undefined;
  try {
    const kind: DatabaseKind = target.databaseUrl ? 'postgres' : 'pglite';
    const from = backup.manifest.database.kind;
    if (from !== kind)
      throw new BackupError(
        from === 'pglite'
          ? 'this backup is of the embedded database (PGlite): restore it without DATABASE_URL, into an empty DATA_DIR (restoring it into a PostgreSQL server is not supported)'
          : 'this backup is of a PostgreSQL server: restore it with DATABASE_URL set to a new, empty database (restoring into the embedded database is not supported)',
      );
    if (target.databaseUrl) {
      server = await openDatabase({ url: target.databaseUrl, poolSize: 2 });
      await refuseNonEmptyServer(server, target.databaseUrl);
      await checkTool('pg_restore', { PATH: target.path }, Math.floor(Number(/^\d+/.exec(backup.manifest.database.serverVersion)?.[0] ?? 0)));
    } else await refuseNonEmptyFolder(target.pgdataDir);
    await verifyDatabaseEntry(backup);
    await restoreBlobs(backup, target.blobs, onProgress);
    onProgress?.({ phase: 'database', bytes: backup.manifest.database.size, done: false });
    const migrations = server && target.databaseUrl ? await restoreServer(backup, target.databaseUrl, target, server) : await restoreEmbedded(backup, target);
    onProgress?.({ phase: 'database', bytes: backup.manifest.database.size, done: true });
    return { manifest: backup.manifest, migrations };
  } finally {
    backup.close();
    await server?.close();
  }
}

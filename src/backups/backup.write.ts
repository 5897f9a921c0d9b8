import { createWriteStream } from 'node:fs';
import { chmod, readFile, rename, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipWriter } from '../areas/exports/exports.zip.js';
import { BlobNotFoundError, type BlobStore } from '../blobs/index.js';
import { type Db, embeddedEngineOf } from '../db/index.js';
import { PRIVATE_FILE_MODE } from '../private-files.js';
import { BackupError } from './backup.errors.js';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  type BlobRecord,
  blobEntry,
  DATABASE_ENTRY,
  MANIFEST_ENTRY,
  type Manifest,
  type RecordCounts,
} from './backup.manifest.js';
import { Meter } from './backup.meter.js';
import { backupsRepo } from './backups.repo.js';
import { checkTool, startPgDump } from './pg-tools.js';

/** What a backup reads: the database (the embedded engine is found from `db`), its URL on a server, and the blob store. */
export interface BackupSource {
  db: Db;
  /** The server's URL, for pg_dump; unused (and may be absent) on the embedded database. */
  databaseUrl?: string;
  blobs: BlobStore;
  /** Where pg_dump is looked for (the PATH setting). */
  path: string;
}

export type BackupProgress =
  | { phase: 'database'; bytes: number; done: boolean }
  | { phase: 'blobs'; done: number; total: number; bytes: number }
  | { phase: 'warning'; message: string };

export interface BackupOptions {
  onProgress?: (p: BackupProgress) => void;
  signal?: AbortSignal;
  now?: () => Date;
}

/** What the dump's snapshot said, besides the dump itself. */
interface Snapshot {
  counts: RecordCounts;
  blobKeys: string[];
  lastMigration: string | null;
  serverVersion: string;
}

let kbVersion: string | undefined;
async function packageVersion(): Promise<string> {
  kbVersion ??= await readFile(new URL('../../package.json', import.meta.url), 'utf8')
    .then((text) => String(JSON.parse(text).version))
    .catch(() => '0.0.0');
  return kbVersion;
}

async function readSnapshot(trx: Db): Promise<Snapshot> {
  return {
    counts: await backupsRepo.counts(trx),
    blobKeys: await backupsRepo.blobKeys(trx),
    lastMigration: await backupsRepo.lastMigration(trx),
    serverVersion: (await backupsRepo.serverVersion(trx)).version,
  };
}

/**
 * The embedded database: its data folder as a gzipped tarball, taken inside a transaction that also reads the blob
 * keys and counts. PGlite serves one connection, which this transaction holds, so no write lands between the reads
 * and the dump (requests wait for the length of the dump).
 */
async function dumpEmbedded(source: BackupSource, zip: ZipWriter, options: BackupOptions, now: Date) {
  const pglite = embeddedEngineOf(source.db);
  if (!pglite) throw new BackupError('the embedded database engine is not reachable from this connection');
  const { snapshot, dump } = await source.db.transaction().execute(async (trx) => {
    const snapshot = await readSnapshot(trx);
    return { snapshot, dump: Buffer.from(await (await pglite.dumpDataDir('gzip')).arrayBuffer()) };
  });
  options.onProgress?.({ phase: 'database', bytes: dump.length, done: false });
  const meter = new Meter();
  const piped = pipeline(Readable.from([dump]), meter);
  await zip.add(DATABASE_ENTRY.pglite, meter, { mtime: now, compress: false });
  await piped;
  return { snapshot, entry: DATABASE_ENTRY.pglite, size: meter.bytes, sha256: meter.sha256() };
}

/**
 * A PostgreSQL server: a repeatable-read transaction exports its snapshot, reads the blob keys and counts, and
 * pg_dump reads the same snapshot, so the dump and the key list agree exactly while the service keeps writing.
 */
async function dumpServer(source: BackupSource, zip: ZipWriter, options: BackupOptions, now: Date) {
  const url = source.databaseUrl;
  if (!url) throw new BackupError('a backup of a PostgreSQL server needs its DATABASE_URL');
  const { major } = await backupsRepo.serverVersion(source.db);
  await checkTool('pg_dump', { PATH: source.path }, major);
  return source.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      const snapshotId = await backupsRepo.exportSnapshot(trx);
      const snapshot = await readSnapshot(trx);
      const dump = startPgDump(url, snapshotId, { PATH: source.path }, options.signal);
      let reported = 0;
      const meter = new Meter((bytes) => {
        if (bytes - reported < 8 * 1024 * 1024) return;
        reported = bytes;
        options.onProgress?.({ phase: 'database', bytes, done: false });
      });
      const piped = pipeline(dump.stdout, meter);
      try {
        await Promise.all([zip.add(DATABASE_ENTRY.postgres, meter, { mtime: now, compress: false }), piped, dump.done]);
      } catch (err) {
        dump.kill(); // the zip failed (a full disk, say): pg_dump stops too
        throw err;
      }
      return { snapshot, entry: DATABASE_ENTRY.postgres, size: meter.bytes, sha256: meter.sha256() };
    });
}

/** Copies the blobs into the zip, stored as they are; a blob deleted since the dump is listed as missing. */
async function copyBlobs(source: BackupSource, zip: ZipWriter, keys: string[], options: BackupOptions, now: Date) {
  const blobs: BlobRecord[] = [];
  const missing: string[] = [];
  let bytes = 0;
  let lastReport = 0;
  const report = (force = false) => {
    if (!force && Date.now() - lastReport < 1000) return;
    lastReport = Date.now();
    options.onProgress?.({ phase: 'blobs', done: blobs.length + missing.length, total: keys.length, bytes });
  };
  report(true);
  for (const key of keys) {
    options.signal?.throwIfAborted();
    let stream: Readable;
    try {
      stream = await source.blobs.get(key);
    } catch (err) {
      if (!(err instanceof BlobNotFoundError)) throw err;
      missing.push(key);
      options.onProgress?.({ phase: 'warning', message: `blob ${key} is named by a row of the dump but is not in the store (deleted since?)` });
      continue;
    }
    const meter = new Meter();
    const piped = pipeline(stream, meter);
    await Promise.all([zip.add(blobEntry(key), meter, { mtime: now, compress: false }), piped]);
    blobs.push({ key, size: meter.bytes, sha256: meter.sha256() });
    bytes += meter.bytes;
    report();
  }
  report(true);
  return { blobs, missing };
}

/**
 * Writes one archive of the database and every blob its rows name to `file`: the database first (the dump and the
 * list of blob keys come from one snapshot), then the blobs (immutable: a key always holds the same bytes), then the
 * manifest. The zip streams to `<file>.partial`, renamed to `file` once complete, so a backup cut off half way never
 * looks like a backup. Nothing is deflated: the dump is compressed already and blobs mostly are.
 */
export async function writeBackup(source: BackupSource, file: string, options: BackupOptions = {}): Promise<Manifest> {
  const now = (options.now ?? (() => new Date()))();
  const partial = `${file}.partial`;
  const zip = new ZipWriter();
  // Owner-only (0600): an archive holds every page, attachment and password hash.
  const written = pipeline(zip.output, createWriteStream(partial, { flags: 'w', mode: PRIVATE_FILE_MODE }));
  written.catch(() => {});
  try {
    const kind = embeddedEngineOf(source.db) ? 'pglite' : 'postgres';
    const database = kind === 'pglite' ? await dumpEmbedded(source, zip, options, now) : await dumpServer(source, zip, options, now);
    options.onProgress?.({ phase: 'database', bytes: database.size, done: true });
    const { blobs, missing } = await copyBlobs(source, zip, database.snapshot.blobKeys, options, now);
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      kbVersion: await packageVersion(),
      createdAt: now.toISOString(),
      database: {
        kind,
        serverVersion: database.snapshot.serverVersion,
        lastMigration: database.snapshot.lastMigration,
        entry: database.entry,
        size: database.size,
        sha256: database.sha256,
      },
      counts: database.snapshot.counts,
      blobs,
      missingBlobs: missing,
    };
    await zip.add(MANIFEST_ENTRY, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), { mtime: now });
    zip.end();
    await written;
    await chmod(partial, PRIVATE_FILE_MODE); // a partial file left by an earlier run kept its own mode
    await rename(partial, file);
    return manifest;
  } catch (err) {
    zip.abort(err instanceof Error ? err : new Error(String(err)));
    await written.catch(() => {});
    await rm(partial, { force: true });
    throw err;
  }
}

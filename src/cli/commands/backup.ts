import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { Config } from '../../config.js';
import { CliError, cliConfig, describeDatabase } from '../common.js';
import { formatBytes } from '../sync/progress.js';

/** `kb backup FILE` and `kb restore FILE`: one archive of the database and every blob (docs/backup.md). */

type Progress =
  | { phase: 'database'; bytes: number; done: boolean }
  | { phase: 'blobs'; done: number; total: number; bytes: number }
  | { phase: 'warning'; message: string };

/** Progress lines on stderr: `database: 12.3 MB dumped`, `blobs: 120/450 (34.0 MB)`. */
function printProgress(verb: string) {
  return (p: Progress) => {
    if (p.phase === 'warning') process.stderr.write(`warning: ${p.message}\n`);
    else if (p.phase === 'database') process.stderr.write(`database: ${formatBytes(p.bytes)} ${p.done ? verb : 'so far'}\n`);
    else process.stderr.write(`blobs: ${p.done}/${p.total} (${formatBytes(p.bytes)})\n`);
  };
}

/** The embedded database's folder must not be open in a running service: two engines on it corrupt it. */
async function refuseWhileServiceRuns(config: Config) {
  if (config.DATABASE_URL) return;
  const { dataDirOwner, servicePidFile } = await import('../../db/pglite-owner.js');
  const pid = dataDirOwner(config.DATA_DIR);
  if (pid)
    throw new CliError(
      `the service (process ${pid}) is running on ${path.resolve(config.DATA_DIR)}: the embedded database belongs to it alone. ` +
        `Stop it first, or let it take the backups itself (set BACKUP_DIR). If no service runs, delete ${servicePidFile(config.DATA_DIR)}.`,
    );
}

/** Turns a backup's own refusal into an operator message (printed without a stack trace). */
async function asOperatorError<T>(work: () => Promise<T>): Promise<T> {
  const { BackupError } = await import('../../backups/backup.errors.js');
  try {
    return await work();
  } catch (err) {
    throw err instanceof BackupError ? new CliError(err.message) : err;
  }
}

async function runBackup(fileArg: string, opts: { force?: boolean }) {
  const config = cliConfig();
  const file = path.resolve(fileArg);
  if (!opts.force && existsSync(file)) throw new CliError(`${file} already exists: pass --force to overwrite it, or name another file`);
  if (!existsSync(path.dirname(file))) throw new CliError(`the folder ${path.dirname(file)} does not exist`);
  await refuseWhileServiceRuns(config);
  if (!config.DATABASE_URL && !existsSync(path.join(config.DATA_DIR, 'pgdata')))
    throw new CliError(`there is no database to back up in ${path.resolve(config.DATA_DIR, 'pgdata')} (check DATA_DIR)`);
  const [{ withDatabase }, { writeBackup }, { createBlobStore }] = await Promise.all([
    import('../database.js'),
    import('../../backups/backup.write.js'),
    import('../../blobs/index.js'),
  ]);
  process.stderr.write(`backing up ${describeDatabase(config)} and its blobs to ${file}\n`);
  const manifest = await asOperatorError(() =>
    // not migrated first: a backup taken before an upgrade must hold the database as the old version left it
    withDatabase(
      config,
      (database) =>
        writeBackup({ db: database.db, databaseUrl: config.DATABASE_URL, blobs: createBlobStore(config), path: config.PATH }, file, {
          onProgress: printProgress('dumped'),
        }),
      { migrate: false },
    ),
  );
  const blobBytes = manifest.blobs.reduce((sum, b) => sum + b.size, 0);
  const c = manifest.counts;
  process.stderr.write(
    `backup written: ${c.users} users, ${c.pages} pages (${c.pageVersions} versions), ${c.tasks} tasks, ${c.attachments} attachments; ` +
      `database ${formatBytes(manifest.database.size)}, ${manifest.blobs.length} blobs ${formatBytes(blobBytes)}` +
      (manifest.missingBlobs.length ? `; ${manifest.missingBlobs.length} blobs missing from the store (listed in the manifest)` : '') +
      '\n',
  );
  console.log(file);
}

async function runRestore(fileArg: string) {
  const config = cliConfig();
  const file = path.resolve(fileArg);
  await refuseWhileServiceRuns(config);
  const [{ restoreBackup }, { createBlobStore }] = await Promise.all([import('../../backups/backup.restore.js'), import('../../blobs/index.js')]);
  process.stderr.write(`restoring ${file} into ${describeDatabase(config)}\n`);
  const { manifest, migrations } = await asOperatorError(() =>
    restoreBackup(
      file,
      { databaseUrl: config.DATABASE_URL, pgdataDir: path.resolve(config.DATA_DIR, 'pgdata'), blobs: createBlobStore(config), path: config.PATH },
      printProgress('restored'),
    ),
  );
  const c = manifest.counts;
  process.stderr.write(
    `restored the backup of ${manifest.createdAt}: ${c.users} users, ${c.pages} pages (${c.pageVersions} versions), ${c.tasks} tasks, ` +
      `${c.attachments} attachments, ${manifest.blobs.length} blobs` +
      (migrations.length ? `; then applied ${migrations.length} migration${migrations.length === 1 ? '' : 's'} (${migrations.join(', ')})` : '') +
      '\n',
  );
}

export function registerBackup(program: Command) {
  program
    .command('backup')
    .description('Write one consistent archive (zip) of the database and every attachment blob')
    .argument('<file>', 'the archive to write (e.g. kb-backup.zip)')
    .option('--force', 'overwrite the file if it exists')
    .addHelpText(
      'after',
      [
        '',
        'The database is DATABASE_URL (dumped with pg_dump, which must be installed, of the server’s major version or newer)',
        'or the embedded PGlite under DATA_DIR (the service must be stopped: a running service takes its own backups when',
        'BACKUP_DIR is set). The file is written as FILE.partial and renamed when complete. Progress goes to stderr, the',
        'file’s path to stdout. See docs/backup.md.',
      ].join('\n'),
    )
    .action((file: string, opts: { force?: boolean }) => runBackup(file, opts));

  program
    .command('restore')
    .description('Restore an archive written by `kb backup` into an empty DATA_DIR or an empty PostgreSQL database')
    .argument('<file>', 'the archive to restore')
    .addHelpText(
      'after',
      [
        '',
        'Restores into the configured target: DATABASE_URL (a new, empty database; pg_restore must be installed) or the',
        'embedded PGlite under DATA_DIR (DATA_DIR/pgdata must not exist or be empty). Blobs go into the configured store',
        '(STORAGE_DRIVER), each checked against the archive’s SHA-256. The database is then migrated to this version.',
      ].join('\n'),
    )
    .action((file: string) => runRestore(file));
}

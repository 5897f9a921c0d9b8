import { type Command, Option } from 'commander';
import type { BlobStore } from '../../blobs/blob-store.js';
import type { MigrateProgress } from '../../blobs/migrate-blobs.js';
import type { Config } from '../../config.js';
import { CliError, cliConfig } from '../common.js';

/** `kb storage migrate --to s3|disk`: copies the blobs the database refers to between stores, resumably (docs/storage.md). */

type Driver = Config['STORAGE_DRIVER'];

interface MigrateOptions {
  to: Driver;
  from?: Driver;
  deleteSource?: boolean;
  verify?: boolean;
  concurrency: string;
}

export function humanBytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${n} B` : `${value.toFixed(1)} ${units[unit]}`;
}

export const progressLine = (p: MigrateProgress) =>
  `${p.copied + p.skipped + p.failed}/${p.total} done: ${p.copied} copied, ${p.skipped} skipped, ${p.failed} failed, ${humanBytes(p.bytes)}`;

/** The store a driver names, from the same settings the service reads; bad settings or an unreachable store stop here. */
async function openStore(config: Config, driver: Driver): Promise<BlobStore> {
  const { createBlobStore } = await import('../../blobs/index.js');
  let store: BlobStore;
  try {
    store = createBlobStore({ ...config, STORAGE_DRIVER: driver });
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  try {
    await store.check();
  } catch (err) {
    store.close?.();
    const e = err as Error & { $metadata?: { httpStatusCode?: number } };
    const status = e.$metadata?.httpStatusCode ? ` (HTTP ${e.$metadata.httpStatusCode})` : '';
    throw new CliError(`the ${driver} store cannot be used: ${e.name}${status}: ${e.message || 'no message'}`);
  }
  return store;
}

export function registerStorage(program: Command) {
  const storage = program.command('storage').description('Where attachment bytes live: disk (DATA_DIR/blobs) or an S3-compatible bucket');
  storage
    .command('migrate')
    .description('Copy every blob the database refers to from one store to the other (resumable: blobs already there are skipped)')
    .addOption(new Option('--to <driver>', 'the store to copy into').choices(['disk', 's3']).makeOptionMandatory())
    .addOption(new Option('--from <driver>', 'the store to copy from (default: the other one)').choices(['disk', 's3']))
    .option('--delete-source', 'remove each blob from the source once the target holds it')
    .option('--verify', 'hash blobs already in the target before skipping them (reads them whole)')
    .option('--concurrency <n>', 'blobs copied at once', '4')
    .addHelpText(
      'after',
      '\nBoth stores come from the usual settings: disk is DATA_DIR/blobs, s3 is S3_BUCKET, S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID,\n' +
        'S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE. Set S3_*, run `kb storage migrate --to s3`, then set STORAGE_DRIVER=s3 and restart;\n' +
        'run it once more after the switch to copy what was uploaded meanwhile. Exits 1, listing the blobs, when some could not be copied.',
    )
    .action(async (opts: MigrateOptions) => {
      const from: Driver = opts.from ?? (opts.to === 's3' ? 'disk' : 's3');
      if (from === opts.to) throw new CliError(`--from and --to are both ${from}: nothing to migrate`);
      const concurrency = Number(opts.concurrency);
      if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) throw new CliError('--concurrency: a whole number from 1 to 64');
      const config = cliConfig();
      const [{ withDatabase }, { migrateBlobs }] = await Promise.all([import('../database.js'), import('../../blobs/migrate-blobs.js')]);
      const source = await openStore(config, from);
      const target = await openStore(config, opts.to).catch((err) => {
        source.close?.();
        throw err;
      });
      try {
        let last = 0;
        const result = await withDatabase(config, (database) =>
          migrateBlobs({
            db: database.db,
            source,
            target,
            deleteSource: opts.deleteSource,
            verify: opts.verify,
            concurrency,
            onProgress: (p) => {
              // A line a second at most (and the last one), on stderr so that stdout holds only the summary.
              if (Date.now() - last < 1000 && p.copied + p.skipped + p.failed < p.total) return;
              last = Date.now();
              console.error(progressLine(p));
            },
          }),
        );
        console.log(`${from} → ${opts.to}: ${progressLine(result)}${opts.deleteSource ? ' (source copies deleted)' : ''}`);
        if (result.failures.length > 0) {
          for (const f of result.failures) console.error(`  ${f.key}: ${f.reason}`);
          throw new CliError(`${result.failures.length} blob(s) could not be migrated (listed above); run the command again once fixed`);
        }
      } finally {
        source.close?.();
        target.close?.();
      }
    });
}

import path from 'node:path';
import type { AreaJobs } from '../jobs/registry.js';
import { privateDir } from '../private-files.js';
import { newestBackupTime, pruneBackups, scheduledBackupName } from './backup.retention.js';
import { writeBackup } from './backup.write.js';

export const BACKUP_JOB = 'backup.run';

/**
 * The recurring backup (when BACKUP_DIR is set): one archive every BACKUP_EVERY_MS into BACKUP_DIR, the oldest
 * beyond BACKUP_KEEP deleted. It runs in whichever process runs workers, once across instances; on the embedded
 * database that is the service itself, the one process that may read its data folder.
 */
export const backupJobs: AreaJobs = {
  handlers: {
    [BACKUP_JOB]: async (_job, jc) => {
      const { config } = jc.env;
      if (!config.BACKUP_DIR) return { skipped: 'BACKUP_DIR is not set' };
      const dir = path.resolve(config.BACKUP_DIR);
      await privateDir(dir); // 0700, an existing folder narrowed: archives hold every page and password hash
      const now = new Date();
      // The scheduler also enqueues at every start: a restart soon after a backup does not take another one.
      const latest = await newestBackupTime(dir);
      if (latest && now.getTime() - latest.getTime() < config.BACKUP_EVERY_MS * 0.9) return { skipped: `a backup was taken at ${latest.toISOString()}` };
      const file = path.join(dir, scheduledBackupName(now));
      const warnings: string[] = [];
      const manifest = await writeBackup({ db: jc.db, databaseUrl: config.DATABASE_URL, blobs: jc.env.blobs, path: config.PATH }, file, {
        signal: jc.signal,
        onProgress: (p) => {
          if (p.phase === 'warning') warnings.push(p.message);
        },
      });
      const deleted = await pruneBackups(dir, config.BACKUP_KEEP);
      const result = {
        file,
        databaseBytes: manifest.database.size,
        blobs: manifest.blobs.length,
        blobBytes: manifest.blobs.reduce((sum, b) => sum + b.size, 0),
        missingBlobs: manifest.missingBlobs.length,
        deleted,
      };
      jc.log.info({ ...result, warnings: warnings.slice(0, 20) }, 'backup written');
      return result;
    },
  },
  recurring: (config) => (config.BACKUP_DIR ? [{ kind: BACKUP_JOB, everyMs: config.BACKUP_EVERY_MS }] : []),
};

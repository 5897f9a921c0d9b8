import type { AreaJobs } from '../../../jobs/registry.js';
import { purgeExpiredTrash } from './trash.service.js';

export const TRASH_PURGE_JOB = 'trash.purge';

/** Purges pages trashed longer than TRASH_RETENTION_DAYS (attachment bytes too), hourly, once across all instances. */
export const trashJobs: AreaJobs = {
  handlers: {
    [TRASH_PURGE_JOB]: async (_job, jc) => {
      const purged = await purgeExpiredTrash(jc.db, new Date(), jc.env.config.TRASH_RETENTION_DAYS, jc.env.blobs);
      if (purged > 0) jc.log.info({ purged }, 'purged expired pages from the trash');
      return { purged };
    },
  },
  recurring: [{ kind: TRASH_PURGE_JOB, everyMs: 3600_000 }],
};

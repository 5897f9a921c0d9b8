import type { AreaJobs } from '../../jobs/registry.js';
import { sendDigests } from './notifications.digest.js';

export const NOTIFICATION_DIGEST_JOB = 'notifications.digest';

export const notificationJobs: AreaJobs = {
  handlers: {
    [NOTIFICATION_DIGEST_JOB]: async (_job, jc) => {
      if (!jc.env.config.SMTP_URL) return { skipped: 'SMTP_URL is not set' };
      const done = await sendDigests(jc.db, jc.env.config);
      if (done.failed) jc.log.error(done, 'notification digest: some mail could not be sent (retried next run)');
      return done;
    },
  },
  recurring: (config) => [{ kind: NOTIFICATION_DIGEST_JOB, everyMs: config.NOTIFY_DIGEST_MS }],
};

import type { ServiceEnv } from '../context.js';
import type { Db } from '../db/index.js';
import { collectJobs } from './registry.js';
import { Scheduler } from './scheduler.js';
import { Worker } from './worker.js';

interface Logger {
  info(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Starts a worker (running `concurrency` jobs at once) and the recurring-job scheduler; returns how to stop both. */
export function startBackground(db: Db, env: ServiceEnv, concurrency: number, log: Logger) {
  const { handlers, onFailed, recurring } = collectJobs(undefined, env.config);
  const worker = new Worker({ db, env, handlers, onFailed, concurrency, log });
  const scheduler = new Scheduler(db, recurring, (err) => log.error({ err }, 'recurring job enqueue failed'));
  worker.start();
  scheduler.start();
  log.info({ workerId: worker.id, concurrency, kinds: [...handlers.keys()] }, 'background worker started');
  return {
    worker,
    async stop() {
      scheduler.stop();
      await worker.stop();
    },
  };
}

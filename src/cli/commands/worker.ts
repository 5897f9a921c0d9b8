import type { Command } from 'commander';
import { createLogger } from '../../logging.js';
import { cliConfig } from '../common.js';

export function registerWorker(program: Command) {
  program
    .command('worker')
    .description('Run background job workers alone, without the HTTP API (for a PostgreSQL server shared with `kb serve` instances)')
    .option('--concurrency <n>', 'jobs run at once (overrides WORKERS, default 2)')
    .addHelpText(
      'after',
      '\nNeeds DATABASE_URL: the embedded database belongs to one process, so with it run workers inside `kb serve` (WORKERS).\nStops cleanly on SIGINT/SIGTERM: running jobs get a grace period, then go back to the queue.',
    )
    .action(async (opts: { concurrency?: string }) => {
      const config = cliConfig({ WORKERS: opts.concurrency });
      if (!config.DATABASE_URL) {
        console.error('kb worker needs DATABASE_URL: with the embedded database, workers run inside `kb serve` / `npm start` (WORKERS setting).');
        process.exit(1);
      }
      const [{ openConfiguredDatabase }, { migrateToLatest }, { createServiceEnv }, { startBackground }, { closeCpuPool }] = await Promise.all([
        import('../database.js'),
        import('../../db/index.js'),
        import('../../env.js'),
        import('../../jobs/runtime.js'),
        import('../../workers/pool.js'),
      ]);
      const database = await openConfiguredDatabase(config);
      await migrateToLatest(database.db);
      const log = createLogger(config, 'worker');
      // With Redis, what the jobs here dispatch reaches the web instances' live streams at once (notifications, MCP
      // page subscriptions) instead of only through their polls.
      const live = config.REDIS_URL ? await (await import('../live-publishers.js')).startLivePublishers(config.REDIS_URL, log) : undefined;
      const background = startBackground(database.db, createServiceEnv(config), Math.max(1, config.WORKERS), log);
      const stop = async () => {
        await background.stop();
        live?.stop();
        await closeCpuPool();
        await database.close();
        process.exit(0);
      };
      process.once('SIGINT', () => void stop());
      process.once('SIGTERM', () => void stop());
    });
}

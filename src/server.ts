import { Redis } from 'ioredis';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { migrateToLatest, openDatabase } from './db/index.js';
import { claimDataDir } from './db/pglite-owner.js';
import { createServiceEnv } from './env.js';
import { startBackground } from './jobs/runtime.js';
import { closeCpuPool } from './workers/pool.js';
import path from 'node:path';

/** Opens the database (migrating it), builds the app and listens; stops cleanly on SIGINT/SIGTERM. */
export async function serve(config: Config) {
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: path.join(config.DATA_DIR, 'pgdata'), preparedStatements: config.DATABASE_PREPARED_STATEMENTS });
  await migrateToLatest(database.db);
  // `kb backup` and `kb restore` refuse while this process holds the embedded database's folder.
  const releaseDataDir = database.kind === 'pglite' ? claimDataDir(config.DATA_DIR) : () => {};
  const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false }) : undefined;
  redis?.on('error', () => {}); // the rate limiter falls back to memory while Redis is away
  const env = createServiceEnv(config);
  const app = await buildApp({ config, database, redis, env });
  // Workers run inside the server unless WORKERS=0 (then run them with `npm run worker`).
  const background = config.WORKERS > 0 ? startBackground(database.db, env, config.WORKERS, app.log) : null;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    try {
      // Keep-alive sockets of requests that finish during the drain would hold close() open for keepAliveTimeout (72 s).
      const reaper = setInterval(() => app.server.closeIdleConnections(), 100);
      await app.close(); // stops accepting, waits for in-flight requests
      await background?.stop(); // lets running jobs finish (a job cut off by a crash is re-run when its lease expires)
      await closeCpuPool();
      clearInterval(reaper);
      redis?.disconnect();
      await database.close(); // PGlite flushes and closes its files
      releaseDataDir();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  const address = await app.listen({ host: config.HOST, port: config.PORT });
  console.log(`kb service listening on ${address}/api (database: ${database.kind})`);
  return app;
}

import path from 'node:path';
import { pino } from 'pino';
import type { Config } from '../config.js';
import type { Ctx } from '../context.js';
import { type Database, migrateToLatest, openDatabase } from '../db/index.js';
import { createServiceEnv } from '../env.js';

/** Opens the configured database exactly as the server does (PGlite under DATA_DIR/pgdata, or DATABASE_URL). */
export function openConfiguredDatabase(config: Config): Promise<Database> {
  return openDatabase({ url: config.DATABASE_URL, dataDir: path.join(config.DATA_DIR, 'pgdata'), preparedStatements: config.DATABASE_PREPARED_STATEMENTS, poolSize: 2 });
}

/**
 * Runs `fn` with the configured database, brought up to date first (so `kb user create` works on a fresh install
 * before the first `kb serve`), and always closes it: PGlite must be closed to keep its files whole.
 */
export async function withDatabase<T>(config: Config, fn: (database: Database) => Promise<T>, options: { migrate?: boolean } = {}): Promise<T> {
  const database = await openConfiguredDatabase(config);
  try {
    if (options.migrate !== false) await migrateToLatest(database.db);
    return await fn(database);
  } finally {
    await database.close();
  }
}

/** A service context for commands that call services directly: no actor (the operator acts), silent log. */
export function cliCtx(config: Config, database: Database): Ctx {
  return {
    db: database.db,
    actor: null,
    log: pino({ level: 'silent' }),
    now: () => new Date(),
    env: createServiceEnv(config),
  };
}

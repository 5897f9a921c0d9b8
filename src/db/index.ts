import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { vector } from '@electric-sql/pglite-pgvector';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { CamelCasePlugin, Kysely, type MigrationProvider, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { migrations } from './migrations/index.js';
import { PreparingClient } from './prepared-statements.js';
import type { DB } from './types.js';
import { privateDirSync } from '../private-files.js';

export type Db = Kysely<DB>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** The embedded engine, when it is PGlite (tests dump and load its data folder). */
  pglite?: PGlite;
  /** The connection pool's live counts (metrics): a pg.Pool of up to `max` connections, or of one over PGlite. */
  pool?: PoolCounts;
}

export interface PoolCounts {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
  readonly options: { max: number };
}

export interface OpenDatabaseOptions {
  /** PostgreSQL server URL; without it PGlite is used. */
  url?: string;
  /** PGlite data folder; `undefined` keeps the database in memory. */
  dataDir?: string;
  /** A PGlite data-folder tarball to start from (a migrated template, in tests). */
  loadDataDir?: Blob;
  poolSize?: number;
  /** Name the data statements so each connection prepares them once (default true; see PreparingClient). */
  preparedStatements?: boolean;
}

// count(*) and bigint columns come back as strings by default; our counts fit in a JS number.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

function withPlugins(dialect: PostgresDialect): Db {
  return new Kysely<DB>({ dialect, plugins: [new CamelCasePlugin()] });
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const client = options.preparedStatements === false ? {} : { Client: PreparingClient };
  if (options.url) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      ...client,
    });
    pool.on('error', () => {}); // an idle client that dies is replaced; queries report their own errors
    const db = withPlugins(new PostgresDialect({ pool }));
    return {
      db,
      kind: 'postgres',
      pool,
      ping: async () => void (await sql`select 1`.execute(db)),
      close: () => db.destroy(),
    };
  }
  // The data folder holds every page and password hash; PGlite writes its files world-readable (0666), so the folders
  // above them are what keeps other users out: DATA_DIR and pgdata are this user's alone (0700), narrowed if wider.
  if (options.dataDir) privateDirSync(path.dirname(path.resolve(options.dataDir)));
  const pglite = new PGlite({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    extensions: { pg_trgm, vector },
  });
  await pglite.waitReady;
  if (options.dataDir) privateDirSync(path.resolve(options.dataDir));
  const pool = new pg.Pool({ ...createPgConfig(pglite), ...client });
  const db = withPlugins(new PostgresDialect({ pool }));
  embeddedEngines.set(db, pglite);
  return {
    db,
    kind: 'pglite',
    pglite,
    pool,
    ping: async () => void (await sql`select 1`.execute(db)),
    close: async () => {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}

const embeddedEngines = new WeakMap<Db, PGlite>();

/** The PGlite engine behind `db`, when it is the embedded database (the backup job takes its data-folder dump). */
export function embeddedEngineOf(db: Db): PGlite | undefined {
  return embeddedEngines.get(db);
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Brings the schema up to date; safe to run at every start and from several instances. */
export async function migrateToLatest(db: Db, options: { vector?: boolean } = {}): Promise<string[]> {
  await sql`create extension if not exists pg_trgm`.execute(db);
  // pgvector where the server has it (PGlite does); without it, knowledge search falls back to an exact scan.
  if (options.vector !== false) await createExtensionIfAvailable(db, 'vector');
  // Areas land migrations independently; one numbered below an applied one still runs.
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Creates an extension when the server offers it; a server without it (or a role that may not create it) is no error. */
async function createExtensionIfAvailable(db: Db, name: string): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_available_extensions where name = ${name}`.execute(db);
  if (!rows[0]?.n) return false;
  try {
    await sql`create extension if not exists ${sql.id(name)}`.execute(db);
    return true;
  } catch {
    return false;
  }
}

/** True for a unique-constraint violation (SQLSTATE 23505), optionally on a named constraint or index. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string };
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint);
}

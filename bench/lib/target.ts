import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import { type Database, migrateToLatest, openDatabase } from '../../src/db/index.js';

export type DatabaseKind = 'pglite' | 'postgres';

/**
 * What scenarios measure against: the service (buildApp, logger off, as `npm start` builds it) on a fresh database,
 * listening on 127.0.0.1 at a random port.
 */
export interface Target {
  kind: DatabaseKind;
  database: Database;
  config: Config;
  app: FastifyInstance;
  /** `http://127.0.0.1:<port>` of the service. */
  appUrl: string;
  /** Calls the service in-process (seeding); throws unless the status is 2xx. */
  call(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, token?: string, body?: unknown): Promise<any>;
  close(): Promise<void>;
}

/** A new, empty database: PGlite under `dataDir`, or a new database on the DATABASE_URL server (dropped by `drop`). */
export async function freshDatabase(kind: DatabaseKind, dataDir: string): Promise<{ database: Database; url?: string; drop: () => Promise<void> }> {
  if (kind === 'pglite') {
    const database = await openDatabase({ dataDir: path.join(dataDir, 'pgdata') });
    return { database, drop: async () => {} };
  }
  const serverUrl = process.env.DATABASE_URL as string;
  const name = `kb_bench_${process.pid}_${Date.now() % 1e6}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const target = new URL(serverUrl);
  target.pathname = `/${name}`;
  // The service's default pool size (10), as `npm start` would use.
  const database = await openDatabase({ url: target.toString() });
  return {
    database,
    url: target.toString(),
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

export async function startTarget(kind: DatabaseKind, settings: Record<string, string> = {}): Promise<Target> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kb-bench-'));
  const { database, url, drop } = await freshDatabase(kind, dataDir);
  try {
    await migrateToLatest(database.db);
    // A limit no run reaches: the limiter still counts every request (its cost is part of the measured path).
    const config = loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: url,
      LOG_LEVEL: 'silent',
      RATE_LIMIT_MAX: String(1e9),
      AUTH_RATE_LIMIT_MAX: String(1e9),
      AUTH_RATE_LIMIT_PER_EMAIL: String(1e9),
      ...settings,
    });
    const app = await buildApp({ config, database, logger: false });
    const appUrl = await app.listen({ host: '127.0.0.1', port: 0 });
    return {
      kind,
      database,
      config,
      app,
      appUrl,
      async call(method, url, token, body) {
        const res = await app.inject({ method, url, headers: token ? { authorization: `Bearer ${token}` } : {}, ...(body ? { payload: body as object } : {}) });
        if (res.statusCode >= 300) throw new Error(`seeding ${method} ${url}: ${res.statusCode} ${res.body}`);
        return res.json();
      },
      async close() {
        await app.close();
        await database.close();
        await drop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await database.close();
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}

/** A plain Fastify instance (no plugins, no hooks, default serializer) for baselines, listening on 127.0.0.1. */
export async function startBare(register: (bare: FastifyInstance) => void): Promise<{ url: string; close: () => Promise<void> }> {
  const bare = Fastify({ logger: false });
  register(bare);
  const url = await bare.listen({ host: '127.0.0.1', port: 0 });
  return { url, close: () => bare.close() };
}

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, inject as vitestInject } from 'vitest';
import { buildApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import { type Database, openDatabase } from '../../src/db/index.js';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  /** Inject a request; `token` becomes the bearer credential, `body` is sent as JSON. */
  request(opts: RequestOptions): Promise<Response>;
  close(): Promise<void>;
}

export interface RequestOptions {
  method?: InjectOptions['method'];
  url: string;
  token?: string;
  body?: unknown;
  query?: Record<string, string | string[]>;
  headers?: Record<string, string>;
  /** The client address the app sees (default 127.0.0.1). */
  remoteAddress?: string;
}

export interface Response {
  status: number;
  headers: LightMyRequestResponse['headers'];
  body: any;
  raw: LightMyRequestResponse;
}

let fileCounter = 0;

/** A copy of the migrated template database for this test file: PGlite in memory, or a new PostgreSQL database. */
export async function openTestDatabase(options: { preparedStatements?: boolean } = {}): Promise<{ database: Database; drop: () => Promise<void> }> {
  const template = vitestInject('dbTemplate');
  const url = process.env.DATABASE_URL;
  const { preparedStatements } = options;
  if (!url) {
    const blob = new Blob([readFileSync(template)]);
    const database = await openDatabase({ loadDataDir: blob, preparedStatements });
    return { database, drop: async () => {} };
  }
  const name = `kb_t_${process.ppid}_${process.pid}_${++fileCounter}_${Date.now() % 1e6}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name} template ${template}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openDatabase({ url: target.toString(), poolSize: 5, preparedStatements });
  return {
    database,
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/** A copy of the template database for this test file: opened before its tests, dropped after them. */
export function useTestDatabase(): { readonly database: Database } {
  const opened = {} as { database: Database; drop?: () => Promise<void> };
  beforeAll(async () => {
    Object.assign(opened, await openTestDatabase());
  });
  afterAll(async () => {
    await opened.database?.close();
    await opened.drop?.();
  });
  return opened;
}

export const TEST_JWT_SECRET = 'test-secret-test-secret-test-secret';

/** Extra dependencies of a test app: a shared Redis, logger options (default none), a rate-limit key prefix. */
export interface TestAppExtra {
  redis?: Redis;
  logger?: boolean | object;
  rateLimitKeyPrefix?: string;
}

/** `request` of a TestApp, for any Fastify instance (a second app over the same database, say). */
export function requester(app: FastifyInstance): TestApp['request'] {
  return async ({ method = 'GET', url, token, body, query, headers = {}, remoteAddress }) => {
    const h: Record<string, string> = { ...headers };
    if (token) h.authorization = `Bearer ${token}`;
    const raw = await app.inject({
      method,
      url,
      query,
      headers: h,
      ...(remoteAddress ? { remoteAddress } : {}),
      ...(body === undefined ? {} : typeof body === 'string' ? { payload: body } : { payload: body as object }),
    });
    let parsed: unknown = raw.body;
    if (String(raw.headers['content-type'] ?? '').includes('json') && raw.body) parsed = JSON.parse(raw.body);
    return { status: raw.statusCode, headers: raw.headers, body: parsed, raw };
  };
}

/** Another app over the same database and settings as `t` (for several instances sharing state); close it yourself. */
export async function siblingApp(
  t: TestApp,
  extra: TestAppExtra = {},
  overrides: Partial<Config> = {},
): Promise<{ app: FastifyInstance; request: TestApp['request'] }> {
  const app = await buildApp({
    config: { ...t.config, ...overrides },
    database: t.database,
    redis: extra.redis,
    logger: extra.logger ?? false,
    rateLimitKeyPrefix: extra.rateLimitKeyPrefix,
  });
  await app.ready();
  return { app, request: requester(app) };
}

export async function createTestApp(overrides: Partial<Config> = {}, extra: TestAppExtra = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kb-data-'));
  // Test files sign up many users from one address: the login/signup throttle is tested on its own (rate-limit.test.ts).
  const config = loadConfig(
    { DATA_DIR: dataDir, JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'silent', AUTH_RATE_LIMIT_MAX: '100000', AUTH_RATE_LIMIT_PER_EMAIL: '100000' },
    overrides,
  );
  const { database, drop } = await openTestDatabase({ preparedStatements: config.DATABASE_PREPARED_STATEMENTS });
  const app = await buildApp({ config, database, redis: extra.redis, logger: extra.logger ?? false, rateLimitKeyPrefix: extra.rateLimitKeyPrefix });
  await app.ready();
  return {
    app,
    database,
    config,
    request: requester(app),
    async close() {
      await app.close();
      await database.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

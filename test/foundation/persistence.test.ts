import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { migrateToLatest, openDatabase } from '../../src/db/index.js';
import { migrations } from '../../src/db/migrations/index.js';
import { createTestApp, requester, type TestApp } from '../helpers/app.js';

const onPostgres = !!process.env.DATABASE_URL;
const modeOf = (file: string) => statSync(file).mode & 0o777;

describe('migrations and DATA_DIR', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('are idempotent: running them again on a migrated database does nothing and keeps the data', async () => {
    const before = await t.database.db.selectFrom('users').select('id').execute();
    expect(await migrateToLatest(t.database.db)).toEqual([]);
    expect(await migrateToLatest(t.database.db)).toEqual([]);
    expect(await t.database.db.selectFrom('users').select('id').execute()).toEqual(before);
    const applied = await t.database.db
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .execute();
    expect((applied as { name: string }[]).map((r) => r.name).sort()).toEqual(Object.keys(migrations).sort());
  });

  it('narrows a DATA_DIR made wider (by hand, or by an older release) when the service starts, whatever the database', async () => {
    const other = mkdtempSync(path.join(tmpdir(), 'kb-wide-'));
    try {
      chmodSync(other, 0o755);
      const app = await buildApp({ config: { ...t.config, DATA_DIR: other }, database: t.database, logger: false });
      await app.close();
      expect(modeOf(other)).toBe(0o700);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});

describe.skipIf(onPostgres)('PGlite on disk', () => {
  it('keeps DATA_DIR and the database folder owner-only (0700), narrowing folders made wider before', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'kb-private-'));
    const pgdata = path.join(dataDir, 'pgdata');
    try {
      chmodSync(dataDir, 0o755);
      let database = await openDatabase({ dataDir: pgdata });
      await database.close();
      expect(modeOf(dataDir)).toBe(0o700);
      expect(modeOf(pgdata)).toBe(0o700);
      // An install from before: both folders 0755 (PGlite's files themselves are 0666: the folders keep others out).
      chmodSync(dataDir, 0o755);
      chmodSync(pgdata, 0o755);
      database = await openDatabase({ dataDir: pgdata });
      await database.close();
      expect(modeOf(dataDir)).toBe(0o700);
      expect(modeOf(pgdata)).toBe(0o700);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  const root = mkdtempSync(path.join(tmpdir(), 'kb-persist-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('keeps accounts, keys, workspaces and sessions across a restart (JWT secret persisted under DATA_DIR)', async () => {
    const dataDir = path.join(root, 'data');
    const pgdata = path.join(dataDir, 'pgdata');
    // No JWT_SECRET: the service makes one and keeps it under DATA_DIR.
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    expect(config.JWT_SECRET).toBeUndefined();

    let database = await openDatabase({ dataDir: pgdata });
    expect(database.kind).toBe('pglite');
    expect((await migrateToLatest(database.db)).sort()).toEqual(Object.keys(migrations).sort());
    expect(await migrateToLatest(database.db)).toEqual([]);
    let app = await buildApp({ config, database, logger: false });
    let request = requester(app);
    const signup = await request({ method: 'POST', url: '/api/v1/auth/signup', body: { email: 'keep@example.com', password: 'correct-horse', name: 'Keep' } });
    expect(signup.status).toBe(201);
    const token = signup.body.data.token;
    const key = (await request({ method: 'POST', url: '/api/v1/api-keys', token, body: { name: 'k' } })).body.data.key;
    const ws = await request({ method: 'POST', url: '/api/v1/workspaces', token: key, body: { name: 'Kept', hostname: 'kept' } });
    expect(ws.status).toBe(201);
    await app.close();
    await database.close();

    const secretFile = path.join(dataDir, 'jwt-secret');
    expect(statSync(secretFile).mode & 0o777).toBe(0o600);

    database = await openDatabase({ dataDir: pgdata });
    expect(await migrateToLatest(database.db)).toEqual([]);
    app = await buildApp({ config: loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), database, logger: false });
    request = requester(app);
    try {
      // The old session and key still work, and the data is there.
      const me = await request({ url: '/api/v1/users/me', token });
      expect(me.status).toBe(200);
      expect(me.body.data.email).toBe('keep@example.com');
      const list = await request({ url: '/api/v1/workspaces', token: key });
      expect(list.body.data).toEqual([expect.objectContaining({ id: ws.body.data.id, name: 'Kept', hostname: 'kept', role: 'admin', memberCount: 1 })]);
      const login = await request({ method: 'POST', url: '/api/v1/auth/login', body: { email: 'keep@example.com', password: 'correct-horse' } });
      expect(login.status).toBe(200);
      const health = await request({ url: '/api/health' });
      expect(health.body).toEqual({ status: 'ok' });
    } finally {
      await app.close();
      await database.close();
    }
  }, 120_000);
});

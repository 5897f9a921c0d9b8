import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/index.js';
import { runKb } from './run-cli.js';

/**
 * The `kb` command, run for real as a child process against one fresh database for the file: an empty PGlite under
 * a temporary DATA_DIR, or a new empty database on the server when DATABASE_URL is set. The last test opens that
 * database with the app and uses what the CLI made.
 */
const serverUrl = process.env.DATABASE_URL;
let dataDir: string;
let databaseUrl: string | undefined;
let admin: pg.Client | undefined;
let dbName: string | undefined;
let env: Record<string, string>;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'kb-cli-'));
  if (serverUrl) {
    dbName = `kb_t_${process.ppid}_${process.pid}_cli_${Date.now() % 1e6}`;
    admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    const target = new URL(serverUrl);
    target.pathname = `/${dbName}`;
    databaseUrl = target.toString();
  }
  env = { DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '' };
});

afterAll(async () => {
  if (admin) {
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
  rmSync(dataDir, { recursive: true, force: true });
});

const PASSWORD = 'correct horse battery';
let userId: string;
let apiKey: string;

// Child processes start tsx and (for the database commands) PGlite: seconds each on a busy 2-core machine.
const slow = { timeout: 180_000 };

describe('kb --help', slow, () => {
  it('lists the subcommands', async () => {
    const r = await runKb(['--help'], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    for (const command of ['serve', 'migrate', 'user', 'key']) expect(r.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
  });

  it('documents every subcommand', async () => {
    const [serve, migrate, userCreate, keyCreate] = await Promise.all([
      runKb(['serve', '--help'], { env }),
      runKb(['migrate', '--help'], { env }),
      runKb(['user', 'create', '--help'], { env }),
      runKb(['key', 'create', '--help'], { env }),
    ]);
    for (const r of [serve, migrate, userCreate, keyCreate]) expect(r.code).toBe(0);
    expect(serve.stdout).toContain('Usage: kb serve');
    expect(serve.stdout).toContain('--port <port>');
    expect(migrate.stdout).toContain('Usage: kb migrate');
    expect(userCreate.stdout).toContain('Usage: kb user create');
    expect(userCreate.stdout).toMatch(/--email <email>[\s\S]*--name <name>[\s\S]*--password-stdin/);
    expect(keyCreate.stdout).toContain('Usage: kb key create');
    expect(keyCreate.stdout).toMatch(/--email <email>[\s\S]*--name <name>/);
  });

  it('refuses an unknown command or a missing option with exit code 1', async () => {
    const unknown = await runKb(['frobnicate'], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("unknown command 'frobnicate'");
    const missing = await runKb(['user', 'create', '--email', 'x@example.com'], { env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("required option '--name <name>' not specified");
    expect(missing.stdout).toBe('');
  });
});

describe('kb migrate, user create, key create', slow, () => {
  it('migrates a fresh database and says so, then finds nothing left to do', async () => {
    const first = await runKb(['migrate'], { env });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/applied \d+ migrations?/);
    expect(first.stdout).toContain('0001_foundation');
    expect(first.stdout).toContain(databaseUrl ? 'PostgreSQL' : 'PGlite');
    const again = await runKb(['migrate'], { env });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already up to date');
  });

  it('creates a user with the password from stdin and prints only its id', async () => {
    const r = await runKb(['user', 'create', '--email', 'Ops@Example.com', '--name', 'Ops Person', '--password-stdin'], { env, input: `${PASSWORD}\n` });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    userId = r.stdout.trim();
  });

  it('refuses a duplicate email (any case)', async () => {
    const r = await runKb(['user', 'create', '--email', 'ops@example.COM', '--name', 'Again'], { env, input: `${PASSWORD}\n` });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('error: An account with this email already exists\n');
  });

  it('refuses a short password, an empty one, a bad email and a blank name', async () => {
    const short = await runKb(['user', 'create', '--email', 'short@example.com', '--name', 'Short'], { env, input: 'seven77\n' });
    expect(short.code).toBe(1);
    expect(short.stdout).toBe('');
    expect(short.stderr).toBe('error: password: must be at least 8 characters\n');
    const empty = await runKb(['user', 'create', '--email', 'empty@example.com', '--name', 'Empty', '--password-stdin'], { env, input: '' });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('no password on stdin');
    const email = await runKb(['user', 'create', '--email', 'not-an-email', '--name', 'X'], { env, input: `${PASSWORD}\n` });
    expect(email.code).toBe(1);
    expect(email.stderr).toMatch(/^error: --email: /);
    const name = await runKb(['user', 'create', '--email', 'blank@example.com', '--name', '   '], { env, input: `${PASSWORD}\n` });
    expect(name.code).toBe(1);
    expect(name.stderr).toMatch(/^error: --name: /);
  });

  it('creates an API key and prints only the key', async () => {
    const r = await runKb(['key', 'create', '--email', 'ops@example.com', '--name', 'deploy-bot'], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^kb_[A-Za-z0-9_-]{43}\n$/);
    apiKey = r.stdout.trim();
  });

  it('refuses a key for an unknown email, and a blank key name', async () => {
    const unknown = await runKb(['key', 'create', '--email', 'nobody@example.com', '--name', 'x'], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toBe('error: no user with email nobody@example.com\n');
    const blank = await runKb(['key', 'create', '--email', 'ops@example.com', '--name', ''], { env });
    expect(blank.code).toBe(1);
    expect(blank.stderr).toMatch(/^error: --name: /);
  });

  it('left a user and a key the service accepts, and nothing from the refused commands', async () => {
    const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' });
    const database = await openDatabase({ url: databaseUrl, dataDir: path.join(dataDir, 'pgdata') });
    const app = await buildApp({ config, database, logger: false });
    try {
      const me = await app.inject({ method: 'GET', url: '/api/v1/users/me', headers: { authorization: `Bearer ${apiKey}` } });
      expect(me.statusCode).toBe(200);
      // The operator vouches for the email: it counts as verified (docs/cli.md).
      expect(me.json().data).toMatchObject({ id: userId, email: 'ops@example.com', name: 'Ops Person', emailVerified: true });

      const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'ops@example.com', password: PASSWORD } });
      expect(login.statusCode).toBe(200);
      expect(login.json().data.user.id).toBe(userId);

      // Key management takes a session token; the key itself is refused there.
      const byKey = await app.inject({ method: 'GET', url: '/api/v1/api-keys', headers: { authorization: `Bearer ${apiKey}` } });
      expect(byKey.statusCode).toBe(403);
      const keys = await app.inject({ method: 'GET', url: '/api/v1/api-keys', headers: { authorization: `Bearer ${login.json().data.token}` } });
      expect(keys.statusCode).toBe(200);
      expect(keys.json().data.map((k: { name: string }) => k.name)).toEqual(['deploy-bot']);

      const users = await database.db.selectFrom('users').select(['email']).orderBy('email').execute();
      expect(users.map((u) => u.email)).toEqual(['ops@example.com']);
    } finally {
      await app.close();
      await database.close();
    }
  });
});

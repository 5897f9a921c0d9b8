import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { keyTable, parseExpiry } from '../../src/cli/commands/key.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/index.js';
import { runKb } from './run-cli.js';

/**
 * `kb key create` with scope options and `kb key list`, run for real against a fresh PGlite under a temporary
 * DATA_DIR (the workspace is made through the app in between, the database closed again before each command).
 */
let dataDir: string;
let env: Record<string, string>;
const PASSWORD = 'correct horse battery';
const slow = { timeout: 180_000 };

/** Runs `fn` with the app over the CLI's database, then closes it (PGlite admits one opener at a time). */
async function withApp<T>(fn: (app: Awaited<ReturnType<typeof buildApp>>) => Promise<T>): Promise<T> {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const database = await openDatabase({ dataDir: path.join(dataDir, 'pgdata') });
  const app = await buildApp({ config, database, logger: false });
  try {
    return await fn(app);
  } finally {
    await app.close();
    await database.close();
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'kb-cli-key-'));
  env = { DATA_DIR: dataDir, DATABASE_URL: '' };
}, 180_000);

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('parseExpiry', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  it('takes durations in hours, days and weeks, and ISO dates', () => {
    expect(parseExpiry('12h', now)).toBe('2026-01-01T12:00:00.000Z');
    expect(parseExpiry('30d', now)).toBe('2026-01-31T00:00:00.000Z');
    expect(parseExpiry('2w', now)).toBe('2026-01-15T00:00:00.000Z');
    expect(parseExpiry('2027-01-31', now)).toBe('2027-01-31T00:00:00.000Z');
    expect(parseExpiry('2027-01-31T12:00:00+02:00', now)).toBe('2027-01-31T10:00:00.000Z');
  });
  it('refuses anything else with the option named', () => {
    for (const bad of ['', '0d', '30', '30m', 'tomorrow', '2027-13-45', '31/01/2027']) expect(() => parseExpiry(bad, now), bad).toThrow(/^--expires: /);
  });
});

describe('keyTable', () => {
  it('shows each key with its scope, "all" for an unscoped one', () => {
    const table = keyTable([
      { id: 'k1', name: 'bot', prefix: 'kb_abc', access: 'read-only', workspaceId: 'w1', workspaceName: 'Acme', expiresAt: null, lastUsedAt: null },
      {
        id: 'k2',
        name: 'ops',
        prefix: 'kb_def',
        access: 'read-write',
        workspaceId: null,
        workspaceName: null,
        expiresAt: '2027-01-01T00:00:00.000Z',
        lastUsedAt: null,
      },
    ]).split('\n');
    expect(table[0]).toMatch(/^ID\s+NAME\s+PREFIX\s+ACCESS\s+WORKSPACE\s+EXPIRES\s+LAST USED$/);
    expect(table[1]).toMatch(/^k1\s+bot\s+kb_abc\s+read-only\s+Acme \(w1\)\s+never\s+never$/);
    expect(table[2]).toMatch(/^k2\s+ops\s+kb_def\s+read-write\s+all\s+2027-01-01T00:00:00.000Z\s+never$/);
    expect(keyTable([])).toBe('no active API keys');
  });
});

describe('kb key create with a scope, and kb key list', slow, () => {
  let workspace: { id: string; hostname: string };
  let scopedKey: string;

  it('creates a user, then (through the app) a workspace they belong to and one they do not', async () => {
    const user = await runKb(['user', 'create', '--email', 'ops@example.com', '--name', 'Ops'], { env, input: `${PASSWORD}\n` });
    expect(user.code, user.stderr).toBe(0);
    const other = await runKb(['user', 'create', '--email', 'other@example.com', '--name', 'Other'], { env, input: `${PASSWORD}\n` });
    expect(other.code, other.stderr).toBe(0);
    workspace = await withApp(async (app) => {
      const tokenOf = async (email: string) =>
        (await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password: PASSWORD } })).json().data.token as string;
      const created = await app.inject({
        method: 'POST',
        url: '/api/v1/workspaces',
        headers: { authorization: `Bearer ${await tokenOf('ops@example.com')}` },
        payload: { name: 'Acme', hostname: 'acme' },
      });
      await app.inject({
        method: 'POST',
        url: '/api/v1/workspaces',
        headers: { authorization: `Bearer ${await tokenOf('other@example.com')}` },
        payload: { name: 'Elsewhere', hostname: 'elsewhere' },
      });
      return { id: created.json().data.id, hostname: 'acme' };
    });
  });

  it('creates a read-only key limited to a workspace named by hostname, expiring in 30 days, printing only the key', async () => {
    const r = await runKb(['key', 'create', '--email', 'ops@example.com', '--name', 'agent', '--read-only', '--workspace', 'acme', '--expires', '30d'], {
      env,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^kb_[A-Za-z0-9_-]{43}\n$/);
    scopedKey = r.stdout.trim();
    const byId = await runKb(['key', 'create', '--email', 'ops@example.com', '--name', 'by-id', '--workspace', workspace.id], { env });
    expect(byId.code, byId.stderr).toBe(0);
  });

  it('refuses an unknown workspace, one the user is not in, and a bad expiry', async () => {
    const unknown = await runKb(['key', 'create', '--email', 'ops@example.com', '--name', 'x', '--workspace', 'nowhere'], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('error: --workspace: no workspace with id or hostname nowhere\n');
    const foreign = await runKb(['key', 'create', '--email', 'ops@example.com', '--name', 'x', '--workspace', 'elsewhere'], { env });
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toBe('error: ops@example.com is not a member of workspace elsewhere\n');
    const expiry = await runKb(['key', 'create', '--email', 'ops@example.com', '--name', 'x', '--expires', 'soon'], { env });
    expect(expiry.code).toBe(1);
    expect(expiry.stderr).toMatch(/^error: --expires: /);
    expect(expiry.stdout).toBe('');
  });

  it('lists the keys with their scope, as a table and as JSON', async () => {
    const table = await runKb(['key', 'list', '--email', 'ops@example.com'], { env });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/agent\s+kb_\S+\s+read-only\s+Acme \(/);
    expect(table.stdout).not.toContain(scopedKey);
    const json = await runKb(['key', 'list', '--email', 'ops@example.com', '--json'], { env });
    const keys = JSON.parse(json.stdout) as Array<{ name: string; access: string; workspaceId: string; expiresAt: string }>;
    expect(keys.map((k) => k.name).sort()).toEqual(['agent', 'by-id']);
    const agent = keys.find((k) => k.name === 'agent');
    expect(agent).toMatchObject({ access: 'read-only', workspaceId: workspace.id });
    const days = (Date.parse(agent?.expiresAt ?? '') - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);
  });

  it('made a key the service holds to its scope', async () => {
    await withApp(async (app) => {
      const auth = { authorization: `Bearer ${scopedKey}` };
      const list = await app.inject({ method: 'GET', url: '/api/v1/workspaces', headers: auth });
      expect(list.json().data.map((w: { hostname: string }) => w.hostname)).toEqual(['acme']);
      const write = await app.inject({ method: 'POST', url: '/api/v1/spaces', headers: auth, payload: { workspaceId: workspace.id, name: 'No' } });
      expect(write.statusCode).toBe(403);
    });
  });
});

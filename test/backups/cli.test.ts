import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { ROOT, runKb } from '../cli/run-cli.js';
import { emptyTarget, expectAllBack, type Seeded, seed } from './helpers.js';

/**
 * `kb backup` and `kb restore` run for real (bin/kb.js as a child process): a database made by `kb migrate` and
 * seeded over HTTP, backed up, restored into another DATA_DIR (and database, on a server), and read back over HTTP.
 */

let source: Awaited<ReturnType<typeof emptyTarget>>;
let target: Awaited<ReturnType<typeof emptyTarget>>;
let seeded: Seeded;
let archive: string;
const envOf = (x: typeof source) => ({ DATA_DIR: x.dataDir, DATABASE_URL: x.databaseUrl ?? '' });
const slow = { timeout: 240_000 };

beforeAll(async () => {
  source = await emptyTarget();
  target = await emptyTarget();
  archive = path.join(source.dataDir, 'backup.zip');
  const migrated = await runKb(['migrate'], { env: envOf(source), timeoutMs: 120_000 });
  expect(migrated.code, migrated.stderr).toBe(0);
  const app = await source.open();
  try {
    seeded = await seed({ request: app.request } as TestApp);
  } finally {
    await app.close(); // the embedded database must be closed before another process opens it
  }
}, 240_000);
afterAll(async () => {
  await source?.drop();
  await target?.drop();
});

describe('kb backup and kb restore', () => {
  it.skipIf(!!process.env.DATABASE_URL)('refuse while a running service holds the embedded database', slow, async () => {
    const pidFile = path.join(source.dataDir, 'kb-service.pid');
    writeFileSync(pidFile, `${process.pid}\n`); // this test runner: alive, and not the kb process
    try {
      const r = await runKb(['backup', archive], { env: envOf(source) });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`error: the service (process ${process.pid}) is running on ${source.dataDir}`);
      expect(r.stderr).toContain('set BACKUP_DIR');
      expect(existsSync(archive)).toBe(false);
    } finally {
      // a pid file of a process that is gone counts as free
      writeFileSync(pidFile, '999999999\n');
    }
  });

  it('back up to a file, then restore it elsewhere with everything in it', slow, async () => {
    const backup = await runKb(['backup', archive], { env: envOf(source), timeoutMs: 120_000 });
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout.trim()).toBe(archive);
    expect(backup.stderr).toMatch(/^database: [\d.]+ (KB|MB) dumped$/m);
    expect(backup.stderr).toMatch(/^blobs: 3\/3 \(293\.\d KB\)$/m);
    expect(backup.stderr).toContain('backup written: 3 users, 3 pages (9 versions), 3 tasks, 3 attachments');
    expect(statSync(archive).mode & 0o777).toBe(0o600); // every page and password hash: its owner's alone

    const again = await runKb(['backup', archive], { env: envOf(source) });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`error: ${archive} already exists: pass --force`);

    const restore = await runKb(['restore', archive], { env: envOf(target), timeoutMs: 120_000 });
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stderr).toMatch(/^blobs: 3\/3 \(293\.\d KB\)$/m);
    expect(restore.stderr).toContain('restored the backup of');
    const app = await target.open();
    try {
      await expectAllBack(app.request, app.app, seeded);
    } finally {
      await app.close();
    }

    const twice = await runKb(['restore', archive], { env: envOf(target) });
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/error: .*(is not empty|already holds)/);
    expect(twice.stderr).not.toMatch(/\n\s+at /); // an operator message, no stack trace
  });

  it.skipIf(!!process.env.DATABASE_URL)('the service marks its data folder while it runs, and frees it when it stops', slow, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/main.ts')], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: source.dataDir, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: '', REDIS_URL: '', WORKERS: '0', LOG_LEVEL: 'silent' },
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let out = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the service did not start: ${out}`)), 120_000);
      const onData = (d: Buffer) => {
        out += d;
        if (/listening on/.test(out)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
    });
    const pidFile = path.join(source.dataDir, 'kb-service.pid');
    expect(readFileSync(pidFile, 'utf8').trim()).toBe(String(child.pid));
    const refused = await runKb(['backup', '--force', archive], { env: envOf(source) });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`error: the service (process ${child.pid}) is running on ${source.dataDir}`);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(pidFile)).toBe(false);
    const backup = await runKb(['backup', '--force', archive], { env: envOf(source), timeoutMs: 120_000 });
    expect(backup.code, backup.stderr).toBe(0);
  });
});

import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBackup } from '../../src/backups/backup.read.js';
import { BACKUP_JOB, backupJobs } from '../../src/backups/backups.jobs.js';
import { loadConfig } from '../../src/config.js';
import { createServiceEnv } from '../../src/env.js';
import { collectJobs } from '../../src/jobs/registry.js';
import type { ClaimedJob } from '../../src/jobs/queue.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { databaseUrlOf, seed } from './helpers.js';

/** The recurring backup: an archive into BACKUP_DIR, named by its UTC time, the oldest beyond BACKUP_KEEP deleted. */

let t: TestApp;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'kb-backups-'));
  t = await createTestApp({ BACKUP_DIR: dir, BACKUP_KEEP: 2 });
  // on a server the job dumps DATABASE_URL: this test file's own database (undefined on PGlite)
  t.config.DATABASE_URL = await databaseUrlOf(t.database);
  await seed(t);
}, 120_000);
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

const job: ClaimedJob = { id: 'j1', kind: BACKUP_JOB, workspaceId: null, payload: {}, attempts: 1, maxAttempts: 3 };
const run = (config = t.config) =>
  backupJobs.handlers[BACKUP_JOB](job, {
    db: t.database.db,
    signal: new AbortController().signal,
    log: pino({ level: 'silent' }),
    env: createServiceEnv(config),
  }) as Promise<Record<string, unknown>>;

describe('the recurring backup job', () => {
  it('is scheduled every BACKUP_EVERY_MS only when BACKUP_DIR is set', () => {
    const off = collectJobs(undefined, loadConfig({}));
    expect(off.handlers.has(BACKUP_JOB)).toBe(true);
    expect(off.recurring.some((r) => r.kind === BACKUP_JOB)).toBe(false);
    const on = collectJobs(undefined, loadConfig({ BACKUP_DIR: dir, BACKUP_EVERY_MS: '3600000' }));
    expect(on.recurring.find((r) => r.kind === BACKUP_JOB)).toEqual({ kind: BACKUP_JOB, everyMs: 3600_000 });
  });

  it('writes an archive into BACKUP_DIR and keeps only the newest BACKUP_KEEP, touching no other file', { timeout: 120_000 }, async () => {
    for (const name of [
      'kb-backup-20240101T000000Z.zip',
      'kb-backup-20240102T000000Z.zip',
      'kb-backup-20240103T000000Z.zip',
      'notes.txt',
      'kb-backup-20240104T000000Z.zip.partial',
    ])
      writeFileSync(path.join(dir, name), 'old');
    const old = new Date(Date.now() - 2 * 3600_000);
    utimesSync(path.join(dir, 'kb-backup-20240104T000000Z.zip.partial'), old, old);
    const result = await run();
    const written = path.basename(result.file as string);
    expect(written).toMatch(/^kb-backup-\d{8}T\d{6}Z\.zip$/);
    expect(result).toMatchObject({ blobs: 3, blobBytes: 301_000, missingBlobs: 0 });
    expect(result.deleted).toEqual(['kb-backup-20240101T000000Z.zip', 'kb-backup-20240102T000000Z.zip', 'kb-backup-20240104T000000Z.zip.partial']);
    expect(readdirSync(dir).sort()).toEqual(['kb-backup-20240103T000000Z.zip', written, 'notes.txt'].sort());
    const archive = await openBackup(path.join(dir, written));
    expect(archive.manifest.counts).toMatchObject({ users: 3, pages: 3, tasks: 3, attachments: 3 });
    archive.close();
  });

  it('writes archives only their owner may read (0600) into a folder only they may open (0700, narrowed if wider)', { timeout: 120_000 }, async () => {
    // A folder made before with the umask's mode (0755): narrowed.
    const wide = path.join(dir, 'wide');
    mkdirSync(wide);
    chmodSync(wide, 0o755);
    const result = await run({ ...t.config, BACKUP_DIR: wide });
    const mode = (file: string) => statSync(file).mode & 0o777;
    expect(mode(wide)).toBe(0o700);
    expect(mode(result.file as string)).toBe(0o600);
    // A folder made by the job itself is 0700 from the start.
    const fresh = path.join(dir, 'fresh', 'backups');
    const second = await run({ ...t.config, BACKUP_DIR: fresh });
    expect(mode(fresh)).toBe(0o700);
    expect(mode(second.file as string)).toBe(0o600);
    rmSync(wide, { recursive: true });
    rmSync(path.join(dir, 'fresh'), { recursive: true });
  });

  it('takes no second backup soon after one (the scheduler also enqueues at every start)', async () => {
    const result = await run();
    expect(result.skipped).toMatch(/^a backup was taken at /);
    expect(readdirSync(dir).filter((n) => n.endsWith('.zip'))).toHaveLength(2);
  });

  it('does nothing without BACKUP_DIR', async () => {
    expect(await run({ ...t.config, BACKUP_DIR: undefined })).toEqual({ skipped: 'BACKUP_DIR is not set' });
  });
});

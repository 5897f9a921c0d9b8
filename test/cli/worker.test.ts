import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { EVENTS_DISPATCH_JOB } from '../../src/areas/events/events.jobs.js';
import { recordEvents } from '../../src/areas/events/events.record.js';
import { PAGE_CHANGES_CHANNEL } from '../../src/areas/events/page-changes.js';
import { type Database, openDatabase } from '../../src/db/index.js';
import { enqueue, getJob } from '../../src/jobs/queue.js';
import { connectRedis, requireRedis } from '../helpers/redis.js';
import { ROOT, runKb } from './run-cli.js';

/**
 * `kb worker`, run for real as a child process. It needs a PostgreSQL server (the embedded database belongs to one
 * process) and says so on PGlite; with DATABASE_URL set it runs what the queue holds and stops cleanly on SIGTERM.
 */
const serverUrl = process.env.DATABASE_URL;
const slow = { timeout: 180_000 };
let dataDir: string;

beforeAll(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'kb-worker-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('kb worker without DATABASE_URL', slow, () => {
  it('refuses with exit code 1 and says where workers run instead', async () => {
    const res = await runKb(['worker'], { env: { DATA_DIR: dataDir, DATABASE_URL: '' } });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('kb worker needs DATABASE_URL');
    expect(res.stderr).toContain('WORKERS');
    expect(res.stdout).toBe('');
  });
});

/** Resolves with the exit code once the child has gone. */
const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));

async function waitFor<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms: number): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!serverUrl)('kb worker on PostgreSQL', slow, () => {
  let admin: pg.Client;
  let dbName: string;
  let databaseUrl: string;
  let database: Database;

  beforeAll(async () => {
    dbName = `kb_t_${process.ppid}_${process.pid}_worker_${Date.now() % 1e6}`;
    admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${dbName} template ${inject('dbTemplate')}`);
    const target = new URL(serverUrl as string);
    target.pathname = `/${dbName}`;
    databaseUrl = target.toString();
    database = await openDatabase({ url: databaseUrl, poolSize: 2 });
  });
  afterAll(async () => {
    await database?.close();
    await admin?.query(`drop database if exists ${dbName} with (force)`);
    await admin?.end();
  });

  it('runs a queued job, then stops cleanly on SIGTERM', async () => {
    const db = database.db;
    // A finished job old enough for the queue's purge, and a purge job queued for the worker to run.
    const stale = (await enqueue(db, { kind: 'test.finished-long-ago' })) as string;
    const longAgo = new Date(Date.now() - 30 * 86_400_000);
    await db.updateTable('jobs').set({ status: 'done', finishedAt: longAgo, updatedAt: longAgo }).where('id', '=', stale).execute();
    const purge = (await enqueue(db, { kind: 'jobs.purge', payload: { by: 'test' } })) as string;

    const child = spawn(process.execPath, [path.join(ROOT, 'bin/kb.js'), 'worker', '--concurrency', '1'], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'silent', DATA_DIR: dataDir, DATABASE_URL: databaseUrl, KNOWLEDGE_INDEX_EVERY_MS: '600000' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (d) => (stderr += d));
    const gone = exited(child);
    try {
      const job = await waitFor(
        () => getJob(db, purge),
        (j) => j?.status === 'done',
        120_000,
      );
      expect(job, stderr).toMatchObject({ status: 'done', attempts: 1, result: { deleted: 1 } });
      expect(job?.lockedBy).toBeTruthy();
      expect(await getJob(db, stale)).toBeUndefined();
    } finally {
      child.kill('SIGTERM');
    }
    expect(await gone).toBe(0);
    expect(stderr).toBe('');
  });

  it('with REDIS_URL, sends the page changes its event dispatch commits through Redis, where the web instances listen', async (ctx) => {
    const redis = await connectRedis();
    if (!requireRedis(redis, ctx)) return;
    const listener = redis.duplicate({ lazyConnect: false, enableOfflineQueue: true });
    const heard: string[] = [];
    listener.on('message', (_channel: string, message: string) => heard.push(...(JSON.parse(message) as string[])));
    await listener.subscribe(PAGE_CHANGES_CHANNEL);
    const db = database.db;
    const workspaceId = `ws-${Date.now()}`;
    await db.insertInto('workspaces').values({ id: workspaceId, name: 'Worker', hostname: workspaceId, settings: '{}' }).execute();
    await recordEvents(db, { actor: null }, [{ workspaceId, type: 'page.updated', subject: { type: 'page', id: 'page-1' }, pageId: 'page-1' }]);
    await enqueue(db, { kind: EVENTS_DISPATCH_JOB });

    const child = spawn(process.execPath, [path.join(ROOT, 'bin/kb.js'), 'worker', '--concurrency', '1'], {
      cwd: ROOT,
      env: {
        ...process.env,
        LOG_LEVEL: 'silent',
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        REDIS_URL: 'redis://127.0.0.1:6379',
        KNOWLEDGE_INDEX_EVERY_MS: '600000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (d) => (stderr += d));
    const gone = exited(child);
    try {
      const seen = await waitFor(
        async () => heard,
        (h) => h.includes('page-1'),
        120_000,
      );
      expect(seen, stderr).toContain('page-1');
    } finally {
      child.kill('SIGTERM');
      listener.disconnect();
      redis.disconnect();
    }
    expect(await gone).toBe(0);
  });
});

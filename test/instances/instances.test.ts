import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type Database, openDatabase } from '../../src/db/index.js';
import { enqueue } from '../../src/jobs/queue.js';
import { collectJobs } from '../../src/jobs/registry.js';
import { type CollabClient, connect, eventually, paragraphsOf } from '../collab/helpers.js';
import { addMember, createUser, type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { connectRedis } from '../helpers/redis.js';
import { startS3, type TestS3 } from '../helpers/s3.js';
import { createSpace, doc } from '../pages/helpers.js';
import { type Instance, openNotificationStream, startFakeEmbeddings, startInstance } from './cluster.js';

/**
 * Issue 17: two instances of the service as real processes on one PostgreSQL database, one Redis and one S3-compatible
 * store, each with its own data folder (nothing shared on disk), requests sent to both in turn. What one writes the
 * other reads, searches and serves; limits, jobs, the knowledge index, co-editing and notifications are shared, not
 * doubled; and killing one mid-request loses no acknowledged write while the other keeps serving.
 * Two instances cannot share one embedded PGlite, so this runs only with DATABASE_URL (CI runs the suite on both).
 */
const serverUrl = process.env.DATABASE_URL;
async function redisAnswers(): Promise<boolean> {
  const client = await connectRedis();
  client?.disconnect();
  return !!client;
}
const redisUp = serverUrl ? await redisAnswers() : false;
if (serverUrl && !redisUp && process.env.CI) throw new Error('Redis is not answering on 127.0.0.1:6379, and CI must run the instances test');

const RATE_LIMIT_MAX = 400;
const KNOWLEDGE_EVERY_MS = 500;

describe.skipIf(!serverUrl || !redisUp)('two instances on one PostgreSQL, one Redis, one object store', { timeout: 60_000 }, () => {
  let admin: pg.Client;
  let dbName: string;
  let database: Database;
  let s3: TestS3;
  let embeddings: Awaited<ReturnType<typeof startFakeEmbeddings>>;
  let settings: Record<string, string>;
  const dataDirs: string[] = [];
  let a: Instance;
  let b: Instance;
  let w: Awaited<ReturnType<typeof workspaceWithRoles>>;
  let spaceId: string;
  const clients: CollabClient[] = [];

  beforeAll(async () => {
    dbName = `kb_t_${process.ppid}_${process.pid}_instances_${Date.now() % 1e6}`;
    admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${dbName} template ${inject('dbTemplate')}`);
    const target = new URL(serverUrl as string);
    target.pathname = `/${dbName}`;
    database = await openDatabase({ url: target.toString(), poolSize: 2 });
    [s3, embeddings] = await Promise.all([startS3(), startFakeEmbeddings()]);
    // What must match on every instance (docs/deployment.md): the database, Redis, the JWT secret and the blob store.
    settings = {
      DATABASE_URL: target.toString(),
      REDIS_URL: 'redis://127.0.0.1:6379',
      JWT_SECRET: `instances-test-${randomUUID()}`,
      ...s3.config,
      EMBEDDINGS_URL: embeddings.url,
      EMBEDDINGS_MODEL: 'fake-embed',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      WORKERS: '2',
      CPU_WORKERS: '1',
      RATE_LIMIT_MAX: String(RATE_LIMIT_MAX),
      RATE_LIMIT_WINDOW_S: '60',
      AUTH_RATE_LIMIT_MAX: '1000',
      AUTH_RATE_LIMIT_PER_EMAIL: '1000',
      KNOWLEDGE_INDEX_EVERY_MS: String(KNOWLEDGE_EVERY_MS),
      KNOWLEDGE_CATCHUP_PAGES: '0', // the index is the background job's alone: what it builds, it builds once
      NOTIFY_STREAM_POLL_MS: '3600000', // no fallback poll: a notification reaches the other instance through Redis or not at all
      NOTIFY_DIGEST_MS: '1000',
      COLLAB_SAVE_DEBOUNCE_MS: '100',
      COLLAB_SAVE_MAX_WAIT_MS: '500',
    };
    const own = (name: string) => {
      const dir = mkdtempSync(path.join(tmpdir(), `kb-instance-${name}-`));
      dataDirs.push(dir);
      return { ...settings, DATA_DIR: dir };
    };
    [a, b] = await Promise.all([startInstance('A', own('a')), startInstance('B', own('b'))]);
    // People sign up and are added through A; everything below alternates between the two.
    w = await workspaceWithRoles(a.asTestApp);
    spaceId = (await createSpace(b.asTestApp, w.admin, w.workspace.id, { name: 'Shared' })).id;
  }, 120_000);

  afterAll(async () => {
    for (const c of clients) c.destroy();
    await Promise.all([a?.kill('SIGKILL'), b?.kill('SIGKILL')]);
    await database?.close();
    await admin?.query(`drop database if exists ${dbName} with (force)`);
    await admin?.end();
    await Promise.all([s3?.stop(), embeddings?.stop()]);
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('reads, searches and downloads through B a page and attachment written through A', async () => {
    const word = `zebrafish${randomUUID().slice(0, 6)}`;
    const page = await a.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: w.editor.token,
      body: { workspaceId: w.workspace.id, spaceId, title: 'Written on A', markdown: `# Written on A\n\nThe ${word} tank is cleaned on Fridays.` },
    });
    expect(page.status).toBe(201);
    const bytes = Buffer.from(`attachment bytes ${randomUUID()}`);
    const upload = await a.request({
      method: 'POST',
      url: '/api/v1/attachments',
      token: w.editor.token,
      body: { workspaceId: w.workspace.id, pageId: page.body.data.id, filename: 'notes.txt', contentType: 'text/plain', data: bytes.toString('base64') },
    });
    expect(upload.status).toBe(201);

    const read = await b.request({ url: `/api/v1/pages/${page.body.data.id}`, token: w.viewer.token });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: page.body.data.id, title: 'Written on A' });
    expect(JSON.stringify(read.body.data)).toContain(word);

    const search = await b.request({ url: '/api/v1/search', token: w.viewer.token, query: { workspaceId: w.workspace.id, query: word } });
    expect(search.status).toBe(200);
    expect(JSON.stringify(search.body.data)).toContain(page.body.data.id);

    const download = await fetch(`${b.base}/api/v1/attachments/${upload.body.data.id}/download`, { headers: { authorization: `Bearer ${w.viewer.token}` } });
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('shares the rate limit: half spent on A, half on B, and the next request is refused on either', async () => {
    const spender = await createUser(b.asTestApp, 'Spender');
    const me = (on: Instance) => on.request({ url: '/api/v1/users/me', token: spender.token });
    const spend = async (on: Instance, n: number) => {
      for (let i = 0; i < n; i += 20) await Promise.all(Array.from({ length: Math.min(20, n - i) }, () => me(on)));
    };
    await spend(a, RATE_LIMIT_MAX / 2 - 1);
    const onB = await me(b);
    expect(onB.status).toBe(200);
    // B's first request already counts A's: one counter for both.
    expect(Number(onB.headers['x-ratelimit-remaining'])).toBe(RATE_LIMIT_MAX / 2);
    await spend(b, RATE_LIMIT_MAX / 2);
    for (const on of [a, b]) {
      const refused = await me(on);
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('RATE_LIMITED');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('delivers to a person’s live stream on B a notification caused by a write on A', async () => {
    const stream = await openNotificationStream(b.base, w.viewer.token);
    try {
      expect(stream.res.status).toBe(200);
      await eventually('the stream to open with the count', () => stream.events.some((e) => e.event === 'count'));
      const title = `Check the filters ${randomUUID().slice(0, 6)}`;
      const task = await a.request({ method: 'POST', url: '/api/v1/tasks', token: w.admin.token, body: { workspaceId: w.workspace.id, title, assigneeId: w.viewer.id } });
      expect(task.status).toBe(201);
      const got = await eventually('the notification on B', () => stream.events.find((e) => e.event === 'notification' && e.data.subject.title === title), 15_000);
      expect(got?.data).toMatchObject({ kind: 'assigned', subject: { type: 'task', id: task.body.data.id } });
      // Once, although two instances run dispatchers and both hold the stream's channel.
      await new Promise((r) => setTimeout(r, 1000));
      expect(stream.events.filter((e) => e.event === 'notification' && e.data.subject.title === title)).toHaveLength(1);
    } finally {
      stream.close();
    }
  });

  it('converges co-editing between a person on A and a person on B, and the page read through either holds both edits', async () => {
    const page = await b.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: w.editor.token,
      body: { workspaceId: w.workspace.id, spaceId, title: 'Co-edited', content: doc('First', 'Second') },
    });
    expect(page.status).toBe(201);
    const onA = connect(a.base, page.body.data.id, w.editor.token);
    const onB = connect(b.base, page.body.data.id, w.admin.token);
    clients.push(onA, onB);
    await Promise.all([onA.synced, onB.synced]);
    onA.type(' typed on A', 0);
    onB.type(' typed on B', 1);
    const both = 'First typed on A\nSecond typed on B';
    await eventually('both people to see both edits', () => onA.text() === both && onB.text() === both);
    await eventually(
      'the page read through either instance to hold both edits',
      async () => {
        const [fromA, fromB] = await Promise.all(
          [a, b].map((on) => on.request({ url: `/api/v1/pages/${page.body.data.id}`, token: w.viewer.token })),
        );
        return paragraphsOf(fromA.body.data.content) === both && paragraphsOf(fromB.body.data.content) === both;
      },
      20_000,
    );
  });

  it('runs each queued job once and each recurring job once a period, with both instances’ workers taking work', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push((await enqueue(database.db, { kind: 'jobs.purge', payload: { by: 'instances-test', i } })) as string);
    const jobs = await eventually(
      'the 30 jobs to be done',
      async () => {
        const rows = await database.db.selectFrom('jobs').select(['id', 'status', 'attempts', 'lockedBy']).where('id', 'in', ids).execute();
        return rows.length === 30 && rows.every((r) => r.status === 'done') ? rows : null;
      },
      20_000,
    );
    expect(jobs?.map((j) => j.attempts)).toEqual(ids.map(() => 1));
    // Every job either instance finished ran once (a job run twice would show two attempts).
    const doneTwice = await database.db.selectFrom('jobs').select(['kind', 'attempts']).where('status', '=', 'done').where('attempts', '>', 1).execute();
    expect(doneTwice).toEqual([]);
    // Both processes' workers claimed jobs from the one queue.
    const workerPids = await sql<{ pid: string }>`select distinct split_part(locked_by, ':', 2) as pid from jobs where locked_by is not null`.execute(database.db);
    expect(workerPids.rows.map((r) => Number(r.pid))).toEqual(expect.arrayContaining([a.pid, b.pid]));

    // Recurring jobs: two schedulers tick on their own clocks; each period of the database's clock has one run at most.
    const { recurring } = collectJobs(undefined, loadConfig(settings));
    const fast = recurring.filter((r) => r.everyMs <= 2000).map((r) => r.kind);
    expect(fast).toEqual(expect.arrayContaining(['knowledge.index', 'events.dispatch', 'notifications.digest']));
    for (const job of recurring) {
      const perPeriod = await sql<{ slot: string; runs: number }>`
        select floor(extract(epoch from created_at) * 1000 / ${job.everyMs}::numeric)::text as slot, count(*)::int as runs
        from jobs where dedupe_key = ${`recurring:${job.kind}`} group by 1 having count(*) > 1`.execute(database.db);
      expect(perPeriod.rows, `${job.kind} ran more than once in a period`).toEqual([]);
    }
    // …and the fast ones did run about once a period over the test so far, not twice.
    const indexRuns = await sql<{ runs: number; ms: number }>`
      select count(*)::int as runs, (extract(epoch from max(created_at) - min(created_at)) * 1000)::int as ms
      from jobs where dedupe_key = 'recurring:knowledge.index'`.execute(database.db);
    const { runs, ms } = indexRuns.rows[0];
    expect(runs).toBeGreaterThan(2);
    expect(runs).toBeLessThanOrEqual(Math.floor(ms / KNOWLEDGE_EVERY_MS) + 2);
  });

  it('builds the knowledge index once: each page embedded once, no passage twice', async () => {
    const tag = `idx${randomUUID().slice(0, 6)}`;
    const titles: string[] = [];
    for (let i = 0; i < 12; i++) {
      const on = i % 2 ? b : a;
      const title = `Runbook ${tag} ${i}`;
      const res = await on.request({
        method: 'POST',
        url: '/api/v1/pages',
        token: w.editor.token,
        body: { workspaceId: w.workspace.id, spaceId, title, markdown: `# ${title}\n\nRestart the queue, then drain the ${tag} backlog number ${i}.` },
      });
      expect(res.status).toBe(201);
      titles.push(title);
    }
    const stale = () =>
      sql<{ n: number }>`select count(*)::int as n from pages p left join knowledge_pages k on k.page_id = p.id
        where p.deleted_at is null and p.workspace_id = ${w.workspace.id} and (k.page_id is null or k.page_updated_at <> p.updated_at)`.execute(database.db);
    await eventually('every page to be indexed', async () => (await stale()).rows[0].n === 0, 30_000);
    const duplicates = await sql`select page_id, ordinal, count(*) from knowledge_passages where workspace_id = ${w.workspace.id}
      group by page_id, ordinal having count(*) > 1`.execute(database.db);
    expect(duplicates.rows).toEqual([]);
    for (const title of titles) {
      const page = await database.db.selectFrom('pages').select('id').where('title', '=', title).executeTakeFirstOrThrow();
      const passages = await database.db.selectFrom('knowledgePassages').select('embeddingModel').where('pageId', '=', page.id).execute();
      expect(passages.length).toBeGreaterThan(0);
      expect(passages.every((p) => p.embeddingModel === 'fake-embed')).toBe(true);
      // The embeddings service saw this page's passages once, although two instances run the indexer.
      expect(embeddings.inputs.filter((text) => text.includes(`${title}\n`) || text.endsWith(title)).length, title).toBe(passages.length);
    }
  });

  it('loses no acknowledged write when A is killed mid-request, and B keeps serving', async () => {
    const writer: TestUser = await createUser(b.asTestApp, 'Writer');
    await addMember(b.asTestApp, w.workspace.id, w.admin, writer, 'editor');
    const acknowledged: string[] = [];
    let failed = 0;
    let killed: Promise<void> | null = null;
    const create = async (i: number) => {
      try {
        const res = await a.request({
          method: 'POST',
          url: '/api/v1/pages',
          token: writer.token,
          body: { workspaceId: w.workspace.id, spaceId, title: `Crash ${i}`, markdown: `Written while A may die (${i}).` },
        });
        if (res.status === 201) acknowledged.push(res.body.data.id);
        else failed++;
      } catch {
        failed++; // the connection died with A: not acknowledged, may or may not have committed
      }
      // SIGKILL once a good share is acknowledged, with the rest still in flight.
      if (acknowledged.length >= 20 && !killed) killed = a.kill('SIGKILL');
    };
    const total = 150;
    const inFlight = new Set<Promise<void>>();
    for (let i = 0; i < total && !killed; i++) {
      const p = create(i).finally(() => inFlight.delete(p));
      inFlight.add(p);
      if (inFlight.size >= 25) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    await killed;
    expect(killed, 'A was killed mid-run').not.toBeNull();
    expect(await a.exited).toMatchObject({ signal: 'SIGKILL' });

    // B answers at once: health, reads of every acknowledged page, and new writes.
    const health = await b.request({ url: '/api/health' });
    expect(health.status).toBe(200);
    const ready = await b.request({ url: '/api/health/ready' });
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toEqual({ database: 'ok', redis: 'ok', storage: 'ok' });
    const reads = await Promise.all(acknowledged.map((id) => b.request({ url: `/api/v1/pages/${id}`, token: w.viewer.token })));
    const found = reads.filter((r) => r.status === 200).length;
    console.log(`instances: killed A mid-run: ${acknowledged.length} creates acknowledged, ${failed} cut off, ${found} of the acknowledged found through B`);
    expect(found).toBe(acknowledged.length);
    expect(acknowledged.length).toBeGreaterThanOrEqual(20);
    const after = await b.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: writer.token,
      body: { workspaceId: w.workspace.id, spaceId, title: 'After the crash', markdown: 'B still writes.' },
    });
    expect(after.status).toBe(201);
    expect((await b.request({ url: `/api/v1/pages/${after.body.data.id}`, token: w.viewer.token })).status).toBe(200);
  });
});

import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { expect } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createBlobStore } from '../../src/blobs/index.js';
import { loadConfig } from '../../src/config.js';
import { type Database, openDatabase } from '../../src/db/index.js';
import { requester, TEST_JWT_SECRET, type TestApp } from '../helpers/app.js';
import { createUser, createWorkspace, addMember, type TestUser } from '../helpers/factories.js';
import { createSpace, doc, newPage } from '../pages/helpers.js';
import { createTask } from '../tasks/helpers.js';

export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
export const PASSWORD = 'correct-horse';

/** What was written through the API, to be read back after a restore. */
export interface Seeded {
  workspaceId: string;
  users: TestUser[];
  pages: { id: string; title: string; markdown: string; versions: number }[];
  tasks: { id: string; title: string }[];
  attachments: { id: string; sha256: string; size: number }[];
}

/** Users, a workspace, pages with several versions, tasks and attachments of known bytes, all over HTTP. */
export async function seed(t: TestApp): Promise<Seeded> {
  const users = [await createUser(t, 'Ada'), await createUser(t, 'Brian'), await createUser(t, 'Chen')];
  const ws = await createWorkspace(t, users[0]);
  await addMember(t, ws.id, users[0], users[1], 'editor');
  await addMember(t, ws.id, users[0], users[2], 'viewer');
  const space = await createSpace(t, users[0], ws.id, { name: 'Handbook', slug: `hb-${ws.id.slice(-6)}` });
  const pages: Seeded['pages'] = [];
  for (let i = 0; i < 3; i++) {
    const page = await newPage(t, users[1], ws.id, space.id, { title: `Page ${i}`, content: doc(`first ${i}`) });
    let [title, markdown, versions] = [`Page ${i}`, `first ${i}`, 1];
    for (let v = 2; v <= 2 + i; v++) {
      [title, markdown] = [`Page ${i} v${v}`, `version ${v} of page ${i}`];
      const res = await t.request({ method: 'PUT', url: `/api/v1/pages/${page.id}`, token: users[1].token, body: { title, markdown } });
      expect(res.status).toBe(200);
      versions++;
    }
    pages.push({ id: page.id, title, markdown, versions });
  }
  const tasks = [];
  for (const title of ['Write the plan', 'Review it', 'Ship it']) tasks.push({ id: (await createTask(t, users[0], ws.id, { title })).id, title });
  const attachments: Seeded['attachments'] = [];
  for (const size of [0, 1000, 300_000]) {
    const bytes = randomBytes(size);
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/attachments',
      token: users[1].token,
      body: { pageId: pages[1].id, workspaceId: ws.id, filename: `f${size}.bin`, contentType: 'application/octet-stream', data: bytes.toString('base64') },
    });
    expect(res.status).toBe(201);
    attachments.push({ id: res.body.data.id, sha256: sha256(bytes), size });
  }
  return { workspaceId: ws.id, users, pages, tasks, attachments };
}

/** Reads everything `seed` wrote back over HTTP from `request`'s app, and checks it is all there, byte for byte. */
export async function expectAllBack(request: TestApp['request'], app: TestApp['app'], s: Seeded) {
  const tokens: string[] = [];
  for (const u of s.users) {
    const login = await request({ method: 'POST', url: '/api/v1/auth/login', body: { email: u.email, password: PASSWORD } });
    expect(login.status, `${u.email} logs in`).toBe(200);
    expect(login.body.data.user.id).toBe(u.id);
    tokens.push(login.body.data.token);
  }
  const [owner, editor] = tokens;
  for (const p of s.pages) {
    const page = await request({ url: `/api/v1/pages/${p.id}`, token: editor, query: { format: 'markdown' } });
    expect(page.status).toBe(200);
    expect(page.body.data.title).toBe(p.title);
    expect(JSON.stringify(page.body.data)).toContain(p.markdown);
    const history = await request({ url: `/api/v1/pages/${p.id}/history`, token: editor });
    expect(history.status).toBe(200);
    expect(history.body.meta.total).toBe(p.versions);
    for (const entry of history.body.data) {
      const one = await request({ url: `/api/v1/pages/${p.id}/history/${entry.id}`, token: editor, query: { format: 'markdown' } });
      expect(one.status).toBe(200);
      expect(one.body.data.version).toBe(entry.version);
    }
  }
  for (const task of s.tasks) {
    const res = await request({ url: `/api/v1/tasks/${task.id}`, token: owner });
    expect(res.status).toBe(200);
    expect(res.body.data.title).toBe(task.title);
  }
  for (const a of s.attachments) {
    const res = await app.inject({ method: 'GET', url: `/api/v1/attachments/${a.id}/download`, headers: { authorization: `Bearer ${editor}` } });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBe(a.size);
    expect(sha256(res.rawPayload)).toBe(a.sha256);
  }
}

/** The URL of the server database a test app runs on (its name is the test helper's own), or undefined on PGlite. */
export async function databaseUrlOf(database: Database): Promise<string | undefined> {
  const server = process.env.DATABASE_URL;
  if (!server || database.kind !== 'postgres') return undefined;
  const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(database.db);
  const url = new URL(server);
  url.pathname = `/${rows[0].name}`;
  return url.toString();
}

/** An empty restore target: a fresh DATA_DIR, and on PostgreSQL a new empty database; `drop` removes both. */
export async function emptyTarget() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kb-restore-'));
  const server = process.env.DATABASE_URL;
  let databaseUrl: string | undefined;
  let admin: pg.Client | undefined;
  const name = `kb_t_${process.ppid}_${process.pid}_restore_${Date.now() % 1e6}_${Math.floor(Math.random() * 1000)}`;
  if (server) {
    admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(server);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  }
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: TEST_JWT_SECRET,
    LOG_LEVEL: 'silent',
    AUTH_RATE_LIMIT_MAX: '100000',
    AUTH_RATE_LIMIT_PER_EMAIL: '100000',
  });
  return {
    dataDir,
    databaseUrl,
    pgdataDir: path.join(dataDir, 'pgdata'),
    blobs: createBlobStore(config),
    /** An app over the restored database, as the service would open it. */
    async open() {
      const database = await openDatabase({ url: databaseUrl, dataDir: databaseUrl ? undefined : path.join(dataDir, 'pgdata'), poolSize: 2 });
      const app = await buildApp({ config, database, logger: false });
      await app.ready();
      return {
        app,
        request: requester(app),
        close: async () => {
          await app.close();
          await database.close();
        },
      };
    },
    async drop() {
      if (admin) {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

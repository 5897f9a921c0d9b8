/**
 * Page restrictions (issue 15): `npx tsx bench/page-restrictions.ts`. The cost the restriction predicate adds to the
 * page tree. An in-process app on a fresh in-memory PGlite; 1,000 pages under one parent (each with a child, so
 * `hasChildren`/`childCount` have work to do). Times listing all of them (10 requests of 100, `view=tree` and the full
 * view) as a space editor, with no restriction, then with one restricted page (a sibling with a 50-page subtree)
 * for someone it is closed to and for someone it is open to. Prints the figures; asserts nothing.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { migrateToLatest, openDatabase } from '../src/db/index.js';
import { newId } from '../src/ids.js';

const PAGES = Number(process.env.RESTRICTIONS_BENCH_PAGES ?? 1000);
const ROUNDS = Number(process.env.RESTRICTIONS_BENCH_ROUNDS ?? 5);

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kb-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
    LOG_LEVEL: 'silent',
    WORKERS: '0',
    AUTH_RATE_LIMIT_MAX: '100000',
  });
  const database = await openDatabase({});
  await migrateToLatest(database.db);
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, token?: string, body?: unknown, query?: Record<string, string>) => {
    const res = await app.inject({
      method,
      url,
      query,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(body ? { payload: body as object } : {}),
    });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return JSON.parse(res.body);
  };
  const signup = async (name: string) => {
    const email = `${name}-${randomUUID().slice(0, 8)}@example.com`;
    const out = await call('POST', '/api/v1/auth/signup', undefined, { email, password: 'correct-horse', name });
    return { id: out.data.user.id as string, token: out.data.token as string };
  };
  const [admin, closed, open] = [await signup('admin'), await signup('closed'), await signup('open')];
  const ws = (await call('POST', '/api/v1/workspaces', admin.token, { name: 'Bench', hostname: `b-${randomUUID().slice(0, 8)}` })).data.id;
  for (const u of [closed, open]) await call('POST', `/api/v1/workspaces/${ws}/members`, admin.token, { userId: u.id, role: 'editor' });
  const space = (await call('POST', '/api/v1/spaces', admin.token, { workspaceId: ws, name: 'Bench' })).data.id;
  const parent = (await call('POST', '/api/v1/pages', admin.token, { workspaceId: ws, spaceId: space, title: 'Parent', markdown: 'x' })).data.id;

  // The pages, straight into the table (the insert trigger runs for each, as on an import).
  const now = new Date();
  const row = (id: string, parentId: string, i: number) => ({
    id,
    workspaceId: ws,
    spaceId: space,
    parentId,
    title: `Page ${i}`,
    slug: `page-${i}`,
    icon: null,
    content: JSON.stringify({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: `page ${i}` }] }] }),
    textContent: `page ${i}`,
    position: `a${String(i).padStart(5, '0')}`,
    version: 1,
    createdBy: admin.id,
    updatedBy: admin.id,
    createdAt: now,
    updatedAt: now,
  });
  const top = Array.from({ length: PAGES }, (_, i) => row(newId(), parent, i));
  const kids = top.map((p, i) => row(newId(), p.id, i));
  for (let i = 0; i < top.length; i += 500)
    await database.db
      .insertInto('pages')
      .values(top.slice(i, i + 500))
      .execute();
  for (let i = 0; i < kids.length; i += 500)
    await database.db
      .insertInto('pages')
      .values(kids.slice(i, i + 500))
      .execute();

  const listAll = async (token: string, view: 'tree' | 'full') => {
    let n = 0;
    for (let page = 1; page <= Math.ceil(PAGES / 100); page++) {
      const out = await call('GET', '/api/v1/pages', token, undefined, {
        workspaceId: ws,
        spaceId: space,
        parentId: parent,
        limit: '100',
        page: String(page),
        view,
      });
      n += out.data.length;
    }
    return n;
  };
  const time = async (label: string, token: string, view: 'tree' | 'full') => {
    await listAll(token, view);
    const t0 = performance.now();
    let n = 0;
    for (let r = 0; r < ROUNDS; r++) n = await listAll(token, view);
    const ms = (performance.now() - t0) / ROUNDS;
    console.log(`${label.padEnd(44)} ${view.padEnd(4)}  ${ms.toFixed(1).padStart(7)} ms for ${n} pages (10 requests)`);
  };

  console.log(`Page tree of ${PAGES} pages (each with one child), in-memory PGlite, mean of ${ROUNDS} rounds`);
  for (const view of ['tree', 'full'] as const) await time('no restriction', closed.token, view);
  // One restricted sibling with a 50-page subtree.
  const restricted = top[PAGES / 2].id;
  const subtree = Array.from({ length: 50 }, (_, i) => row(newId(), restricted, 10_000 + i));
  await database.db.insertInto('pages').values(subtree).execute();
  await call('PUT', `/api/v1/pages/${restricted}/restriction`, admin.token, { grants: [{ userId: open.id, role: 'editor' }] });
  for (const view of ['tree', 'full'] as const) {
    await time('one restriction, closed to the reader', closed.token, view);
    await time('one restriction, open to the reader (granted)', open.token, view);
  }
  const read = async (label: string, token: string, id: string) => {
    const t0 = performance.now();
    for (let r = 0; r < 200; r++) await call('GET', `/api/v1/pages/${id}`, token);
    console.log(`${label.padEnd(44)} ${((performance.now() - t0) / 200).toFixed(2).padStart(7)} ms per read`);
  };
  await read('single read, unrestricted page', closed.token, top[1].id);
  await read('single read, restricted page (granted)', open.token, restricted);

  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { ZipFile } from 'yazl';
import { TokenIssuer } from '../../src/areas/auth/tokens.js';
import { exportJobs } from '../../src/areas/exports/exports.jobs.js';
import { importJobs } from '../../src/areas/imports/imports.jobs.js';
import { createBlobStore } from '../../src/blobs/index.js';
import type { Config } from '../../src/config.js';
import { Worker } from '../../src/jobs/worker.js';
import { createTestApp, TEST_JWT_SECRET, type TestApp } from '../helpers/app.js';
import { type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { postMultipart } from '../helpers/multipart.js';
import { createSpace } from '../spaces/helpers.js';

/** A real worker over the test database running the imports' (and exports', for round trips) job handlers. */
export function importWorker(t: TestApp) {
  const env = { config: t.config, tokens: new TokenIssuer(TEST_JWT_SECRET, 3600), blobs: createBlobStore(t.config) };
  const worker = new Worker({
    db: t.database.db,
    env,
    handlers: new Map(Object.entries({ ...importJobs.handlers, ...exportJobs.handlers })),
    onFailed: new Map(Object.entries({ ...importJobs.onFailed, ...exportJobs.onFailed })),
    concurrency: 2,
    pollMs: 20,
    leaseMs: 10_000,
    baseBackoffMs: 10,
  });
  worker.start();
  return worker;
}

/** A valid 1×1 PNG. */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6300010000050001a5f645400000000049454e44ae426082',
  'hex',
);

export interface ImportSuite {
  t: TestApp;
  ws: Awaited<ReturnType<typeof workspaceWithRoles>>;
  worker: Worker;
}

/**
 * One app per test file (a real database), a workspace with an admin, an editor, a viewer and an outsider, and an
 * import worker; closed after the file. Read `t` and `ws` from it inside tests (they exist once `beforeAll` has run).
 */
export function importSuite(overrides: Partial<Config> = {}): ImportSuite {
  const suite = {} as ImportSuite;
  beforeAll(async () => {
    suite.t = await createTestApp(overrides);
    suite.ws = await workspaceWithRoles(suite.t);
    suite.worker = importWorker(suite.t);
  });
  afterAll(async () => {
    await suite.worker?.stop();
    await suite.t?.close();
  });
  return suite;
}

/** Imports `file` as the editor into a new space named `spaceName`: the space, the finished import and the space's tree. */
export async function importIntoNewSpace(suite: ImportSuite, spaceName: string, file: { bytes: Buffer; filename: string }, source?: string) {
  const { t, ws } = suite;
  const space = await createSpace(t, ws.admin, ws.workspace.id, { name: spaceName });
  const done = await importFile(t, ws.editor, { workspaceId: ws.workspace.id, spaceId: space.id, ...(source ? { source } : {}) }, file);
  return { space, done, tree: await readTree(t, ws.editor, ws.workspace.id, space.id) };
}

/** The first page titled `title` anywhere in the tree (depth first). */
export function findPage(nodes: TreeNode[], title: string): TreeNode {
  for (const n of nodes) {
    if (n.title === title) return n;
    const inside = n.children.length ? findPage(n.children, title) : undefined;
    if (inside) return inside;
  }
  return undefined as never;
}

/** The warnings as `path: message` lines. */
export const warningLines = (done: ImportView) => done.warnings.map((w) => `${w.path}: ${w.message}`);

export type ZipEntries = Record<string, string | Buffer>;

/** A zip of `entries` (path → text or bytes), deflated, as a Buffer. */
export function makeZip(entries: ZipEntries, opts: { compress?: boolean } = {}): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, data] of Object.entries(entries))
    zip.addBuffer(Buffer.isBuffer(data) ? data : Buffer.from(data), name, { compress: opts.compress ?? true, mtime: new Date('2026-01-01T00:00:00Z') });
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/** Every file under `dir` (a fixture folder), by its path relative to `dir`. */
export async function folderEntries(dir: string): Promise<ZipEntries> {
  const out: ZipEntries = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name === 'README.md') continue;
    const full = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, full).split(path.sep).join('/')] = await readFile(full);
  }
  return out;
}

/** A fixture folder zipped (its README.md, which describes the fixture, left out). */
export async function zipFolder(dir: string): Promise<Buffer> {
  return makeZip(await folderEntries(dir));
}

export interface ImportTarget {
  workspaceId: string;
  spaceId: string;
  parentPageId?: string;
  source?: string;
}

/** POST /api/v1/imports as multipart; the raw response (status and body). */
export async function postImport(t: TestApp, user: TestUser, target: ImportTarget, file: { bytes: Buffer; filename: string; type?: string }) {
  const fields = Object.entries(target).filter(([, v]) => v !== undefined) as [string, string][];
  const raw = await postMultipart(t.app, user.token, '/api/v1/imports', [
    ...fields,
    ['file', { bytes: file.bytes, filename: file.filename, type: file.type ?? 'application/octet-stream' }],
  ]);
  return { status: raw.statusCode, body: raw.json() };
}

export interface ImportView {
  id: string;
  status: string;
  detectedSource: string | null;
  progress: { done: number; total: number };
  result: { pages: number; attachments: number; rootPageIds: string[] } | null;
  warnings: { path: string; message: string }[];
  error: { code: string; message: string; details: Record<string, unknown> } | null;
}

/** Polls the import until it has succeeded or failed (or the time runs out: the last view is returned either way). */
export async function waitForImport(t: TestApp, user: TestUser, id: string, ms = 60_000): Promise<ImportView> {
  const until = Date.now() + ms;
  for (;;) {
    const res = await t.request({ url: `/api/v1/imports/${id}`, token: user.token });
    expect(res.status).toBe(200);
    if (['succeeded', 'failed'].includes(res.body.data.status) || Date.now() > until) return res.body.data;
    await new Promise((r) => setTimeout(r, 30));
  }
}

/** Uploads, waits, and expects success: the finished import. */
export async function importFile(t: TestApp, user: TestUser, target: ImportTarget, file: { bytes: Buffer; filename: string }): Promise<ImportView> {
  const res = await postImport(t, user, target, file);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  const done = await waitForImport(t, user, res.body.data.id);
  expect(done.status, JSON.stringify(done)).toBe('succeeded');
  return done;
}

export interface TreeNode {
  id: string;
  title: string;
  parentId: string | null;
  position: string;
  children: TreeNode[];
}

/** The space's live pages as a tree (siblings in order), read through the API. */
export async function readTree(t: TestApp, user: TestUser, workspaceId: string, spaceId: string): Promise<TreeNode[]> {
  const all: TreeNode[] = [];
  for (let page = 1; ; page++) {
    const res = await t.request({ url: '/api/v1/pages', token: user.token, query: { workspaceId, spaceId, view: 'tree', limit: '100', page: String(page) } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    all.push(...res.body.data);
    if (res.body.data.length < 100) break;
  }
  const pages = all.map((p) => ({ id: p.id, title: p.title, parentId: p.parentId, position: p.position, children: [] as TreeNode[] }));
  const byId = new Map(pages.map((p) => [p.id, p]));
  const roots: TreeNode[] = [];
  for (const p of pages) (p.parentId && byId.get(p.parentId) ? byId.get(p.parentId)!.children : roots).push(p);
  const sort = (list: TreeNode[]) => {
    list.sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : 1));
    for (const n of list) sort(n.children);
  };
  sort(roots);
  return roots;
}

/** A tree as nested titles, for readable assertions: `['Guide', ['Setup', ['Install']]]`. */
export function titles(nodes: TreeNode[]): unknown[] {
  return nodes.flatMap((n) => (n.children.length ? [n.title, titles(n.children)] : [n.title]));
}

/** A page read through the API (content JSON and Markdown). */
export async function readPage(t: TestApp, user: TestUser, id: string) {
  const res = await t.request({ url: `/api/v1/pages/${id}`, token: user.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const md = await t.request({ url: `/api/v1/pages/${id}`, token: user.token, query: { format: 'markdown' } });
  return { ...res.body.data, markdown: md.body.data.markdown as string };
}

/** The attachments of a page, with their bytes. */
export async function readAttachments(t: TestApp, user: TestUser, workspaceId: string, pageId: string) {
  const res = await t.request({ url: '/api/v1/attachments', token: user.token, query: { workspaceId, pageId } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const out: { id: string; filename: string; contentType: string; bytes: Buffer }[] = [];
  for (const a of res.body.data) {
    const raw = await t.app.inject({ method: 'GET', url: `/api/v1/attachments/${a.id}/download`, headers: { authorization: `Bearer ${user.token}` } });
    out.push({ id: a.id, filename: a.filename, contentType: a.contentType, bytes: raw.rawPayload });
  }
  return out;
}

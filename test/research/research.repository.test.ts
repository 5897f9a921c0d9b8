import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Worker } from '../../src/jobs/worker.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { createJob, makeGitRepo, researchUrl, researchWorker, waitForJob } from './helpers.js';

let t: TestApp;
let ws: string;
let editor: TestUser;
let worker: Worker;
let root: string;
let outside: string;
let repo: string;

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'kb-repos-'));
  outside = mkdtempSync(path.join(tmpdir(), 'kb-outside-'));
  repo = path.join(root, 'service');
  makeGitRepo(repo, {
    'README.md': '# Service\n\nThe cache layer keeps hot records in memory. Cache entries expire after five minutes.\n',
    'src/cache.ts':
      '/** The cache evicts the least recently used entry when it is full. */\nexport class Cache {\n  // Cache invalidation happens on every write.\n}\n',
    'src/math.ts': 'export const add = (a: number, b: number) => a + b;\n',
    'docs/operations.md': 'Operations\n\nTo clear the cache in production, restart the cache workers one at a time.\n',
    'assets/logo.bin': Buffer.from([0x00, 0x01, 0x02, 0xff, 0x00, 0x63, 0x61, 0x63, 0x68, 0x65]),
    'data/huge.txt': `cache ${'x'.repeat(600 * 1024)}`,
  });
  makeGitRepo(path.join(outside, 'secret'), { 'passwords.txt': 'cache password hunter2\n' });
  t = await createTestApp({ RESEARCH_REPO_ROOTS: `/nonexistent:${root}` });
  const w = await workspaceWithRoles(t);
  ({ editor } = w);
  ws = w.workspace.id;
  worker = researchWorker(t);
});
afterAll(async () => {
  await worker?.stop();
  await t?.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const post = (body: unknown) => t.request({ method: 'POST', url: researchUrl(ws), token: editor.token, body });
const report = async (id: string) => (await t.request({ url: researchUrl(ws, `/${id}/report`), token: editor.token })).body;
const repoCoverage = (r: { coverage: { source: string; status: string; detail: string }[] }) => r.coverage.find((c) => c.source === 'repository')!;

describe('research from a repository', () => {
  it('clones a local repository under RESEARCH_REPO_ROOTS shallowly and cites its files', async () => {
    const job = await createJob(t, ws, editor, { topic: 'cache eviction', sources: ['repository'], repository: { url: repo } });
    const done = await waitForJob(t, ws, editor, job.id);
    expect(done).toMatchObject({ status: 'completed', sourcesSearched: 1, repository: { url: repo, branch: 'main', paths: [], maxFiles: 100 } });
    expect(done.documentsFound).toBe(4); // README, two sources, the operations doc: not the binary or the huge file
    const r = await report(job.id);
    const files = r.sources.map((s: { title: string }) => s.title);
    expect(files).toEqual(expect.arrayContaining(['src/cache.ts', 'README.md', 'docs/operations.md']));
    expect(files).not.toContain('src/math.ts'); // nothing in it about the topic
    for (const s of r.sources) {
      expect(s).toMatchObject({ type: 'doc', kind: 'file' });
      expect(s.url).toBe(`${repo}#${s.title}`);
    }
    expect(r.content).toContain('least recently used');
    const coverage = repoCoverage(r);
    expect(coverage.status).toBe('searched');
    expect(coverage.detail).toContain('6 files');
    expect(coverage.detail).toContain('4 text files read');
    expect(coverage.detail).toContain('1 binary skipped');
    expect(coverage.detail).toContain('1 over 512 KiB skipped');
  });

  it('reads only the `paths` globs, at most `maxFiles`, from a file:// URL', async () => {
    const job = await createJob(t, ws, editor, {
      topic: 'cache',
      sources: ['repository'],
      repository: { url: `file://${repo}`, branch: 'main', paths: ['src/**', '*.md'], maxFiles: 2 },
    });
    const done = await waitForJob(t, ws, editor, job.id);
    expect(done).toMatchObject({ status: 'completed', documentsFound: 2 });
    const coverage = repoCoverage(await report(job.id));
    expect(coverage.detail).toContain('4 matching src/**, *.md');
    expect(coverage.detail).toContain('2 past maxFiles (2) not read');
  });

  it('reports a branch that does not exist as a failed source, not a failed job', async () => {
    const job = await createJob(t, ws, editor, { topic: 'cache', sources: ['repository', 'docs'], repository: { url: repo, branch: 'nope' } });
    const done = await waitForJob(t, ws, editor, job.id);
    expect(done.status).toBe('completed');
    const coverage = repoCoverage(await report(job.id));
    expect(coverage.status).toBe('failed');
    expect(coverage.detail).toContain('could not clone');
  });

  it('refuses local repositories outside the roots, through symbolic links too', async () => {
    for (const url of [path.join(outside, 'secret'), `file://${path.join(outside, 'secret')}`, '/etc', `${root}/../${path.basename(outside)}/secret`]) {
      const res = await post({ topic: 'cache', repository: { url } });
      expect(res.status, url).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'repository.url', reason: 'outside_roots' } });
    }
    const link = path.join(root, 'escape');
    symlinkSync(path.join(outside, 'secret'), link);
    const viaLink = await post({ topic: 'cache', repository: { url: link } });
    expect(viaLink.status).toBe(422);
    expect(viaLink.body.error.details.reason).toBe('outside_roots');
    const missing = await post({ topic: 'cache', repository: { url: path.join(root, 'nothing-here') } });
    expect(missing.status).toBe(422);
    expect(missing.body.error.details.reason).toBe('not_found');
    const relative = await post({ topic: 'cache', repository: { url: 'service' } });
    expect(relative.status).toBe(422);
    expect(relative.body.error.details.reason).toBe('unsupported_scheme');
  });

  it('adds repository to the default sources when a repository is given', async () => {
    const res = await post({ topic: 'cache', repository: { url: repo } });
    expect(res.status).toBe(201);
    expect(res.body.sources).toEqual(['docs', 'web', 'repository']);
    await waitForJob(t, ws, editor, res.body.id);
  });
});

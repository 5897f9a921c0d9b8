import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Worker } from '../../src/jobs/worker.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { createJob, makeGitRepo, researchUrl, researchWorker, waitForJob } from './helpers.js';

// How clones run: no configuration or hooks from the service's surroundings, a size cap, ssh pinned to the checked address.
let t: TestApp;
let ws: string;
let editor: TestUser;
let root: string;
let fakeTmp: string;
let fakeBin: string;
const systemTmp = process.env.TMPDIR;

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'kb-clone-roots-'));
  fakeTmp = mkdtempSync(path.join(tmpdir(), 'kb-clone-tmp-'));
  fakeBin = mkdtempSync(path.join(tmpdir(), 'kb-clone-bin-'));
  makeGitRepo(path.join(root, 'small'), { 'README.md': 'The cache layer keeps hot records in memory.\n' });
  // Random bytes do not compress: about 3 MiB in the pack and on disk.
  makeGitRepo(path.join(root, 'big'), { 'README.md': 'The cache layer.\n', 'blob.bin': randomBytes(3 * 1024 * 1024) });
  t = await createTestApp({ RESEARCH_REPO_ROOTS: root, RESEARCH_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128' });
  const w = await workspaceWithRoles(t);
  ({ editor } = w);
  ws = w.workspace.id;
});
const restoreTmp = () => {
  if (systemTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = systemTmp;
};
afterAll(async () => {
  restoreTmp();
  await t?.close();
  for (const dir of [root, fakeTmp, fakeBin]) rmSync(dir, { recursive: true, force: true });
});

async function withWorker<T>(config: Parameters<typeof researchWorker>[1], run: () => Promise<T>): Promise<T> {
  const worker: Worker = researchWorker(t, config);
  try {
    return await run();
  } finally {
    await worker.stop();
  }
}

async function repositoryCoverage(repository: Record<string, unknown>) {
  const job = await createJob(t, ws, editor, { topic: 'cache', sources: ['repository'], repository });
  const done = await waitForJob(t, ws, editor, job.id);
  expect(done.status).toBe('completed');
  const r = await t.request({ url: researchUrl(ws, `/${job.id}/report`), token: editor.token });
  return { done, coverage: r.body.coverage.find((c: { source: string }) => c.source === 'repository') };
}

describe('research clones', () => {
  it('ignores a .gitconfig planted in the temporary folder: its hooks never run', async () => {
    // The temporary folder was git's HOME: a .gitconfig there could point core.hooksPath at any program.
    process.env.TMPDIR = fakeTmp;
    const marker = path.join(fakeTmp, 'hook-ran');
    mkdirSync(path.join(fakeTmp, 'hooks'));
    writeFileSync(path.join(fakeTmp, 'hooks', 'post-checkout'), `#!/bin/sh\ntouch ${marker}\n`);
    chmodSync(path.join(fakeTmp, 'hooks', 'post-checkout'), 0o755);
    writeFileSync(path.join(fakeTmp, '.gitconfig'), `[core]\n\thooksPath = ${path.join(fakeTmp, 'hooks')}\n`);
    try {
      await withWorker({}, async () => {
        const { coverage, done } = await repositoryCoverage({ url: path.join(root, 'small') });
        expect(coverage.status).toBe('searched');
        expect(done.documentsFound).toBe(1);
      });
    } finally {
      restoreTmp();
    }
    expect(existsSync(marker)).toBe(false);
  });

  it('stops a clone that grows past RESEARCH_CLONE_MAX_BYTES', async () => {
    await withWorker({ config: { RESEARCH_CLONE_MAX_BYTES: 1024 * 1024 } }, async () => {
      const { coverage, done } = await repositoryCoverage({ url: path.join(root, 'big') });
      expect(coverage.status).toBe('failed');
      expect(coverage.detail).toContain('grew past 1048576 bytes (RESEARCH_CLONE_MAX_BYTES)');
      expect(done.documentsFound).toBe(0);
      // Under the cap the same repository is read.
      const small = await repositoryCoverage({ url: path.join(root, 'small') });
      expect(small.coverage.status).toBe('searched');
    });
  });

  it('makes ssh connect to the address it checked, with no proxy from the ssh configuration', async () => {
    // A stand-in for ssh on the service's PATH that records how it was called, then fails like an unreachable host.
    const calls = path.join(fakeBin, 'calls');
    writeFileSync(path.join(fakeBin, 'ssh'), `#!/bin/sh\nprintf '%s\\n' "$@" >> ${calls}\nexit 255\n`);
    chmodSync(path.join(fakeBin, 'ssh'), 0o755);
    await withWorker({ config: { PATH: `${fakeBin}:${t.config.PATH}` } }, async () => {
      const { coverage } = await repositoryCoverage({ url: 'ssh://git@localhost:2222/team/repo.git' });
      expect(coverage.status).toBe('failed');
      expect(coverage.detail).toContain('could not clone');
    });
    const args = readFileSync(calls, 'utf8').split('\n');
    expect(args).toContain('HostKeyAlias=localhost');
    expect(args.some((a) => a === 'HostName=127.0.0.1' || a === 'HostName=::1')).toBe(true);
    expect(args).toContain('ProxyCommand=none');
    expect(args).toContain('git@localhost');
  });

  it('refuses an ssh host on a private address outside RESEARCH_ALLOWED_NETWORKS', async () => {
    const res = await t.request({
      method: 'POST',
      url: researchUrl(ws),
      token: editor.token,
      body: { topic: 'cache', repository: { url: 'git@10.1.2.3:team/repo.git' } },
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'repository.url', reason: 'private_address' } });
  });
});

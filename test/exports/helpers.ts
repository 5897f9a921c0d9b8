import { expect } from 'vitest';
import yauzl from 'yauzl';
import { TokenIssuer } from '../../src/areas/auth/tokens.js';
import { exportJobs } from '../../src/areas/exports/exports.jobs.js';
import { createBlobStore } from '../../src/blobs/index.js';
import { Worker } from '../../src/jobs/worker.js';
import { TEST_JWT_SECRET, type TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';

/** A real worker over the test database running the exports' job handlers, polling often. */
export function exportWorker(t: TestApp) {
  const env = { config: t.config, tokens: new TokenIssuer(TEST_JWT_SECRET, 3600), blobs: createBlobStore(t.config) };
  const worker = new Worker({
    db: t.database.db,
    env,
    handlers: new Map(Object.entries(exportJobs.handlers)),
    onFailed: new Map(Object.entries(exportJobs.onFailed ?? {})),
    concurrency: 2,
    pollMs: 20,
    leaseMs: 3000,
    baseBackoffMs: 10,
  });
  worker.start();
  return worker;
}

export async function startExport(t: TestApp, user: TestUser, body: Record<string, unknown>) {
  const res = await t.request({ method: 'POST', url: '/api/v1/exports', token: user.token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.data as { id: string; status: string; progress: { done: number; total: number } };
}

/** Polls the export until it has succeeded or failed (or the time runs out: the last view is returned either way). */
export async function waitForExport(t: TestApp, user: TestUser, id: string, ms = 30_000) {
  const until = Date.now() + ms;
  for (;;) {
    const res = await t.request({ url: `/api/v1/exports/${id}`, token: user.token });
    expect(res.status).toBe(200);
    if (['succeeded', 'failed'].includes(res.body.data.status) || Date.now() > until) return res.body.data;
    await new Promise((r) => setTimeout(r, 30));
  }
}

/** The files of a zip by path (folders left out). */
export function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err || !file) return reject(err);
      const files = new Map<string, Buffer>();
      file.on('error', reject);
      file.on('end', () => resolve(files));
      file.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) return file.readEntry();
        file.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            file.readEntry();
          });
        });
      });
      file.readEntry();
    });
  });
}

/** Exports, waits for success and unzips the download. */
export async function exportAndUnzip(t: TestApp, user: TestUser, body: Record<string, unknown>) {
  const started = await startExport(t, user, body);
  const done = await waitForExport(t, user, started.id);
  expect(done.status, JSON.stringify(done)).toBe('succeeded');
  const res = await t.request({ url: `/api/v1/exports/${started.id}/download`, token: user.token });
  expect(res.status).toBe(200);
  return { export: done, files: await unzip(res.raw.rawPayload), response: res };
}

import { existsSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOB_SWEEP_JOB, attachmentJobs, sweepOrphanedBlobs } from '../../src/areas/attachments/attachments.jobs.js';
import { createBlobStore, type DiskBlobStore } from '../../src/blobs/index.js';
import type { ServiceEnv } from '../../src/context.js';
import { enqueue } from '../../src/jobs/queue.js';
import { collectJobs } from '../../src/jobs/registry.js';
import { Worker } from '../../src/jobs/worker.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { workspaceWithRoles } from '../helpers/factories.js';
import { createPage, createSpace } from '../spaces/helpers.js';

let t: TestApp;
let blobs: DiskBlobStore;
beforeAll(async () => {
  t = await createTestApp();
  blobs = createBlobStore(t.config) as DiskBlobStore;
});
afterAll(() => t.close());

const TWO_HOURS_AGO = new Date(Date.now() - 2 * 3600_000);
const fileOf = (key: string) => path.join(blobs.root, key.slice(-2).toLowerCase(), key);
const age = (file: string) => utimesSync(file, TWO_HOURS_AGO, TWO_HOURS_AGO);

/** An attachment uploaded through the API, its blob made old enough to be swept were it unused. */
async function oldAttachment() {
  const { workspace, admin, editor } = await workspaceWithRoles(t);
  const space = await createSpace(t, admin, workspace.id, { name: 'Files' });
  const page = await createPage(t, editor, workspace.id, space.id, 'With a file');
  const res = await t.request({
    method: 'POST',
    url: '/api/v1/attachments',
    token: editor.token,
    body: { workspaceId: workspace.id, pageId: page.id, filename: 'kept.txt', contentType: 'text/plain', data: Buffer.from('kept bytes').toString('base64') },
  });
  expect(res.status).toBe(201);
  age(fileOf(res.body.data.id));
  return { id: res.body.data.id as string, token: editor.token };
}

describe('orphaned blob sweep', () => {
  it('deletes old blobs no attachment uses and abandoned partial writes; keeps used and recent ones', async () => {
    const used = await oldAttachment();
    await blobs.put('orphanOld1', Buffer.from('left by a crash'));
    age(fileOf('orphanOld1'));
    await blobs.put('orphanNew1', Buffer.from('an upload whose row is being written'));
    const staleTemp = `${fileOf('orphanOld1')}.3f2a.tmp`;
    writeFileSync(staleTemp, 'half an upload');
    age(staleTemp);
    const freshTemp = `${fileOf('orphanNew1')}.9c1d.tmp`;
    writeFileSync(freshTemp, 'an upload in progress');

    expect(await sweepOrphanedBlobs(t.database.db, blobs)).toBe(1);
    expect(existsSync(fileOf('orphanOld1'))).toBe(false);
    expect(existsSync(staleTemp)).toBe(false);
    expect(existsSync(fileOf('orphanNew1'))).toBe(true);
    expect(existsSync(freshTemp)).toBe(true);
    const download = await t.request({ url: `/api/v1/attachments/${used.id}/download`, token: used.token });
    expect(download.status).toBe(200);
    expect(download.raw.rawPayload.toString()).toBe('kept bytes');
    // Nothing more to do.
    expect(await sweepOrphanedBlobs(t.database.db, blobs)).toBe(0);
  });

  it('keeps the bytes owner-only: blob files 0600, their folders 0700', async () => {
    const { id } = await oldAttachment();
    const modeOf = (file: string) => statSync(file).mode & 0o777;
    expect(modeOf(fileOf(id))).toBe(0o600);
    expect(modeOf(path.dirname(fileOf(id)))).toBe(0o700);
    expect(modeOf(blobs.root)).toBe(0o700);
    expect(modeOf(t.config.DATA_DIR)).toBe(0o700);
  });

  it('runs every six hours as a job on the durable queue', async () => {
    expect(collectJobs().handlers.has(BLOB_SWEEP_JOB)).toBe(true);
    expect(collectJobs().recurring).toContainEqual({ kind: BLOB_SWEEP_JOB, everyMs: 6 * 3600_000 });
    await blobs.put('orphanOld2', Buffer.from('another leftover'));
    age(fileOf('orphanOld2'));
    const env = { config: t.config, blobs } as unknown as ServiceEnv;
    const worker = new Worker({ db: t.database.db, env, handlers: collectJobs([attachmentJobs]).handlers, concurrency: 1, pollMs: 20 });
    await enqueue(t.database.db, { kind: BLOB_SWEEP_JOB, dedupeKey: `recurring:${BLOB_SWEEP_JOB}` });
    worker.start();
    try {
      await expect.poll(() => existsSync(fileOf('orphanOld2')), { timeout: 5000, interval: 50 }).toBe(false);
    } finally {
      await worker.stop();
    }
  });
});

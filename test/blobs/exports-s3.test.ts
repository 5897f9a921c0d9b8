import { createHash } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BlobStore, createBlobStore } from '../../src/blobs/index.js';
import { migrateBlobs } from '../../src/blobs/migrate-blobs.js';
import type { Worker } from '../../src/jobs/worker.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { workspaceWithRoles } from '../helpers/factories.js';
import { startS3, type TestS3 } from '../helpers/s3.js';
import { exportWorker, startExport, unzip, waitForExport } from '../exports/helpers.js';
import { createPage, createSpace } from '../spaces/helpers.js';

/** An export's zip written to S3 by the export job, downloaded whole and resumed with a Range, and counted by the migration. */

let s3: TestS3;
let t: TestApp;
let worker: Worker | undefined;
let bucket: BlobStore;
beforeAll(async () => {
  s3 = await startS3();
  t = await createTestApp(s3.overrides);
  bucket = createBlobStore({ DATA_DIR: t.config.DATA_DIR, ...s3.overrides });
});
afterAll(async () => {
  await worker?.stop();
  await t?.close();
  bucket?.close?.();
  await s3?.stop();
});

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('exports on S3', () => {
  it('stores the zip in the bucket and serves it whole or from an offset', { timeout: 60_000 }, async () => {
    const { workspace, admin, editor, viewer } = await workspaceWithRoles(t);
    const space = await createSpace(t, admin, workspace.id, { name: 'Handbook' });
    await createPage(t, editor, workspace.id, space.id, 'Welcome');
    const started = await startExport(t, viewer, { workspaceId: workspace.id, spaceId: space.id, format: 'markdown' });
    worker = exportWorker(t);
    const done = await waitForExport(t, viewer, started.id);
    expect(done.status).toBe('succeeded');

    const url = `/api/v1/exports/${started.id}/download`;
    const auth = { authorization: `Bearer ${viewer.token}` };
    const whole = await t.app.inject({ method: 'GET', url, headers: auth });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers).toMatchObject({ 'accept-ranges': 'bytes', 'content-type': 'application/zip', 'content-length': String(done.size) });
    expect(sha256(whole.rawPayload)).toBe(done.sha256);
    expect([...(await unzip(whole.rawPayload)).keys()].some((name) => name.endsWith('Welcome.md'))).toBe(true);

    // A download resumed after 100 bytes: the two parts make the zip.
    const rest = await t.app.inject({ method: 'GET', url, headers: { ...auth, range: 'bytes=100-' } });
    expect(rest.statusCode).toBe(206);
    expect(rest.headers['content-range']).toBe(`bytes 100-${done.size - 1}/${done.size}`);
    expect(sha256(Buffer.concat([whole.rawPayload.subarray(0, 100), rest.rawPayload]))).toBe(done.sha256);
    const past = await t.app.inject({ method: 'GET', url, headers: { ...auth, range: `bytes=${done.size}-` } });
    expect([past.statusCode, past.headers['content-range'], past.json().error.code]).toEqual([416, `bytes */${done.size}`, 'RANGE_NOT_SATISFIABLE']);

    // The migration knows the zip is needed (a succeeded export refers to it), not only attachments.
    const back = createBlobStore({ DATA_DIR: t.config.DATA_DIR });
    const result = await migrateBlobs({ db: t.database.db, source: bucket, target: back });
    expect(result).toMatchObject({ total: 1, copied: 1, failed: 0, bytes: done.size });
    const [key] = await (async () => {
      const keys: string[] = [];
      for await (const k of back.listBefore(new Date(Date.now() + 60_000))) keys.push(k);
      return keys;
    })();
    expect(sha256(await buffer(await back.get(key)))).toBe(done.sha256);
  });
});

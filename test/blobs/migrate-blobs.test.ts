import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BlobStore, createBlobStore } from '../../src/blobs/index.js';
import { type MigrateProgress, migrateBlobs } from '../../src/blobs/migrate-blobs.js';
import { createTestApp, siblingApp, type TestApp } from '../helpers/app.js';
import { workspaceWithRoles } from '../helpers/factories.js';
import { postMultipart } from '../helpers/multipart.js';
import { startS3, type TestS3 } from '../helpers/s3.js';
import { createPage, createSpace } from '../spaces/helpers.js';

/**
 * `migrateBlobs` (behind `kb storage migrate`): attachments uploaded on disk are copied to S3 and back, resumably, and
 * an app switched to STORAGE_DRIVER=s3 over the same database serves them.
 */

let s3: TestS3;
let t: TestApp;
let disk: BlobStore;
let bucket: BlobStore;
let otherDir: string;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const files: { id: string; bytes: Buffer }[] = [];
let viewerToken: string;

beforeAll(async () => {
  s3 = await startS3();
  t = await createTestApp({ MAX_ATTACHMENT_BYTES: 12 * 1024 * 1024 });
  disk = createBlobStore(t.config);
  bucket = createBlobStore({ DATA_DIR: t.config.DATA_DIR, ...s3.overrides });
  otherDir = mkdtempSync(path.join(tmpdir(), 'kb-blobs-back-'));

  const { workspace, admin, editor, viewer } = await workspaceWithRoles(t);
  viewerToken = viewer.token;
  const space = await createSpace(t, admin, workspace.id, { name: 'Files' });
  const page = await createPage(t, editor, workspace.id, space.id, 'With files');
  for (const bytes of [Buffer.from('first file'), Buffer.from('second, a little longer'), randomBytes(50_000), randomBytes(9 * 1024 * 1024)]) {
    const res = await postMultipart(t.app, editor.token, '/api/v1/attachments', [
      ['pageId', page.id],
      ['workspaceId', workspace.id],
      ['file', { bytes, filename: 'f.bin', type: 'application/octet-stream' }],
    ]);
    expect(res.statusCode).toBe(201);
    files.push({ id: res.json().data.id, bytes });
  }
  // A blob no row refers to: not the migration's business (the orphan sweep's).
  await disk.put('orphanMig1', Buffer.from('nobody needs me'));
}, 120_000);

afterAll(async () => {
  await t?.close();
  bucket?.close?.();
  await s3?.stop();
  rmSync(otherDir, { recursive: true, force: true });
});

const totalBytes = () => files.reduce((n, f) => n + f.bytes.length, 0);

async function keysOf(store: BlobStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of store.listBefore(new Date(Date.now() + 60_000))) keys.push(key);
  return keys.sort();
}

describe('migrating blobs between stores', () => {
  it('copies every referenced blob from disk to S3, with progress, and nothing else', { timeout: 60_000 }, async () => {
    const seen: MigrateProgress[] = [];
    const result = await migrateBlobs({ db: t.database.db, source: disk, target: bucket, onProgress: (p) => seen.push(p) });
    expect(result).toEqual({ total: 4, copied: 4, skipped: 0, failed: 0, bytes: totalBytes(), failures: [] });
    expect(seen).toHaveLength(4);
    expect(seen.at(-1)).toEqual({ total: 4, copied: 4, skipped: 0, failed: 0, bytes: totalBytes() });
    expect(await keysOf(bucket)).toEqual(files.map((f) => f.id).sort());
    for (const f of files) expect(sha256(await buffer(await bucket.get(f.id)))).toBe(sha256(f.bytes));
    // The source is left as it was.
    expect(await keysOf(disk)).toEqual([...files.map((f) => f.id), 'orphanMig1'].sort());
  });

  it('is resumable: a second run copies nothing, one after a loss copies only what is missing', async () => {
    expect(await migrateBlobs({ db: t.database.db, source: disk, target: bucket })).toMatchObject({ copied: 0, skipped: 4, failed: 0, bytes: 0 });
    await bucket.delete(files[1].id);
    expect(await migrateBlobs({ db: t.database.db, source: disk, target: bucket })).toMatchObject({
      copied: 1,
      skipped: 3,
      bytes: files[1].bytes.length,
    });
  });

  it('an app switched to STORAGE_DRIVER=s3 over the same database serves the migrated files, ranges included', async () => {
    const onS3 = await siblingApp(t, {}, s3.overrides);
    try {
      for (const f of files) {
        const res = await onS3.app.inject({ method: 'GET', url: `/api/v1/attachments/${f.id}/download`, headers: { authorization: `Bearer ${viewerToken}` } });
        expect(res.statusCode).toBe(200);
        expect(sha256(res.rawPayload)).toBe(sha256(f.bytes));
      }
      const part = await onS3.app.inject({
        method: 'GET',
        url: `/api/v1/attachments/${files[0].id}/download`,
        headers: { authorization: `Bearer ${viewerToken}`, range: 'bytes=6-' },
      });
      expect([part.statusCode, part.payload]).toEqual([206, 'file']);
    } finally {
      await onS3.app.close();
    }
  });

  it('copies back from S3 to disk, resumably, deleting the S3 copies only when asked', { timeout: 60_000 }, async () => {
    const back = createBlobStore({ DATA_DIR: otherDir });
    expect(await migrateBlobs({ db: t.database.db, source: bucket, target: back })).toMatchObject({ copied: 4, skipped: 0, failed: 0 });
    expect(await keysOf(bucket)).toHaveLength(4);
    const again = await migrateBlobs({ db: t.database.db, source: bucket, target: back, deleteSource: true });
    expect(again).toMatchObject({ copied: 0, skipped: 4, failed: 0 });
    expect(await keysOf(bucket)).toEqual([]);
    for (const f of files) expect(sha256(await buffer(await back.get(f.id)))).toBe(sha256(f.bytes));
  });

  it('lists blobs missing from the source or whose bytes differ from the record as failed, keeping no bad copy', async () => {
    const source = createBlobStore({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'kb-blobs-src-')) });
    await source.put(files[0].id, files[0].bytes);
    await source.put(files[1].id, Buffer.alloc(files[1].bytes.length, 1)); // right size, wrong bytes
    await source.put(files[2].id, files[2].bytes.subarray(1)); // a byte short
    const result = await migrateBlobs({ db: t.database.db, source, target: bucket });
    expect(result).toMatchObject({ total: 4, copied: 1, skipped: 0, failed: 3 });
    const reasons = Object.fromEntries(result.failures.map((f) => [f.key, f.reason]));
    expect(reasons[files[1].id]).toMatch(/SHA-256 .* differs from the recorded/);
    expect(reasons[files[2].id]).toMatch(/size 49999 differs from the recorded 50000/);
    expect(reasons[files[3].id]).toBe('missing from the source store');
    expect(await keysOf(bucket)).toEqual([files[0].id]);
    rmSync((source as { root?: string }).root as string, { recursive: true, force: true });
  });

  it('with verify, re-copies a blob already in the target whose bytes differ though its size matches', async () => {
    await bucket.put(files[1].id, Buffer.alloc(files[1].bytes.length, 7));
    const trusting = await migrateBlobs({ db: t.database.db, source: disk, target: bucket });
    expect(trusting).toMatchObject({ failed: 0 });
    expect(sha256(await buffer(await bucket.get(files[1].id)))).not.toBe(sha256(files[1].bytes));
    const verified = await migrateBlobs({ db: t.database.db, source: disk, target: bucket, verify: true });
    expect(verified).toMatchObject({ copied: 1, skipped: 3, failed: 0 });
    expect(sha256(await buffer(await bucket.get(files[1].id)))).toBe(sha256(files[1].bytes));
  });
});

import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepOrphanedBlobs } from '../../src/areas/attachments/attachments.jobs.js';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { type BlobStore, createBlobStore, type S3BlobStore } from '../../src/blobs/index.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { postMultipart } from '../helpers/multipart.js';
import { startS3, type TestS3 } from '../helpers/s3.js';
import { publish, sharedSetup, tokenOf } from '../shares/helpers.js';
import { createPage, createSpace } from '../spaces/helpers.js';

/**
 * Attachments with STORAGE_DRIVER=s3 (s3rver), over HTTP: upload (JSON and streamed multipart), whole and ranged
 * downloads, the orphan sweep, and deletion, with the bucket read back through a store of its own.
 */

let s3: TestS3;
let t: TestApp;
/** The same app on the disk store, for the Range rules that must not depend on the driver. */
let onDisk: TestApp;
let bucket: BlobStore;
beforeAll(async () => {
  s3 = await startS3();
  t = await createTestApp({ ...s3.overrides, MAX_ATTACHMENT_BYTES: 12 * 1024 * 1024 });
  onDisk = await createTestApp();
  bucket = createBlobStore({ DATA_DIR: t.config.DATA_DIR, ...s3.overrides });
});
afterAll(async () => {
  await t?.close();
  await onDisk?.close();
  bucket?.close?.();
  await s3?.stop();
});

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function setup(app = t) {
  const roles = await workspaceWithRoles(app);
  const space = await createSpace(app, roles.admin, roles.workspace.id, { name: 'Files' });
  const page = await createPage(app, roles.editor, roles.workspace.id, space.id, 'With files');
  return { ...roles, space, page };
}

async function upload(user: TestUser, page: { id: string }, workspaceId: string, bytes: Buffer, contentType = 'application/octet-stream', app = t) {
  const res = await app.request({
    method: 'POST',
    url: '/api/v1/attachments',
    token: user.token,
    body: { pageId: page.id, workspaceId, filename: 'data.bin', contentType, data: bytes.toString('base64') },
  });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; size: number; sha256: string };
}

function download(user: TestUser, id: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET', app = t) {
  return app.app.inject({ method, url: `/api/v1/attachments/${id}/download`, headers: { authorization: `Bearer ${user.token}`, ...headers } });
}

const downloadFrom = download;

describe('attachments on S3', () => {
  it('the app stores attachment bytes in the bucket, under blobs/', async () => {
    expect(t.config.STORAGE_DRIVER).toBe('s3');
    const { workspace, editor, viewer, page } = await setup();
    const bytes = Buffer.from('bytes that live in a bucket');
    const att = await upload(editor, page, workspace.id, bytes, 'text/plain');
    expect(att).toMatchObject({ size: bytes.length, sha256: sha256(bytes) });
    expect(await bucket.stat(att.id)).toEqual({ size: bytes.length });
    const listed = await (bucket as S3BlobStore).client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `blobs/${att.id}` }));
    expect(listed.Contents?.map((o) => o.Key)).toEqual([`blobs/${att.id}`]);

    const dl = await download(viewer, att.id);
    expect(dl.statusCode).toBe(200);
    expect(dl.rawPayload.equals(bytes)).toBe(true);
    expect(dl.headers).toMatchObject({ 'content-length': String(bytes.length), 'accept-ranges': 'bytes', etag: `"${sha256(bytes)}"` });
    expect(dl.headers['content-range']).toBeUndefined();
  });

  it('streams a multipart upload larger than one S3 part, and reads it back whole and in ranges', { timeout: 60_000 }, async () => {
    const { workspace, editor, viewer, page } = await setup();
    const bytes = randomBytes(9 * 1024 * 1024);
    const res = await postMultipart(t.app, editor.token, '/api/v1/attachments', [
      ['pageId', page.id],
      ['workspaceId', workspace.id],
      ['file', { bytes, filename: 'big.bin', type: 'application/octet-stream' }],
    ]);
    expect(res.statusCode).toBe(201);
    const att = res.json().data;
    expect(att).toMatchObject({ size: bytes.length, sha256: sha256(bytes) });

    const whole = await download(viewer, att.id);
    expect(whole.statusCode).toBe(200);
    expect(sha256(whole.rawPayload)).toBe(sha256(bytes));

    const tail = await download(viewer, att.id, { range: 'bytes=-1000' });
    expect(tail.statusCode).toBe(206);
    expect(tail.headers['content-range']).toBe(`bytes ${bytes.length - 1000}-${bytes.length - 1}/${bytes.length}`);
    expect(tail.rawPayload.equals(bytes.subarray(bytes.length - 1000))).toBe(true);
  });

  it('refuses an upload over MAX_ATTACHMENT_BYTES and leaves nothing in the bucket', { timeout: 60_000 }, async () => {
    const { workspace, editor, page } = await setup();
    const before = await keysInBucket();
    const bytes = randomBytes(12 * 1024 * 1024 + 1);
    const res = await postMultipart(t.app, editor.token, '/api/v1/attachments', [
      ['pageId', page.id],
      ['workspaceId', workspace.id],
      ['file', { bytes, filename: 'too-big.bin', type: 'application/octet-stream' }],
    ]);
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'data', reason: 'too_large' } });
    expect(await keysInBucket()).toEqual(before);
  });

  it.each(['s3', 'disk'])(
    'answers Range requests (%s): 206 with Content-Range, 416 past the end, 200 for several ranges or a stale If-Range',
    async (driver) => {
      const app = driver === 's3' ? t : onDisk;
      expect(app.config.STORAGE_DRIVER).toBe(driver);
      const download = (user: TestUser, id: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
        downloadFrom(user, id, headers, method, app);
      const { workspace, editor, viewer, page } = await setup(app);
      const bytes = Buffer.from('0123456789');
      const att = await upload(editor, page, workspace.id, bytes, 'text/plain', app);
      const cases: [string, number, string, string | undefined][] = [
        ['bytes=2-5', 206, '2345', 'bytes 2-5/10'],
        ['bytes=7-', 206, '789', 'bytes 7-9/10'],
        ['bytes=-3', 206, '789', 'bytes 7-9/10'],
        ['bytes=-30', 206, '0123456789', 'bytes 0-9/10'],
        ['bytes=8-100', 206, '89', 'bytes 8-9/10'],
        ['bytes=0-0', 206, '0', 'bytes 0-0/10'],
        ['bytes=0-1, 4-5', 200, '0123456789', undefined],
        ['bytes=5-2', 200, '0123456789', undefined],
        ['lines=1-2', 200, '0123456789', undefined],
        ['bytes=abc', 200, '0123456789', undefined],
      ];
      for (const [range, status, body, contentRange] of cases) {
        const res = await download(viewer, att.id, { range });
        expect(res.statusCode, range).toBe(status);
        expect(res.payload, range).toBe(body);
        expect(res.headers['content-range'], range).toBe(contentRange);
        expect(res.headers['content-length'], range).toBe(String(body.length));
        expect(res.headers['accept-ranges'], range).toBe('bytes');
        expect(res.headers['content-type'], range).toBe('application/octet-stream');
      }
      for (const range of ['bytes=10-', 'bytes=10-20', 'bytes=-0']) {
        const res = await download(viewer, att.id, { range });
        expect(res.statusCode, range).toBe(416);
        expect(res.headers['content-range'], range).toBe('bytes */10');
        expect(res.json().error, range).toMatchObject({ code: 'RANGE_NOT_SATISFIABLE', details: { field: 'range', reason: 'not_satisfiable', size: 10 } });
      }
      // If-Range: the range only while the bytes are still those of the client's ETag.
      const current = await download(viewer, att.id, { range: 'bytes=0-1', 'if-range': `"${att.sha256}"` });
      expect([current.statusCode, current.payload]).toEqual([206, '01']);
      const stale = await download(viewer, att.id, { range: 'bytes=0-1', 'if-range': '"something-else"' });
      expect([stale.statusCode, stale.payload]).toEqual([200, '0123456789']);
      // HEAD tells a download manager the size and that it may ask for ranges.
      const head = await download(viewer, att.id, {}, 'HEAD');
      expect(head.statusCode).toBe(200);
      expect(head.headers).toMatchObject({ 'accept-ranges': 'bytes', 'content-length': '10' });
      expect(head.payload).toBe('');
      const headPart = await download(viewer, att.id, { range: 'bytes=2-5' }, 'HEAD');
      expect([headPart.statusCode, headPart.headers['content-length'], headPart.headers['content-range'], headPart.payload]).toEqual([
        206,
        '4',
        'bytes 2-5/10',
        '',
      ]);
    },
  );

  it('checks access before looking at the range: an outsider gets 403, not 416', async () => {
    const { workspace, editor, outsider, page } = await setup();
    const att = await upload(editor, page, workspace.id, Buffer.from('secret'));
    const res = await download(outsider, att.id, { range: 'bytes=100-' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('FORBIDDEN');
    expect(res.headers['content-range']).toBeUndefined();
  });

  it('serves ranges of an attachment through a public share', async () => {
    const { workspace, editor, page } = await sharedSetup(t);
    const att = await upload(editor, page, workspace.id, Buffer.from('shared bytes'), 'text/plain');
    const shared = await publish(t, editor, page.id);
    expect(shared.status).toBeLessThan(300);
    const url = `/api/v1/public/shares/${tokenOf(shared.body.data.url)}/attachments/${att.id}`;
    const part = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=7-' } });
    expect([part.statusCode, part.payload, part.headers['content-range']]).toEqual([206, 'bytes', 'bytes 7-11/12']);
    const whole = await t.app.inject({ method: 'GET', url });
    expect([whole.statusCode, whole.payload, whole.headers['accept-ranges']]).toEqual([200, 'shared bytes', 'bytes']);
    const past = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=12-' } });
    expect([past.statusCode, past.headers['content-range']]).toEqual([416, 'bytes */12']);
  });

  it('deletes the object with the attachment', async () => {
    const { workspace, editor, page } = await setup();
    const att = await upload(editor, page, workspace.id, Buffer.from('short-lived'));
    const res = await t.request({ method: 'DELETE', url: `/api/v1/attachments/${att.id}`, token: editor.token });
    expect(res.status).toBe(200);
    expect(await bucket.stat(att.id)).toBeNull();
  });

  it('the orphan sweep deletes old objects no row uses and keeps those in use', async () => {
    const { workspace, editor, viewer, page } = await setup();
    const kept = await upload(editor, page, workspace.id, Buffer.from('kept bytes'));
    await bucket.put('orphanS3a', Buffer.from('left by a crash'));
    // s3rver dates objects by their write time: "now" two hours ahead makes every object older than the grace period.
    const later = new Date(Date.now() + 2 * 3600_000);
    const deleted = await sweepOrphanedBlobs(t.database.db, bucket, later);
    expect(deleted).toBe(1);
    expect(await bucket.stat('orphanS3a')).toBeNull();
    expect(await bucket.stat(kept.id)).not.toBeNull();
    const dl = await download(viewer, kept.id);
    expect([dl.statusCode, dl.payload]).toEqual([200, 'kept bytes']);
    // A recent orphan (within the grace period) is left alone.
    await bucket.put('orphanS3b', Buffer.from('an upload whose row is being written'));
    expect(await sweepOrphanedBlobs(t.database.db, bucket)).toBe(0);
    expect(await bucket.stat('orphanS3b')).not.toBeNull();
  });
});

async function keysInBucket(): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of bucket.listBefore(new Date(Date.now() + 60_000))) keys.push(key);
  return keys.sort();
}

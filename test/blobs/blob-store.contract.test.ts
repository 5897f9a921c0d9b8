import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BlobStore, BlobNotFoundError, BlobTooLargeError, createBlobStore, DiskBlobStore, S3BlobStore } from '../../src/blobs/index.js';
import { startS3, type TestS3 } from '../helpers/s3.js';

/**
 * One contract, both drivers: the disk store under a temporary DATA_DIR and the S3 store against s3rver (real S3
 * requests over HTTP). Whatever the service relies on from a blob store is asserted here for each.
 */

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const FUTURE = () => new Date(Date.now() + 60_000);
const PAST = new Date(Date.now() - 3600_000);

async function keysBefore(store: BlobStore, before: Date): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of store.listBefore(before)) keys.push(key);
  return keys.sort();
}

/** A stream that yields `total` bytes in 64 KiB chunks, or fails after `failAfter` bytes (a client gone mid-upload). */
function chunked(total: number, failAfter?: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (failAfter !== undefined && sent >= failAfter) return this.destroy(new Error('client went away'));
      if (sent >= total) return this.push(null);
      const n = Math.min(65_536, total - sent);
      sent += n;
      this.push(Buffer.alloc(n, sent % 251));
    },
  });
}

let s3: TestS3;
let dataDir: string;
const stores: Record<'disk' | 's3', BlobStore> = {} as never;

beforeAll(async () => {
  s3 = await startS3();
  dataDir = mkdtempSync(path.join(tmpdir(), 'kb-blobs-'));
  stores.disk = createBlobStore({ DATA_DIR: dataDir });
  stores.s3 = createBlobStore({ DATA_DIR: dataDir, ...s3.overrides });
});

afterAll(async () => {
  stores.s3?.close?.();
  await s3?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe.each(['disk', 's3'] as const)('blob store contract: %s', (driver) => {
  const store = () => stores[driver];

  it('is the driver STORAGE_DRIVER names', () => {
    expect(store()).toBeInstanceOf(driver === 'disk' ? DiskBlobStore : S3BlobStore);
  });

  it('stores bytes with their size and SHA-256 and reads them back whole', async () => {
    const bytes = randomBytes(10_000);
    expect(await store().put('whole1', bytes)).toEqual({ size: 10_000, sha256: sha256(bytes) });
    expect((await buffer(await store().get('whole1'))).equals(bytes)).toBe(true);
    expect(await store().stat('whole1')).toEqual({ size: 10_000 });
  });

  it('stores a stream, and an empty blob', async () => {
    const stored = await store().put('stream1', chunked(300_000));
    const back = await buffer(await store().get('stream1'));
    expect(stored).toEqual({ size: 300_000, sha256: sha256(back) });
    expect(await store().put('empty1', new Uint8Array(0))).toEqual({ size: 0, sha256: sha256(Buffer.alloc(0)) });
    expect((await buffer(await store().get('empty1'))).length).toBe(0);
  });

  it('reads inclusive byte ranges', async () => {
    const bytes = Buffer.from('0123456789abcdef');
    await store().put('range1', bytes);
    expect((await buffer(await store().get('range1', { start: 2, end: 5 }))).toString()).toBe('2345');
    expect((await buffer(await store().get('range1', { start: 15, end: 15 }))).toString()).toBe('f');
    expect((await buffer(await store().get('range1', { start: 0, end: 0 }))).toString()).toBe('0');
    expect((await buffer(await store().get('range1', { start: 0, end: 15 }))).toString()).toBe('0123456789abcdef');
  });

  it('answers BlobNotFoundError for an unknown key, null from stat, and deletes idempotently', async () => {
    await expect(store().get('missing1')).rejects.toBeInstanceOf(BlobNotFoundError);
    expect(await store().stat('missing1')).toBeNull();
    await store().put('gone1', Buffer.from('bye'));
    await store().delete('gone1');
    await store().delete('gone1');
    await expect(store().get('gone1')).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('refuses keys that are not service-made ids', async () => {
    for (const bad of ['../etc/passwd', 'a/b', '', 'x'.repeat(200)]) await expect(store().put(bad, Buffer.from('x'))).rejects.toThrow(/Invalid blob key/);
  });

  it('rejects a blob over maxBytes and keeps nothing of it', async () => {
    await expect(store().put('big1', Buffer.alloc(101), { maxBytes: 100 })).rejects.toBeInstanceOf(BlobTooLargeError);
    await expect(store().put('big2', chunked(3_000_000), { maxBytes: 1_000_000 })).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(await store().stat('big1')).toBeNull();
    expect(await store().stat('big2')).toBeNull();
    expect(await store().put('exact1', Buffer.alloc(100), { maxBytes: 100 })).toMatchObject({ size: 100 });
    const keys = await keysBefore(store(), FUTURE());
    expect(keys).not.toContain('big1');
    expect(keys).not.toContain('big2');
  });

  it('keeps nothing of an upload whose source fails midway', async () => {
    await expect(store().put('broken1', chunked(1_000_000, 200_000))).rejects.toThrow('client went away');
    expect(await store().stat('broken1')).toBeNull();
  });

  it('stores a blob larger than a multipart part (8 MiB) and reads ranges across the part boundary', { timeout: 60_000 }, async () => {
    const bytes = randomBytes(9 * 1024 * 1024 + 123);
    expect(await store().put('multi1', Readable.from([bytes.subarray(0, 5_000_000), bytes.subarray(5_000_000)]))).toEqual({
      size: bytes.length,
      sha256: sha256(bytes),
    });
    const boundary = 8 * 1024 * 1024;
    const slice = await buffer(await store().get('multi1', { start: boundary - 10, end: boundary + 9 }));
    expect(slice.equals(bytes.subarray(boundary - 10, boundary + 10))).toBe(true);
    expect(sha256(await buffer(await store().get('multi1')))).toBe(sha256(bytes));
  });

  it('aborts a multipart upload past its limit and leaves no object', { timeout: 60_000 }, async () => {
    await expect(store().put('multibig1', chunked(20 * 1024 * 1024), { maxBytes: 12 * 1024 * 1024 })).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(await store().stat('multibig1')).toBeNull();
    expect(await keysBefore(store(), FUTURE())).not.toContain('multibig1');
  });

  it('lists the keys written before a time', async () => {
    await store().put('listed1', Buffer.from('a'));
    const now = await keysBefore(store(), FUTURE());
    expect(now).toEqual(expect.arrayContaining(['listed1', 'whole1', 'range1']));
    expect(now).not.toContain('gone1');
    expect(await keysBefore(store(), PAST)).toEqual([]);
  });

  it('is ready when it can be used', async () => {
    await expect(store().check()).resolves.toBeUndefined();
  });
});

describe('blob store readiness when it cannot be used', () => {
  it('disk: rejects when DATA_DIR/blobs is not a folder', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kb-blobs-bad-'));
    writeFileSync(path.join(dir, 'blobs'), 'a file, not a folder');
    try {
      await expect(createBlobStore({ DATA_DIR: dir }).check()).rejects.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('s3: rejects for a bucket that does not exist, and for an unknown access key', async () => {
    const missing = createBlobStore({ DATA_DIR: dataDir, ...s3.overrides, S3_BUCKET: 'no-such-bucket' });
    // s3rver checks the access key id (it does not verify SigV4 signatures, so a wrong secret would pass there).
    const wrongKey = createBlobStore({ DATA_DIR: dataDir, ...s3.overrides, S3_ACCESS_KEY_ID: 'NOT-A-KEY' });
    try {
      await expect(missing.check()).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });
      await expect(wrongKey.check()).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
      // A missing bucket is not a missing blob: it must not pass for "not found" (a download would 404 instead of failing loudly).
      await expect(missing.get('whole1')).rejects.not.toBeInstanceOf(BlobNotFoundError);
    } finally {
      missing.close?.();
      wrongKey.close?.();
    }
  });
});

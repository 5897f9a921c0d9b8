import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  type ListMultipartUploadsCommandOutput,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { assertBlobKey, type BlobRange, type BlobStore, BlobNotFoundError, BlobTooLargeError, isBlobKey, type StoredBlob } from './blob-store.js';

export interface S3BlobStoreOptions {
  bucket: string;
  region: string;
  /** Unset: AWS's own endpoint for the region. */
  endpoint?: string;
  /** Both or neither; neither: the SDK's default chain (environment, instance role, …). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `endpoint/bucket/key` rather than `bucket.endpoint/key` (MinIO, Ceph and most self-hosted stores). */
  forcePathStyle?: boolean;
  /** Multipart part size (S3's minimum is 5 MiB). */
  partSize?: number;
  /** Parts uploaded at once per blob. */
  queueSize?: number;
}

/** Objects are named `blobs/<key>`, so that the bucket can also hold other things (backups) without a clash. */
export const S3_KEY_PREFIX = 'blobs/';
const DEFAULT_PART_SIZE = 8 * 1024 * 1024;

/**
 * Blobs as objects in an S3-compatible store. An upload streams through a meter (size limit, SHA-256) into a
 * multipart upload of 8 MiB parts (a single PUT for a blob smaller than a part); an object appears only when the upload
 * completes, so a reader never sees half a blob, and an upload past its limit is aborted, leaving nothing.
 */
export class S3BlobStore implements BlobStore {
  readonly client: S3Client;
  readonly bucket: string;
  private readonly partSize: number;
  private readonly queueSize: number;

  constructor(options: S3BlobStoreOptions) {
    this.bucket = options.bucket;
    this.partSize = options.partSize ?? DEFAULT_PART_SIZE;
    this.queueSize = options.queueSize ?? 4;
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials: options.accessKeyId && options.secretAccessKey ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } : undefined,
      // Checksums only where S3 requires them: the newer default (CRC32 on every request, aws-chunked bodies) is not
      // understood by every S3-compatible store.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
      requestHandler: { connectionTimeout: 5_000 },
    });
  }

  private objectKey(key: string): string {
    assertBlobKey(key);
    return S3_KEY_PREFIX + key;
  }

  async put(key: string, source: Readable | Uint8Array, opts: { maxBytes?: number } = {}): Promise<StoredBlob> {
    const Key = this.objectKey(key);
    const max = opts.maxBytes ?? Number.POSITIVE_INFINITY;
    const hash = createHash('sha256');
    let size = 0;
    let tooLarge = false;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > max) {
          tooLarge = true;
          return done(new BlobTooLargeError(max));
        }
        hash.update(chunk);
        done(null, chunk);
      },
    });
    const input = source instanceof Readable ? source : Readable.from([Buffer.from(source.buffer, source.byteOffset, source.byteLength)]);
    // The upload reads the meter; an error on either side ends both (and reaches the upload through the meter).
    const flowing = pipeline(input, meter).catch(() => {});
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key, Body: meter, ContentType: 'application/octet-stream' },
      partSize: this.partSize,
      queueSize: this.queueSize,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
      meter.destroy();
      await flowing;
      // Aborting a multipart upload may itself fail (a store without AbortMultipartUpload): the limit is the reason.
      if (tooLarge) throw new BlobTooLargeError(max);
      throw err;
    }
    return { size, sha256: hash.digest('hex') };
  }

  async get(key: string, range?: BlobRange): Promise<Readable> {
    try {
      const res = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      );
      const body = res.Body as Readable;
      if (!range) return body;
      // Some S3-compatible stores serve more than asked (s3rver reads `bytes=0-0` as `bytes=0-`; others ignore Range):
      // the caller gets exactly the range, whatever the store sent.
      const served = /^bytes (\d+)-(\d+)\//.exec(res.ContentRange ?? '');
      const servedStart = served ? Number(served[1]) : 0;
      const servedEnd = served ? Number(served[2]) : Number.POSITIVE_INFINITY;
      if (servedStart === range.start && servedEnd === range.end) return body;
      return slice(body, range.start - servedStart, range.end - range.start + 1);
    } catch (err) {
      if (isMissingObject(err)) throw new BlobNotFoundError(key);
      throw err;
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return { size: head.ContentLength ?? 0 };
    } catch (err) {
      if (isMissingObject(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    // S3 answers a delete of a missing object with 204, like one of an existing object.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  async *listBefore(before: Date): AsyncIterable<string> {
    await this.abortUploadsStartedBefore(before);
    let ContinuationToken: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: S3_KEY_PREFIX, ContinuationToken }));
      for (const object of page.Contents ?? []) {
        if (!object.Key || !object.LastModified || object.LastModified >= before) continue;
        const key = object.Key.slice(S3_KEY_PREFIX.length);
        if (isBlobKey(key)) yield key;
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  /**
   * Partial writes abandoned: multipart uploads begun before `before` and never completed (a crash mid-upload) hold
   * storage until aborted. A store that cannot list uploads (NotImplemented) has none to abort.
   */
  private async abortUploadsStartedBefore(before: Date): Promise<number> {
    let aborted = 0;
    let KeyMarker: string | undefined;
    let UploadIdMarker: string | undefined;
    for (;;) {
      let page: ListMultipartUploadsCommandOutput;
      try {
        page = await this.client.send(new ListMultipartUploadsCommand({ Bucket: this.bucket, Prefix: S3_KEY_PREFIX, KeyMarker, UploadIdMarker }));
      } catch (err) {
        if ((err as { name?: string }).name === 'NotImplemented') return aborted;
        throw err;
      }
      for (const upload of page.Uploads ?? []) {
        if (!upload.Key || !upload.UploadId || !upload.Initiated || upload.Initiated >= before) continue;
        await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: upload.Key, UploadId: upload.UploadId }));
        aborted++;
      }
      if (!page.IsTruncated) return aborted;
      KeyMarker = page.NextKeyMarker;
      UploadIdMarker = page.NextUploadIdMarker;
    }
  }

  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  close(): void {
    this.client.destroy();
  }
}

/** `take` bytes of `source` after skipping `skip`; the rest of the source is not read. */
function slice(source: Readable, skip: number, take: number): Readable {
  let offset = 0;
  const out = new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (offset >= skip + take) return done();
      const from = Math.max(0, skip - offset);
      const to = Math.min(chunk.length, skip + take - offset);
      offset += chunk.length;
      if (to > from) this.push(chunk.subarray(from, to));
      if (offset >= skip + take) {
        this.push(null);
        source.destroy();
      }
      done();
    },
  });
  source.on('error', (err) => out.destroy(err));
  return source.pipe(out);
}

/** A missing object (GetObject's NoSuchKey, HeadObject's bodiless 404); a missing bucket is a configuration error, not this. */
function isMissingObject(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  if (e?.name === 'NoSuchKey' || e?.name === 'NotFound') return true;
  return e?.$metadata?.httpStatusCode === 404 && e?.name !== 'NoSuchBucket';
}

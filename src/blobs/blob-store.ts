import type { Readable } from 'node:stream';

/**
 * Where attachment bytes live: a small interface so that the disk store (the default, under DATA_DIR) and an
 * S3-compatible store fit behind it. Keys are made by the service (an attachment id), never taken from user input.
 */
export interface BlobStore {
  /**
   * Stores the bytes under `key`, hashing them on the way; the blob appears whole or not at all. Rejects with
   * `BlobTooLargeError` (and stores nothing) once more than `maxBytes` arrive.
   */
  put(key: string, source: Readable | Uint8Array, opts?: { maxBytes?: number }): Promise<StoredBlob>;
  /**
   * A stream of the bytes, or of `range` (inclusive byte offsets, as in an HTTP Range header, already checked against
   * the blob's size by the caller); rejects with `BlobNotFoundError` for an unknown key.
   */
  get(key: string, range?: BlobRange): Promise<Readable>;
  /** The blob's size, or `null` when there is none under `key` (a resumable copy skips blobs already there). */
  stat(key: string): Promise<{ size: number } | null>;
  /** Removes the blob; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /**
   * The keys of the blobs last written before `before` (in no order). Partial writes abandoned before `before` (a
   * crash mid-upload) are removed on the way.
   */
  listBefore(before: Date): AsyncIterable<string>;
  /** Resolves when the store can be read and written (readiness checks); rejects with the reason otherwise. */
  check(): Promise<void>;
  /** Releases connections (a command that is done with the store); the store is not used afterwards. */
  close?(): void;
}

/** Bytes `start` to `end` of a blob, both inclusive. */
export interface BlobRange {
  start: number;
  end: number;
}

export interface StoredBlob {
  size: number;
  /** SHA-256 of the bytes, lower-case hex. */
  sha256: string;
}

export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`Blob is larger than ${maxBytes} bytes`);
    this.name = 'BlobTooLargeError';
  }
}

export class BlobNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`Blob ${key} not found`);
    this.name = 'BlobNotFoundError';
  }
}

/** Keys are service-made ids: letters, digits, `-` and `_`, so they are safe as file names and object keys. */
const KEY = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function isBlobKey(key: string): boolean {
  return KEY.test(key);
}

export function assertBlobKey(key: string): void {
  if (!isBlobKey(key)) throw new Error(`Invalid blob key: ${JSON.stringify(key)}`);
}

/** Deletes several blobs, logging instead of failing (callers run this after a commit, when nothing can be undone). */
export async function deleteBlobs(store: BlobStore, keys: string[], log?: { warn: (obj: object, msg: string) => void }): Promise<void> {
  for (const key of keys) {
    try {
      await store.delete(key);
    } catch (err) {
      log?.warn({ err, key }, 'could not delete blob');
    }
  }
}

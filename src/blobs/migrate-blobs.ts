import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Db } from '../db/index.js';
import { type BlobReference, blobReferencesRepo } from './blob-references.repo.js';
import { BlobNotFoundError, type BlobStore } from './blob-store.js';

export interface MigrateBlobsOptions {
  db: Db;
  source: BlobStore;
  target: BlobStore;
  /** Remove each blob from the source once the target holds it (off by default: the source stays a fallback). */
  deleteSource?: boolean;
  /** Also hash a blob already in the target before skipping it (reads it whole); by default the size must match. */
  verify?: boolean;
  /** Blobs copied at once. */
  concurrency?: number;
  onProgress?: (progress: MigrateProgress) => void;
}

export interface MigrateProgress {
  /** Blobs the database refers to, counted at the start. */
  total: number;
  copied: number;
  /** Already in the target with the right size (and hash, with `verify`). */
  skipped: number;
  failed: number;
  /** Bytes copied (skipped blobs not counted). */
  bytes: number;
}

export interface MigrateResult extends MigrateProgress {
  failures: { key: string; reason: string }[];
}

const PAGE = 500;

/**
 * Copies every blob the database refers to from `source` to `target`, resumably: a blob the target already holds with
 * the recorded size is skipped, so a second run after an interruption (or after new uploads) copies only what is
 * missing. A copy whose size or SHA-256 differs from the record is removed again and reported as failed, as is a blob
 * missing from the source. Nothing is deleted from the source unless `deleteSource` is set.
 */
export async function migrateBlobs(options: MigrateBlobsOptions): Promise<MigrateResult> {
  const { db, source, target, deleteSource = false, verify = false, onProgress } = options;
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const result: MigrateResult = { total: await blobReferencesRepo.count(db), copied: 0, skipped: 0, failed: 0, bytes: 0, failures: [] };
  const report = () => onProgress?.({ total: result.total, copied: result.copied, skipped: result.skipped, failed: result.failed, bytes: result.bytes });

  const handle = async (ref: BlobReference) => {
    try {
      const outcome = await moveOne(ref, source, target, verify);
      if (outcome === 'skipped') result.skipped++;
      else {
        result.copied++;
        result.bytes += ref.size;
      }
      if (deleteSource) await source.delete(ref.key);
    } catch (err) {
      result.failed++;
      result.failures.push({ key: ref.key, reason: err instanceof Error ? err.message : String(err) });
    }
    report();
  };

  let after = '';
  for (;;) {
    const refs = await blobReferencesRepo.page(db, after, PAGE);
    if (refs.length === 0) break;
    after = refs[refs.length - 1].key;
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(concurrency, refs.length) }, async () => {
        while (next < refs.length) await handle(refs[next++]);
      }),
    );
    if (refs.length < PAGE) break;
  }
  return result;
}

async function moveOne(ref: BlobReference, source: BlobStore, target: BlobStore, verify: boolean): Promise<'copied' | 'skipped'> {
  const there = await target.stat(ref.key);
  if (there && there.size === ref.size) {
    if (!verify || !ref.sha256) return 'skipped';
    if ((await sha256Of(await target.get(ref.key))) === ref.sha256) return 'skipped';
  }
  let bytes: Readable;
  try {
    bytes = await source.get(ref.key);
  } catch (err) {
    if (err instanceof BlobNotFoundError) throw new Error('missing from the source store');
    throw err;
  }
  const stored = await target.put(ref.key, bytes);
  const mismatch =
    stored.size !== ref.size
      ? `size ${stored.size} differs from the recorded ${ref.size}`
      : ref.sha256 && stored.sha256 !== ref.sha256
        ? `SHA-256 ${stored.sha256} differs from the recorded ${ref.sha256}`
        : null;
  if (mismatch) {
    await target.delete(ref.key);
    throw new Error(`the copy was removed: its ${mismatch}`);
  }
  return 'copied';
}

async function sha256Of(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

import path from 'node:path';
import type { Config } from '../config.js';
import type { BlobStore } from './blob-store.js';
import { DiskBlobStore } from './disk-blob-store.js';

export * from './blob-store.js';
export { DiskBlobStore } from './disk-blob-store.js';

/** The service's blob store: files under `DATA_DIR/blobs`. */
export function createBlobStore(config: Pick<Config, 'DATA_DIR'>): BlobStore {
  return new DiskBlobStore(path.resolve(config.DATA_DIR, 'blobs'));
}

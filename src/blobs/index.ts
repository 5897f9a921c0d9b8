import path from 'node:path';
import type { Config } from '../config.js';
import type { BlobStore } from './blob-store.js';
import { DiskBlobStore } from './disk-blob-store.js';
import { S3BlobStore } from './s3-blob-store.js';

export * from './blob-store.js';
export { DiskBlobStore } from './disk-blob-store.js';
export { S3_KEY_PREFIX, S3BlobStore } from './s3-blob-store.js';

export type BlobStoreSettings = Pick<
  Config,
  'DATA_DIR' | 'STORAGE_DRIVER' | 'S3_ENDPOINT' | 'S3_BUCKET' | 'S3_REGION' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY' | 'S3_FORCE_PATH_STYLE'
>;

/**
 * The service's blob store, as STORAGE_DRIVER says: files under `DATA_DIR/blobs` (`disk`, the default) or objects in
 * an S3-compatible bucket (`s3`). Settings that cannot work are refused here, at start-up, not at the first upload.
 */
export function createBlobStore(config: Pick<Config, 'DATA_DIR'> & Partial<BlobStoreSettings>): BlobStore {
  if (config.STORAGE_DRIVER !== 's3') return new DiskBlobStore(path.resolve(config.DATA_DIR, 'blobs'));
  if (!config.S3_BUCKET) throw new Error('Invalid configuration: STORAGE_DRIVER=s3 needs S3_BUCKET (the bucket that holds attachment blobs)');
  if (Boolean(config.S3_ACCESS_KEY_ID) !== Boolean(config.S3_SECRET_ACCESS_KEY))
    throw new Error('Invalid configuration: set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (to use the AWS default credential chain)');
  return new S3BlobStore({
    bucket: config.S3_BUCKET,
    region: config.S3_REGION ?? 'us-east-1',
    endpoint: config.S3_ENDPOINT,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
  });
}

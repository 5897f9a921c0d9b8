import { describe, expect, it } from 'vitest';
import { createBlobStore, DiskBlobStore, S3BlobStore } from '../../src/blobs/index.js';
import { loadConfig } from '../../src/config.js';
import { createServiceEnv } from '../../src/env.js';

/** STORAGE_DRIVER and S3_*: the store they pick, and settings that cannot work refused at start-up with a clear reason. */

const env = (extra: Record<string, string>) => loadConfig({ DATA_DIR: '/tmp/kb-settings-test', JWT_SECRET: 'test-secret-test-secret-test-secret', ...extra });

describe('blob store settings', () => {
  it('uses the disk store under DATA_DIR/blobs by default', () => {
    const store = createBlobStore(env({}));
    expect(store).toBeInstanceOf(DiskBlobStore);
    expect((store as DiskBlobStore).root).toBe('/tmp/kb-settings-test/blobs');
  });

  it('uses one S3 client per store, with the bucket, endpoint and path style given', async () => {
    const store = createBlobStore(
      env({
        STORAGE_DRIVER: 's3',
        S3_BUCKET: 'kb',
        S3_ENDPOINT: 'http://minio:9000',
        S3_REGION: 'auto',
        S3_FORCE_PATH_STYLE: 'true',
        S3_ACCESS_KEY_ID: 'a',
        S3_SECRET_ACCESS_KEY: 'b',
      }),
    ) as S3BlobStore;
    try {
      expect(store).toBeInstanceOf(S3BlobStore);
      expect(store.bucket).toBe('kb');
      expect(await store.client.config.region()).toBe('auto');
      expect(store.client.config.forcePathStyle).toBe(true);
      expect(await store.client.config.credentials()).toMatchObject({ accessKeyId: 'a', secretAccessKey: 'b' });
    } finally {
      store.close();
    }
  });

  it('refuses STORAGE_DRIVER=s3 without S3_BUCKET, or with only one of the two keys, at start-up', () => {
    expect(() => createServiceEnv(env({ STORAGE_DRIVER: 's3' }))).toThrow('Invalid configuration: STORAGE_DRIVER=s3 needs S3_BUCKET');
    expect(() => createBlobStore(env({ STORAGE_DRIVER: 's3', S3_BUCKET: 'kb', S3_ACCESS_KEY_ID: 'a' }))).toThrow(
      /set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither/,
    );
    expect(() => createBlobStore(env({ STORAGE_DRIVER: 's3', S3_BUCKET: 'kb', S3_SECRET_ACCESS_KEY: 'b' }))).toThrow(/set both/);
    expect(() => env({ STORAGE_DRIVER: 'ftp' })).toThrow(/STORAGE_DRIVER/);
  });
});

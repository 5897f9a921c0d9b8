import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { Config } from '../../src/config.js';

/** s3rver's fixed credentials (it refuses other access key ids; it does not verify SigV4 signatures). */
const ACCESS_KEY = 'S3RVER';

export interface TestS3 {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  bucket: string;
  /** The settings that point the service at this store (strings, as in the environment). */
  config: {
    STORAGE_DRIVER: 's3';
    S3_ENDPOINT: string;
    S3_BUCKET: string;
    S3_REGION: string;
    S3_ACCESS_KEY_ID: string;
    S3_SECRET_ACCESS_KEY: string;
    S3_FORCE_PATH_STYLE: 'true';
  };
  /** The same settings, typed, for `createTestApp(overrides)` (which takes parsed values). */
  overrides: Partial<Config>;
  stop(): Promise<void>;
}

let buckets = 0;

/**
 * An S3-protocol server (s3rver) on 127.0.0.1 and a free port, over a fresh temporary folder, with one empty bucket.
 * It speaks the S3 REST protocol over HTTP, so the service's S3 client is tested through the requests it would send to AWS.
 */
export async function startS3(): Promise<TestS3> {
  const directory = mkdtempSync(path.join(tmpdir(), 'kb-s3-'));
  const bucket = `kb-test-${process.pid}-${++buckets}`;
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const config = {
    STORAGE_DRIVER: 's3',
    S3_ENDPOINT: endpoint,
    S3_BUCKET: bucket,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: ACCESS_KEY,
    S3_SECRET_ACCESS_KEY: ACCESS_KEY,
    S3_FORCE_PATH_STYLE: 'true',
  } as const;
  return {
    endpoint,
    bucket,
    config,
    overrides: { ...config, S3_FORCE_PATH_STYLE: true },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

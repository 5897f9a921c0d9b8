import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { type BlobStore, createBlobStore } from '../../src/blobs/index.js';
import { loadConfig } from '../../src/config.js';
import { migrateToLatest, openDatabase } from '../../src/db/index.js';
import { runKb } from '../cli/run-cli.js';
import { requester, type TestApp } from '../helpers/app.js';
import { workspaceWithRoles } from '../helpers/factories.js';
import { startS3, type TestS3 } from '../helpers/s3.js';
import { createPage, createSpace } from '../spaces/helpers.js';

/**
 * `kb storage migrate`, run for real (bin/kb.js as a child process) against an embedded database under a temporary
 * DATA_DIR whose attachments were uploaded on disk, into s3rver.
 */

let s3: TestS3;
let dataDir: string;
let env: Record<string, string>;
let bucket: BlobStore;
const ids: string[] = [];
const slow = { timeout: 180_000 };

beforeAll(async () => {
  s3 = await startS3();
  dataDir = mkdtempSync(path.join(tmpdir(), 'kb-cli-storage-'));
  env = { DATA_DIR: dataDir, DATABASE_URL: '', JWT_SECRET: 'test-secret-test-secret-test-secret', ...s3.config, STORAGE_DRIVER: 'disk' };
  bucket = createBlobStore({ DATA_DIR: dataDir, ...s3.overrides });
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', JWT_SECRET: env.JWT_SECRET });
  const database = await openDatabase({ dataDir: path.join(dataDir, 'pgdata') });
  await migrateToLatest(database.db);
  const app = await buildApp({ config, database, logger: false });
  try {
    const t = { request: requester(app) } as TestApp;
    const { workspace, admin, editor } = await workspaceWithRoles(t);
    const space = await createSpace(t, admin, workspace.id, { name: 'Files' });
    const page = await createPage(t, editor, workspace.id, space.id, 'With files');
    for (const text of ['one', 'two', 'three']) {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/attachments',
        token: editor.token,
        body: { workspaceId: workspace.id, pageId: page.id, filename: `${text}.txt`, contentType: 'text/plain', data: Buffer.from(text).toString('base64') },
      });
      expect(res.status).toBe(201);
      ids.push(res.body.data.id);
    }
  } finally {
    await app.close();
    await database.close();
  }
}, 180_000);

afterAll(async () => {
  bucket?.close?.();
  await s3?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('kb storage migrate', slow, () => {
  it('copies the blobs to S3, then copies nothing on a second run', async () => {
    const first = await runKb(['storage', 'migrate', '--to', 's3'], { env });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe('disk → s3: 3/3 done: 3 copied, 0 skipped, 0 failed, 11 B\n');
    expect(first.stderr).toContain('3/3 done: 3 copied, 0 skipped, 0 failed, 11 B');
    for (const [i, text] of ['one', 'two', 'three'].entries()) expect((await buffer(await bucket.get(ids[i]))).toString()).toBe(text);

    const second = await runKb(['storage', 'migrate', '--to', 's3'], { env });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe('disk → s3: 3/3 done: 0 copied, 3 skipped, 0 failed, 0 B\n');
  });

  it('exits 1 listing the blobs it could not copy', async () => {
    // A blob lost from both stores: copying back from S3 to disk finds it missing from the source (the others are there).
    await bucket.delete(ids[0]);
    await createBlobStore({ DATA_DIR: dataDir }).delete(ids[0]);
    const back = await runKb(['storage', 'migrate', '--to', 'disk'], { env });
    expect(back.code).toBe(1);
    expect(back.stdout).toBe('s3 → disk: 3/3 done: 0 copied, 2 skipped, 1 failed, 0 B\n');
    expect(back.stderr).toContain(`  ${ids[0]}: missing from the source store\n`);
    expect(back.stderr).toContain('error: 1 blob(s) could not be migrated (listed above)');
  });

  it('refuses settings that cannot work, with a message and exit code 1', async () => {
    const same = await runKb(['storage', 'migrate', '--to', 's3', '--from', 's3'], { env });
    expect([same.code, same.stderr]).toEqual([1, 'error: --from and --to are both s3: nothing to migrate\n']);
    const noBucket = await runKb(['storage', 'migrate', '--to', 's3'], { env: { ...env, S3_BUCKET: '' } });
    expect(noBucket.code).toBe(1);
    expect(noBucket.stderr).toContain('error: Invalid configuration: STORAGE_DRIVER=s3 needs S3_BUCKET');
    const wrongBucket = await runKb(['storage', 'migrate', '--to', 's3'], { env: { ...env, S3_BUCKET: 'no-such-bucket' } });
    expect(wrongBucket.code).toBe(1);
    expect(wrongBucket.stderr).toContain('error: the s3 store cannot be used: ');
    expect(wrongBucket.stderr).toContain('HTTP 404');
    const badDriver = await runKb(['storage', 'migrate', '--to', 'ftp'], { env });
    expect(badDriver.code).toBe(1);
    expect(badDriver.stderr).toContain("argument 'ftp' is invalid");
  });
});

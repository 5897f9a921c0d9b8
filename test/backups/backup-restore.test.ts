import { copyFileSync, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackupError } from '../../src/backups/backup.errors.js';
import { openBackup } from '../../src/backups/backup.read.js';
import { restoreBackup } from '../../src/backups/backup.restore.js';
import { type BackupProgress, writeBackup } from '../../src/backups/backup.write.js';
import { checkTool } from '../../src/backups/pg-tools.js';
import { createBlobStore } from '../../src/blobs/index.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { databaseUrlOf, emptyTarget, expectAllBack, type Seeded, seed } from './helpers.js';

/**
 * A backup of a database seeded over HTTP, restored into a fresh data folder (or a new database on the server) and
 * a fresh blob store, then read back over HTTP by an app on the restored database: every page, version, task,
 * attachment byte and user. Also what a restore refuses: a non-empty target, a truncated or damaged archive.
 */

let t: TestApp;
let seeded: Seeded;
let work: string;
let archive: string;
let databaseUrl: string | undefined;
const progress: BackupProgress[] = [];
const slow = { timeout: 120_000 };

beforeAll(async () => {
  t = await createTestApp();
  seeded = await seed(t);
  databaseUrl = await databaseUrlOf(t.database);
  work = mkdtempSync(path.join(tmpdir(), 'kb-backup-'));
  archive = path.join(work, 'backup.zip');
}, 120_000);
afterAll(async () => {
  await t?.close();
  rmSync(work, { recursive: true, force: true });
});

/** A zip of the given files (for archives that are not kb backups). */
async function zipOf(file: string, files: Record<string, string>) {
  const zip = new ZipFile();
  for (const [name, text] of Object.entries(files)) zip.addBuffer(Buffer.from(text), name);
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(file));
}

const source = () => ({ db: t.database.db, databaseUrl, blobs: createBlobStore(t.config), path: t.config.PATH });

describe('kb backup', () => {
  it('writes one archive: the database dump, every blob stored as is, and a manifest that counts them', slow, async () => {
    const manifest = await writeBackup(source(), archive, { onProgress: (p) => progress.push(p) });
    expect(statSync(archive).size).toBeGreaterThan(300_000);
    expect(() => statSync(`${archive}.partial`)).toThrow();
    expect(manifest).toMatchObject({
      format: 'kb-backup',
      formatVersion: 1,
      database: { kind: databaseUrl ? 'postgres' : 'pglite', lastMigration: expect.stringMatching(/^\d{4}_/) },
      counts: { users: 3, pages: 3, pageVersions: 2 + 3 + 4, tasks: 3, attachments: 3 },
      missingBlobs: [],
    });
    expect(manifest.blobs.map((b) => [b.size, b.sha256]).sort()).toEqual(seeded.attachments.map((a) => [a.size, a.sha256]).sort());
    // what the archive says of itself, read back
    const opened = await openBackup(archive);
    expect(opened.manifest).toEqual(manifest);
    opened.close();
    // progress: the dump's size, then blobs counted up to all of them
    expect(progress.find((p) => p.phase === 'database' && p.done)).toMatchObject({ bytes: manifest.database.size });
    expect(progress.filter((p) => p.phase === 'blobs').at(-1)).toEqual({ phase: 'blobs', done: 3, total: 3, bytes: 301_000 });
  });

  it('lists a blob deleted from the store since the dump as missing, and still completes', slow, async () => {
    const store = createBlobStore(t.config);
    const extra = await t.request({
      method: 'POST',
      url: '/api/v1/attachments',
      token: seeded.users[1].token,
      body: {
        pageId: seeded.pages[0].id,
        workspaceId: seeded.workspaceId,
        filename: 'gone.txt',
        contentType: 'text/plain',
        data: Buffer.from('gone').toString('base64'),
      },
    });
    expect(extra.status).toBe(201);
    await store.delete(extra.body.data.id);
    const warnings: string[] = [];
    const manifest = await writeBackup(source(), path.join(work, 'missing.zip'), { onProgress: (p) => p.phase === 'warning' && warnings.push(p.message) });
    expect(manifest.missingBlobs).toEqual([extra.body.data.id]);
    expect(manifest.blobs).toHaveLength(3);
    expect(warnings).toEqual([expect.stringContaining(extra.body.data.id)]);
    expect((await t.request({ method: 'DELETE', url: `/api/v1/attachments/${extra.body.data.id}`, token: seeded.users[1].token })).status).toBe(200);
  });

  it('says what to install when pg_dump is missing', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'kb-nopath-'));
    try {
      if (databaseUrl) {
        const file = path.join(work, 'nopgdump.zip');
        const err = await writeBackup({ ...source(), path: empty }, file).catch((e) => e);
        expect(err).toBeInstanceOf(BackupError);
        expect(err.message).toMatch(/pg_dump was not found on PATH[\s\S]*postgresql-client-\d+/);
        expect(() => statSync(file)).toThrow();
        expect(() => statSync(`${file}.partial`)).toThrow();
      } else {
        // the embedded database needs no pg_dump; the check a server backup makes is the same function
        await expect(checkTool('pg_dump', { PATH: empty }, 15)).rejects.toThrow(/pg_dump was not found on PATH[\s\S]*postgresql-client-15/);
      }
      await expect(checkTool('pg_restore', { PATH: empty }, 16)).rejects.toThrow(/pg_restore was not found[\s\S]*postgresql-client-16/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('kb restore', () => {
  it('brings back every page, version, attachment byte, task and user, into an empty target', slow, async () => {
    const target = await emptyTarget();
    try {
      const restored: string[] = [];
      const result = await restoreBackup(
        archive,
        { databaseUrl: target.databaseUrl, pgdataDir: target.pgdataDir, blobs: target.blobs, path: t.config.PATH },
        (p) => restored.push(`${p.phase}`),
      );
      expect(result.migrations).toEqual([]); // same version: nothing to migrate
      expect(restored).toContain('blobs');
      const app = await target.open();
      try {
        await expectAllBack(app.request, app.app, seeded);
        // the restored service works on: a new page in the restored workspace
        const login = await app.request({ method: 'POST', url: '/api/v1/auth/login', body: { email: seeded.users[1].email, password: 'correct-horse' } });
        const page = await app.request({ url: `/api/v1/pages/${seeded.pages[0].id}`, token: login.body.data.token });
        const created = await app.request({
          method: 'POST',
          url: '/api/v1/pages',
          token: login.body.data.token,
          body: { workspaceId: seeded.workspaceId, spaceId: page.body.data.spaceId, title: 'After the restore', markdown: 'new' },
        });
        expect(created.status).toBe(201);
      } finally {
        await app.close();
      }
      // a second restore into what is now a full target is refused, and changes nothing
      const again = await restoreBackup(archive, {
        databaseUrl: target.databaseUrl,
        pgdataDir: target.pgdataDir,
        blobs: target.blobs,
        path: t.config.PATH,
      }).catch((e) => e);
      expect(again).toBeInstanceOf(BackupError);
      expect(again.message).toMatch(
        target.databaseUrl ? /already holds \d+ tables: restore into a new, empty database/ : /is not empty: restore into a new DATA_DIR/,
      );
    } finally {
      await target.drop();
    }
  });

  it('refuses a truncated archive, a damaged blob, and a file that is no backup, leaving the target empty', slow, async () => {
    const target = await emptyTarget();
    const to = { databaseUrl: target.databaseUrl, pgdataDir: target.pgdataDir, blobs: target.blobs, path: t.config.PATH };
    try {
      const truncated = path.join(work, 'truncated.zip');
      copyFileSync(archive, truncated);
      truncateSync(truncated, Math.floor(statSync(archive).size / 2));
      await expect(restoreBackup(truncated, to)).rejects.toThrow(/is not a readable backup archive .*truncated or damaged/);

      // one byte changed inside the largest blob: its size still matches, its hash does not
      const damaged = path.join(work, 'damaged.zip');
      const bytes = readFileSync(archive);
      const big = (await openBackup(archive)).manifest.blobs.find((b) => b.size === 300_000)!;
      const at = bytes.indexOf(Buffer.from(`blobs/${big.key}`)) + `blobs/${big.key}`.length + 1000;
      bytes[at] ^= 0xff;
      writeFileSync(damaged, bytes);
      await expect(restoreBackup(damaged, to)).rejects.toThrow(new RegExp(`blob ${big.key} is damaged`));

      const notZip = path.join(work, 'notes.zip');
      writeFileSync(notZip, 'just some text, not a zip');
      await expect(restoreBackup(notZip, to)).rejects.toThrow(/not a readable backup archive/);
      await expect(restoreBackup(path.join(work, 'nope.zip'), to)).rejects.toThrow(/does not exist/);
      const future = path.join(work, 'future.zip');
      await zipOf(future, { 'manifest.json': JSON.stringify({ format: 'kb-backup', formatVersion: 2 }) });
      await expect(restoreBackup(future, to)).rejects.toThrow(/kb backup of format 2; this kb reads format 1: restore it with the kb version that wrote it/);
      const foreign = path.join(work, 'foreign.zip');
      await zipOf(foreign, { 'readme.txt': 'hello' });
      await expect(restoreBackup(foreign, to)).rejects.toThrow(/holds no manifest.json: it is not a kb backup/);

      // none of those left a database behind: the good archive still restores into the same target
      await restoreBackup(archive, to);
    } finally {
      await target.drop();
    }
  });

  it('refuses a backup of the other kind of database', slow, async () => {
    const target = await emptyTarget();
    try {
      const other = databaseUrl
        ? { databaseUrl: undefined, pgdataDir: target.pgdataDir } // a server's backup into the embedded database
        : { databaseUrl: 'postgres://nobody@127.0.0.1:1/none', pgdataDir: target.pgdataDir }; // never reached: refused first
      const err = await restoreBackup(archive, { ...other, blobs: target.blobs, path: t.config.PATH }).catch((e) => e);
      expect(err).toBeInstanceOf(BackupError);
      expect(err.message).toMatch(databaseUrl ? /backup is of a PostgreSQL server/ : /backup is of the embedded database \(PGlite\)/);
    } finally {
      await target.drop();
    }
  });
});

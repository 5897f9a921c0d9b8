import { readdir } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { uploadsFolder } from '../../src/areas/imports/imports.upload.js';
import { createBlobStore } from '../../src/blobs/index.js';
import type { TestApp } from '../helpers/app.js';
import { createSpace } from '../spaces/helpers.js';
import { type ImportSuite, importFile, importSuite, makeZip, PNG, postImport, readAttachments, readTree, waitForImport } from './helpers.js';

/**
 * Uploads an attacker or a broken tool would send. Each is refused with its reason in the error shape (at upload
 * when the zip's directory shows it, else by the job) and leaves nothing behind: no pages, no blobs, no temp files.
 */

const suite = importSuite({
  IMPORT_MAX_BYTES: 200_000,
  IMPORT_MAX_ENTRIES: 50,
  IMPORT_MAX_UNPACKED_BYTES: 3_000_000,
  IMPORT_MAX_DEPTH: 8,
  MAX_PAGE_BYTES: 100_000,
  MAX_ATTACHMENT_BYTES: 50_000,
});
let t: TestApp;
let ws: ImportSuite['ws'];
let space: { id: string; slug: string };

beforeAll(async () => {
  ({ t, ws } = suite);
  space = await createSpace(t, ws.admin, ws.workspace.id, { name: 'Target' });
});

const target = () => ({ workspaceId: ws.workspace.id, spaceId: space.id });

/** A zip whose entry `placeholder` is renamed to `name` (same length) in its local and central headers: yazl refuses to write such names. */
async function zipWithRawName(placeholder: string, name: string, body = 'x') {
  expect(name.length).toBe(placeholder.length);
  const zip = await makeZip({ [placeholder]: body, 'ok.md': 'fine' });
  return Buffer.from(zip.toString('latin1').replaceAll(placeholder, name), 'latin1');
}

async function blobCount() {
  let n = 0;
  for await (const _ of createBlobStore(t.config).listBefore(new Date(Date.now() + 3600_000))) n++;
  return n;
}

/** Temporary upload files left (a job removes its own just after recording its outcome: waited for a moment). */
async function tempFiles() {
  const until = Date.now() + 5000;
  for (;;) {
    const n = await readdir(uploadsFolder(t.config.DATA_DIR)).then(
      (f) => f.length,
      () => 0,
    );
    if (n === 0 || Date.now() > until) return n;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function expectNothingLeft(blobsBefore: number) {
  expect(await readTree(t, ws.editor, ws.workspace.id, space.id)).toEqual([]);
  expect(await blobCount()).toBe(blobsBefore);
}

async function expectRefused(file: { bytes: Buffer; filename: string }, status: number, reason: string) {
  const blobs = await blobCount();
  const res = await postImport(t, ws.editor, target(), file);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'file', reason } });
  expect(res.body.error.message.length).toBeGreaterThan(10);
  await expectNothingLeft(blobs);
  return res.body.error;
}

/** Accepted at upload, failed by the job: the import's `error` says why, and nothing is left. */
async function expectFailedImport(file: { bytes: Buffer; filename: string }, reason: string) {
  const blobs = await blobCount();
  const res = await postImport(t, ws.editor, target(), file);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  const done = await waitForImport(t, ws.editor, res.body.data.id);
  expect(done.status).toBe('failed');
  expect(done.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { reason } });
  expect(done.result).toBeNull();
  await expectNothingLeft(blobs);
  return done.error!;
}

describe('imports: bad uploads', () => {
  it('refuses zip-slip paths: ../ and absolute', async () => {
    const up = await expectRefused({ bytes: await zipWithRawName('xx/evil.md', '../evil.md'), filename: 'a.zip' }, 422, 'unsafe_path');
    expect(up.message).toMatch(/outside/);
    await expectRefused({ bytes: await zipWithRawName('aetc/x.md', '/etc/x.md'), filename: 'a.zip' }, 422, 'unsafe_path');
    await expectRefused({ bytes: await zipWithRawName('a/b/xx/y.md', 'a/b/../../y.md'.slice(0, 11)), filename: 'a.zip' }, 422, 'unsafe_path');
  });

  it('refuses zip bombs: too many entries, too much unpacked, a suspicious ratio', async () => {
    const many = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`p${i}.md`, 'x']));
    const err = await expectRefused({ bytes: await makeZip(many), filename: 'many.zip' }, 422, 'too_many_entries');
    expect(err.details.limit).toBe(50);
    // Four entries under 1 MB each (too small for the ratio rule), 3.6 MB in all against a limit of 3 MB.
    const big = Object.fromEntries(['a', 'b', 'c', 'd'].map((c) => [`${c}.md`, c.repeat(900_000)]));
    await expectRefused({ bytes: await makeZip(big), filename: 'big.zip' }, 422, 'too_large_unpacked');
    await expectRefused({ bytes: await makeZip({ 'zeros.md': Buffer.alloc(2_500_000) }), filename: 'bomb.zip' }, 422, 'compression_ratio');
  });

  it('refuses nesting deeper than the limit', async () => {
    const deep = `${Array.from({ length: 9 }, (_, i) => `d${i}`).join('/')}/page.md`;
    await expectRefused({ bytes: await makeZip({ [deep]: 'deep' }), filename: 'deep.zip' }, 422, 'too_deep');
  });

  it('refuses files that are not what they claim, and text that is not UTF-8', async () => {
    await expectRefused({ bytes: Buffer.from('not a zip at all'), filename: 'fake.zip' }, 422, 'type_mismatch');
    await expectRefused({ bytes: PNG, filename: 'picture.png' }, 422, 'unsupported_file');
    await expectRefused({ bytes: Buffer.from([0x48, 0x69, 0xff, 0xfe, 0x00]), filename: 'latin.md' }, 422, 'invalid_utf8');
    await expectRefused({ bytes: Buffer.alloc(0), filename: 'empty.md' }, 422, 'empty');
    const inside = await expectFailedImport({ bytes: await makeZip({ 'a.md': 'fine', 'b.md': Buffer.from([0xc3, 0x28]) }), filename: 'x.zip' }, 'invalid_utf8');
    expect(inside.details.path).toBe('b.md');
    // The first file is stored before the second is found too large: all-or-nothing deletes it again.
    const { randomBytes } = await import('node:crypto');
    const late = await expectFailedImport(
      {
        bytes: await makeZip({ 'a.md': '![ok](ok.png)\n\n[data](big.bin)', 'ok.png': PNG, 'big.bin': randomBytes(60_000) }, { compress: false }),
        filename: 'x.zip',
      },
      'too_large',
    );
    expect(late.details).toMatchObject({ path: 'big.bin', limit: 50_000 });
  });

  it('keeps a file whose bytes are not what its name says as a download, with a warning', async () => {
    const done = await importFile(t, ws.editor, target(), {
      bytes: await makeZip({ 'a.md': '![ok](ok.png)\n\n![bad](bad.png)', 'ok.png': PNG, 'bad.png': Buffer.from('<svg onload=alert(1)>') }),
      filename: 'x.zip',
    });
    expect(done.warnings).toEqual([
      { path: 'bad.png', message: 'named as image/png but its bytes are not that; kept as a download (application/octet-stream)' },
    ]);
    const files = await readAttachments(t, ws.editor, ws.workspace.id, done.result!.rootPageIds[0]);
    expect(files.map((f) => [f.filename, f.contentType])).toEqual([
      ['ok.png', 'image/png'],
      ['bad.png', 'application/octet-stream'],
    ]);
    const raw = await t.app.inject({ url: `/api/v1/attachments/${files[1].id}/download`, headers: { authorization: `Bearer ${ws.editor.token}` } });
    expect(raw.headers['content-disposition']).toMatch(/^attachment/);
    await t.request({ method: 'DELETE', url: `/api/v1/pages/${done.result!.rootPageIds[0]}`, token: ws.editor.token });
  });

  it('refuses an upload over IMPORT_MAX_BYTES with 413, multipart and JSON alike', async () => {
    const { randomBytes } = await import('node:crypto');
    await expectRefused(
      { bytes: await makeZip({ 'a.md': 'x', 'noise.bin': randomBytes(250_000) }, { compress: false }), filename: 'big.zip' },
      413,
      'too_large',
    );
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/imports',
      token: ws.editor.token,
      body: { ...target(), filename: 'big.md', data: Buffer.alloc(210_000, 'a').toString('base64') },
    });
    expect(res.status).toBe(413);
    expect(res.body.error.details).toMatchObject({ reason: 'too_large' });
    expect(await tempFiles()).toBe(0);
  });

  it('fails a page larger than MAX_PAGE_BYTES once converted, naming it', async () => {
    // 8 KB of Markdown, a list of 2,000 items: about 160 KB as a document, against MAX_PAGE_BYTES 100 KB here.
    const err = await expectFailedImport({ bytes: await makeZip({ 'ok.md': 'fine', 'huge.md': '- a\n'.repeat(2_000) }), filename: 'x.zip' }, 'too_large');
    expect(err.details.path).toBe('huge.md');
  });
});

describe('imports: who may import', () => {
  it('needs editor rights in the space, a live parent in it, and shows an import only to its requester', async () => {
    const zip = await makeZip({ 'a.md': 'x' });
    const viewer = await postImport(t, ws.viewer, target(), { bytes: zip, filename: 'a.zip' });
    expect(viewer.status).toBe(403);
    // As creating a page there would answer.
    const outsider = await postImport(t, ws.outsider, target(), { bytes: zip, filename: 'a.zip' });
    const page = await t.request({ method: 'POST', url: '/api/v1/pages', token: ws.outsider.token, body: { ...target(), title: 'x', markdown: 'x' } });
    expect(outsider.status).toBe(page.status);
    expect(outsider.body.error.code).toBe(page.body.error.code);
    const noParent = await postImport(t, ws.editor, { ...target(), parentPageId: '01a20e8f-0000-7000-8000-000000000000' }, { bytes: zip, filename: 'a.zip' });
    expect(noParent.status).toBe(404);
    const badSource = await postImport(t, ws.editor, { ...target(), source: 'wordperfect' }, { bytes: zip, filename: 'a.zip' });
    expect(badSource.status).toBe(422);
    const ok = await postImport(t, ws.editor, target(), { bytes: zip, filename: 'a.zip' });
    expect(ok.status).toBe(202);
    expect((await t.request({ url: `/api/v1/imports/${ok.body.data.id}`, token: ws.admin.token })).status).toBe(404);
    const done = await waitForImport(t, ws.editor, ok.body.data.id);
    expect(done.status).toBe('succeeded');
  });
});

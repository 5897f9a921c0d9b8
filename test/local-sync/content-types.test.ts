import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { workspaceWithRoles } from '../helpers/factories.js';
import { push, type SyncClient, setupSource, sha, syncClient, upsert } from './helpers.js';

/** contentType is the file's MIME type (or the words text/binary); the encoding of `content` follows from it. */
let t: TestApp;
let sync: SyncClient;
beforeAll(async () => {
  t = await createTestApp();
  const w = await workspaceWithRoles(t);
  sync = syncClient(t, w.editor, w.workspace.id);
});
afterAll(async () => {
  await t.close();
});

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);
const binaryItem = (relativePath: string, bytes: Buffer, contentType: string) => ({
  operationId: randomUUID(),
  relativePath,
  content: bytes.toString('base64'),
  contentType,
  contentHash: sha(bytes),
});

describe('MIME content types', () => {
  it('accepts MIME types, decides text or Base64 from them, stores them and answers them on every read', async () => {
    const { sourceId } = await setupSource(sync);
    const results = await push(sync, sourceId, [
      upsert('a.md', '# Title\n', null, { contentType: 'text/markdown' }),
      binaryItem('img.png', PNG, 'image/png'),
      upsert('data.json', '{"a":1}', null, { contentType: 'application/json' }),
      upsert('api.json', '{"b":2}', null, { contentType: 'application/vnd.api+json' }),
      upsert('pic.svg', '<svg/>', null, { contentType: 'image/svg+xml' }),
      upsert('feed.xml', '<x/>', null, { contentType: 'application/xml' }),
      upsert('notes.txt', 'plain', null, { contentType: 'Text/Plain; charset=UTF-8' }),
      upsert('old.txt', 'word', null, { contentType: 'text' }),
      binaryItem('old.bin', PNG, 'binary'),
      binaryItem('doc.pdf', Buffer.from('%PDF-1.4'), 'application/pdf'),
    ]);
    expect(results.map((r) => r.status)).toEqual(Array(10).fill('applied'));
    const stored = {
      'a.md': 'text/markdown',
      'img.png': 'image/png',
      'data.json': 'application/json',
      'api.json': 'application/vnd.api+json',
      'pic.svg': 'image/svg+xml',
      'feed.xml': 'application/xml',
      'notes.txt': 'text/plain',
      'old.txt': 'text',
      'old.bin': 'binary',
      'doc.pdf': 'application/pdf',
    };
    const files = (await sync('sources/files', { sourceId })).body.files;
    expect(Object.fromEntries(files.map((f: any) => [f.relativePath, f.contentType]))).toEqual(stored);

    const md = await sync('sources/file', { sourceId, relativePath: 'a.md' });
    expect(md.status).toBe(200);
    expect(md.body).toMatchObject({ contentType: 'text/markdown', content: '# Title\n', size: 8 });
    const png = await sync('sources/file', { sourceId, relativePath: 'img.png' });
    expect(png.body).toMatchObject({ contentType: 'image/png', content: PNG.toString('base64'), size: PNG.length });
    expect((await sync('sources/file', { sourceId, relativePath: 'pic.svg', contentHash: sha('<svg/>') })).body).toMatchObject({
      contentType: 'image/svg+xml',
      content: '<svg/>',
    });

    const events = (await sync('sources/deltas', { sourceId, includeContent: true })).body.events;
    const byPath = Object.fromEntries(events.map((e: any) => [e.relativePath, e]));
    expect(Object.fromEntries(events.map((e: any) => [e.relativePath, e.contentType]))).toEqual(stored);
    expect(byPath['a.md'].content).toBe('# Title\n');
    expect(byPath['img.png'].content).toBe(PNG.toString('base64'));
    expect(byPath['api.json'].content).toBe('{"b":2}');
    expect(byPath['pic.svg'].content).toBe('<svg/>');
    expect(byPath['feed.xml'].content).toBe('<x/>');
    expect(byPath['notes.txt'].content).toBe('plain');
    expect(byPath['old.bin'].content).toBe(PNG.toString('base64'));
    expect(byPath['doc.pdf'].content).toBe(Buffer.from('%PDF-1.4').toString('base64'));

    const history = await sync('sources/history', { sourceId, relativePath: 'img.png' });
    expect(history.body.versions[0]).toMatchObject({ contentType: 'image/png', size: PNG.length });
  });

  it('refuses what is not a MIME type (422) and Base64-typed content that is not Base64 (per item)', async () => {
    const { sourceId } = await setupSource(sync);
    for (const contentType of ['rtf', 'text/', '/plain', 'text plain/x', 'a/b/c', 'x'.repeat(300)]) {
      const res = await sync('sources/push-batch', { sourceId, items: [upsert('a.md', 'x', null, { contentType })] });
      expect(res.status, contentType).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'items.0.contentType' } });
    }
    const [bad] = await push(sync, sourceId, [upsert('a.png', 'not base64!', null, { contentType: 'image/png' })]);
    expect(bad).toMatchObject({ status: 'rejected', error: { field: 'content', reason: 'invalid_base64' } });
    const upd = await sync('sources/file/update', { sourceId, relativePath: 'b.md', content: 'x', contentType: 'markdown' });
    expect(upd.status).toBe(422);
    expect((await sync('sources/files', { sourceId })).body.files).toEqual([]);
  });

  it('service edits, conflicts, previews and resolutions carry MIME types', async () => {
    const { sourceId, connectorId } = await setupSource(sync);
    await push(sync, sourceId, [upsert('n.md', 'one\ntwo\nthree\n', null, { contentType: 'text/markdown' })], connectorId);
    const edit = await sync('sources/file/update', {
      sourceId,
      relativePath: 'n.md',
      content: 'ONE\ntwo\nthree\n',
      contentType: 'text/markdown',
      baseHash: sha('one\ntwo\nthree\n'),
    });
    expect(edit.body).toMatchObject({ status: 'ok', file: { contentType: 'text/markdown' } });
    const [c] = await push(sync, sourceId, [upsert('n.md', 'one\ntwo\nTHREE\n', sha('one\ntwo\nthree\n'), { contentType: 'text/markdown' })], connectorId);
    expect(c.status).toBe('conflict');
    const conflicts = (await sync('sources/conflicts', { sourceId })).body.conflicts;
    expect(conflicts[0]).toMatchObject({ localContentType: 'text/markdown', serviceContentType: 'text/markdown' });
    const preview = (await sync('sources/conflicts/preview', { conflictId: c.conflictId })).body;
    expect(preview).toMatchObject({ binary: false, mergeable: true, merged: 'ONE\ntwo\nTHREE\n', base: { contentType: 'text/markdown' } });
    expect(preview.local.lines).toEqual(['one', 'two', 'THREE']);
    const resolved = await sync('sources/conflicts/resolve', {
      conflictId: c.conflictId,
      resolution: 'manual_merge',
      resolvedContent: preview.merged,
      contentType: 'text/markdown',
      connectorId,
    });
    expect(resolved.status).toBe(200);
    expect(resolved.body.file).toMatchObject({ contentType: 'text/markdown', contentHash: sha('ONE\ntwo\nTHREE\n') });

    // An image conflict is binary in the preview: Base64 sides, no line view.
    await push(sync, sourceId, [binaryItem('p.png', PNG, 'image/png')], connectorId);
    const other = Buffer.from([1, 2, 3]);
    await sync('sources/file/update', { sourceId, relativePath: 'p.png', content: other.toString('base64'), contentType: 'image/png', baseHash: sha(PNG) });
    const [ic] = await push(sync, sourceId, [{ ...binaryItem('p.png', Buffer.from([9]), 'image/png'), baseHash: sha(PNG) }], connectorId);
    const ip = (await sync('sources/conflicts/preview', { conflictId: ic.conflictId })).body;
    expect(ip).toMatchObject({
      binary: true,
      hunks: [],
      mergeable: false,
      service: { contentType: 'image/png', content: other.toString('base64'), lines: [] },
    });
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unsafePathReason } from '../../src/cli/sync/paths.js';
import { workspaceWithRoles } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { push, remove, type SyncClient, setupSource, sha, syncClient, upsert } from './helpers.js';

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

const files = async (sourceId: string) => (await sync('sources/files', { sourceId, includeDeleted: true })).body.files;
const events = async (sourceId: string) => (await sync('sources/deltas', { sourceId, limit: 1000 })).body.events;

describe('push-batch', () => {
  it('applies upserts and deletes in order; results carry the path and hashes', async () => {
    const { sourceId, connectorId } = await setupSource(sync);
    const a = upsert('notes/a.md', '# A\n');
    const results = await push(sync, sourceId, [a, upsert('b.txt', 'b'), remove('b.txt', sha('b')), upsert('c/d.md', 'cd')], connectorId);
    expect(results.map((r) => [r.operationId, r.relativePath, r.status])).toEqual([
      [a.operationId, 'notes/a.md', 'applied'],
      [expect.any(String), 'b.txt', 'applied'],
      [expect.any(String), 'b.txt', 'applied'],
      [expect.any(String), 'c/d.md', 'applied'],
    ]);
    expect(results[0]).toMatchObject({ contentHash: sha('# A\n'), conflictId: null, serviceHash: null, error: null });
    expect(results[2]).toMatchObject({ contentHash: null, serviceHash: sha('b') });
    expect((await files(sourceId)).map((f: any) => [f.relativePath, f.deleted, f.version])).toEqual([
      ['b.txt', true, 2],
      ['c/d.md', false, 1],
      ['notes/a.md', false, 1],
    ]);
    expect((await events(sourceId)).map((e: any) => [e.type, e.relativePath, e.connectorId])).toEqual([
      ['file.upsert', 'notes/a.md', connectorId],
      ['file.upsert', 'b.txt', connectorId],
      ['file.delete', 'b.txt', connectorId],
      ['file.upsert', 'c/d.md', connectorId],
    ]);
    const got = await sync('sources/file', { sourceId, relativePath: 'notes/a.md' });
    expect(got.body).toMatchObject({ content: '# A\n', contentHash: sha('# A\n'), size: 4, contentType: 'text', version: 1, updatedBy: { connectorId } });
    const gone = await sync('sources/file', { sourceId, relativePath: 'b.txt' });
    expect(gone.status).toBe(410);
    expect(gone.body.error.code).toBe('DELETED');
    expect((await sync('sources/file', { sourceId, relativePath: 'nothing.md' })).status).toBe(404);
  });

  it('is idempotent by operationId: a replay answers duplicate and changes nothing', async () => {
    const { sourceId } = await setupSource(sync);
    const item = upsert('x.md', 'v1');
    const [first] = await push(sync, sourceId, [item]);
    expect(first.status).toBe('applied');
    const before = await events(sourceId);
    const replay = await push(sync, sourceId, [item, { ...item, content: 'other', contentHash: sha('other') }]);
    expect(replay.map((r) => r.status)).toEqual(['duplicate', 'duplicate']);
    expect(replay[0]).toMatchObject({ originalStatus: 'applied', contentHash: sha('v1'), operationId: item.operationId });
    expect(await events(sourceId)).toEqual(before);
    expect((await files(sourceId))[0]).toMatchObject({ contentHash: sha('v1'), version: 1 });
    // The same id twice in one batch: the second is a duplicate.
    const twice = upsert('y.md', 'y');
    expect((await push(sync, sourceId, [twice, twice])).map((r) => r.status)).toEqual(['applied', 'duplicate']);
    // Operation ids are per source.
    const other = await setupSource(sync);
    expect((await push(sync, other.sourceId, [item]))[0].status).toBe('applied');
  });

  it('answers unchanged for identical bytes and for deleting what is gone', async () => {
    const { sourceId } = await setupSource(sync);
    await push(sync, sourceId, [upsert('u.md', 'same')]);
    const r = await push(sync, sourceId, [upsert('u.md', 'same', 'e'.repeat(64)), remove('never.md', null)]);
    expect(r.map((x) => x.status)).toEqual(['unchanged', 'unchanged']);
    expect(r[0]).toMatchObject({ contentHash: sha('same'), serviceHash: sha('same') });
    expect(await events(sourceId)).toHaveLength(1);
  });

  it('checks contentHash against the bytes: a mismatch refuses that item only (422 in its result)', async () => {
    const { sourceId } = await setupSource(sync);
    const results = await push(sync, sourceId, [
      { ...upsert('bad.md', 'content'), contentHash: sha('different') },
      upsert('good.md', 'fine'),
      { ...upsert('upper.md', 'UP'), contentHash: sha('UP').toUpperCase() },
    ]);
    expect(results[0]).toMatchObject({
      status: 'rejected',
      relativePath: 'bad.md',
      conflictId: null,
      error: { status: 422, code: 'VALIDATION_ERROR', field: 'contentHash', reason: 'mismatch' },
    });
    expect(results[0].error.message).toContain(sha('content'));
    expect(results[1].status).toBe('applied');
    expect(results[2]).toMatchObject({ status: 'applied', contentHash: sha('UP') });
    expect((await files(sourceId)).map((f: any) => f.relativePath)).toEqual(['good.md', 'upper.md']);
    // A refused item is not recorded: the corrected retry with the same operationId applies.
    const fixed = await push(sync, sourceId, [{ ...upsert('bad.md', 'content'), operationId: results[0].operationId }]);
    expect(fixed[0].status).toBe('applied');
  });

  it('stores binary content (Base64) byte for byte', async () => {
    const { sourceId } = await setupSource(sync);
    const bytes = Buffer.from([0, 255, 1, 254, 0x89, 0x50, 0x4e, 0x47, 0, 0]);
    const [r] = await push(sync, sourceId, [
      { operationId: randomUUID(), relativePath: 'img.png', contentType: 'binary', content: bytes.toString('base64'), contentHash: sha(bytes) },
    ]);
    expect(r).toMatchObject({ status: 'applied', contentHash: sha(bytes) });
    const got = await sync('sources/file', { sourceId, relativePath: 'img.png' });
    expect(got.body).toMatchObject({ contentType: 'binary', size: 10 });
    expect(Buffer.from(got.body.content, 'base64').equals(bytes)).toBe(true);
    const bad = await push(sync, sourceId, [
      { operationId: randomUUID(), relativePath: 'x.bin', contentType: 'binary', content: 'not base64!', contentHash: sha('x') },
    ]);
    expect(bad[0]).toMatchObject({ status: 'rejected', error: { field: 'content', reason: 'invalid_base64' } });
  });

  it('normalises paths to NFC and refuses unsafe ones with 422 per item (empty and "." segments too, as the connector does)', async () => {
    const { sourceId } = await setupSource(sync);
    const decomposed = 'cafe\u0301.md';
    const [nfc] = await push(sync, sourceId, [upsert(decomposed, 'x')]);
    expect(nfc).toMatchObject({ status: 'applied', relativePath: 'caf\u00e9.md' });
    const cases: [string, string][] = [
      ['../escape.md', 'parent_segment'],
      ['a/../../b.md', 'parent_segment'],
      ['/etc/passwd', 'absolute'],
      ['C:/Windows/x', 'absolute'],
      ['dir\\file.md', 'backslash'],
      ['tab\there', 'control_character'],
      ['dir/', 'directory'],
      ['.', 'dot_segment'],
      ['./c.md', 'dot_segment'],
      ['a/./b.md', 'dot_segment'],
      ['c//d.md', 'empty_segment'],
      [`${'a'.repeat(1025)}`, 'too_long'],
      [`${'é'.repeat(513)}`, 'too_long'],
      ['.kb-sync/state.json', 'reserved'],
    ];
    const results = await push(
      sync,
      sourceId,
      cases.map(([p]) => upsert(p, 'x')),
    );
    results.forEach((r, i) => {
      expect(r, cases[i][0]).toMatchObject({
        status: 'rejected',
        relativePath: cases[i][0],
        error: { status: 422, field: 'relativePath', reason: cases[i][1] },
      });
    });
    // The connector refuses the very same paths with the same reasons (one shared rule).
    expect(cases.map(([p]) => unsafePathReason(p))).toEqual(cases.map(([, reason]) => reason));
    expect((await push(sync, sourceId, [upsert('a'.repeat(1024), 'ok')]))[0].status).toBe('applied');
    // NUL anywhere in a body string is refused for the whole request by the validator.
    const nul = await sync('sources/push-batch', { sourceId, items: [upsert('a\u0000b', 'x')] });
    expect(nul.status).toBe(422);
    // Elsewhere an unsafe path is a 422 for the request.
    const read = await sync('sources/file', { sourceId, relativePath: '../x' });
    expect(read.status).toBe(422);
    expect(read.body.error.details).toMatchObject({ field: 'relativePath', reason: 'parent_segment' });
    expect((await sync('sources/file/update', { sourceId, relativePath: '/abs', content: 'x' })).status).toBe(422);
    expect((await sync('sources/history', { sourceId, relativePath: 'a\\b' })).status).toBe(422);
  });

  it('enforces include and exclude globs', async () => {
    const { sourceId } = await setupSource(sync, 'bidirectional', { includePatterns: ['**/*.md', '*.txt'], excludePatterns: ['drafts/**', '**/.obsidian/**'] });
    const results = await push(sync, sourceId, [
      upsert('notes/deep/a.md', 'a'),
      upsert('top.txt', 't'),
      upsert('nested/x.txt', 'x'),
      upsert('image.png', 'p'),
      upsert('drafts/wip.md', 'w'),
      upsert('vault/.obsidian/config.md', 'c'),
      upsert('.hidden.md', 'h'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['applied', 'applied', 'rejected', 'rejected', 'rejected', 'rejected', 'applied']);
    expect(results[3].error).toMatchObject({ status: 422, field: 'relativePath', reason: 'excluded_by_pattern' });
    const upd = await sync('sources/file/update', { sourceId, relativePath: 'drafts/x.md', content: 'x' });
    expect(upd.status).toBe(422);
    expect(upd.body.error.details.reason).toBe('excluded_by_pattern');
  });

  it('refuses bad batches as a whole with the error shape', async () => {
    const { sourceId } = await setupSource(sync);
    const many = Array.from({ length: 501 }, (_, i) => upsert(`f${i}.md`, 'x'));
    const cases: [unknown, number][] = [
      [{ sourceId, items: [] }, 422],
      [{ sourceId, items: many }, 422],
      [{ sourceId }, 400],
      [{ sourceId, items: 'x' }, 422],
      [{ sourceId, items: [{ relativePath: 'a.md', content: 'x' }] }, 400],
      [{ sourceId, items: [{ ...upsert('a.md', 'x'), contentType: 'rtf' }] }, 422],
      [{ sourceId: 'missing', items: [upsert('a.md', 'x')] }, 404],
      [{ sourceId, connectorId: 'missing', items: [upsert('a.md', 'x')] }, 404],
    ];
    for (const [body, status] of cases) {
      const res = await sync('sources/push-batch', body);
      expect(res.status, JSON.stringify(body).slice(0, 100)).toBe(status);
      expect(res.body.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
    // Missing content/hash on an upsert, or malformed hashes: refused per item.
    const r = await push(sync, sourceId, [
      { operationId: randomUUID(), relativePath: 'n.md', contentHash: sha('x') },
      { operationId: randomUUID(), relativePath: 'n.md', content: 'x' },
      { ...upsert('n.md', 'x'), contentHash: 'abc' },
      upsert('n.md', 'x', 'not-a-hash'),
    ]);
    expect(r.map((x) => [x.status, x.error.field, x.error.reason])).toEqual([
      ['rejected', 'content', 'required'],
      ['rejected', 'contentHash', 'required'],
      ['rejected', 'contentHash', 'invalid'],
      ['rejected', 'baseHash', 'invalid'],
    ]);
    expect(await files(sourceId)).toEqual([]);
    // 500 items are fine.
    const full = await push(sync, sourceId, many.slice(0, 500));
    expect(full.every((x) => x.status === 'applied')).toBe(true);
  });

  it('a stale baseHash opens a conflict that keeps both versions and the base', async () => {
    const { sourceId, connectorId } = await setupSource(sync);
    const [v1] = await push(sync, sourceId, [upsert('doc.md', 'base\n')]);
    const [v2] = await push(sync, sourceId, [upsert('doc.md', 'service\n', v1.contentHash)]);
    expect(v2.status).toBe('applied');
    const [c] = await push(sync, sourceId, [upsert('doc.md', 'local\n', v1.contentHash)], connectorId);
    expect(c).toMatchObject({ status: 'conflict', contentHash: sha('local\n'), serviceHash: sha('service\n') });
    expect(c.conflictId).toBeTypeOf('string');
    const file = await sync('sources/file', { sourceId, relativePath: 'doc.md' });
    expect(file.body).toMatchObject({ content: 'service\n', conflictId: c.conflictId, version: 2 });
    const list = (await sync('sources/conflicts', { sourceId })).body.conflicts;
    expect(list).toEqual([
      {
        conflictId: c.conflictId,
        sourceId,
        relativePath: 'doc.md',
        localHash: sha('local\n'),
        serviceHash: sha('service\n'),
        baseHash: sha('base\n'),
        localContentType: 'text',
        serviceContentType: 'text',
        origin: 'push',
        connectorId,
        createdAt: expect.any(String),
      },
    ]);
    // All three contents are kept.
    for (const content of ['base\n', 'local\n', 'service\n']) {
      const got = await sync('sources/file', { sourceId, relativePath: 'doc.md', contentHash: sha(content) });
      expect(got.body.content).toBe(content);
    }
    const ev = (await events(sourceId)).at(-1);
    expect(ev).toMatchObject({
      type: 'conflict.opened',
      conflictId: c.conflictId,
      localHash: sha('local\n'),
      serviceHash: sha('service\n'),
      baseHash: sha('base\n'),
    });
    // While open, a further push of the path replaces the local side (same conflict, no new event).
    const [again] = await push(sync, sourceId, [upsert('doc.md', 'local 2\n', sha('service\n'))]);
    expect(again).toMatchObject({ status: 'conflict', conflictId: c.conflictId });
    expect((await sync('sources/conflicts', { sourceId })).body.conflicts[0].localHash).toBe(sha('local 2\n'));
    expect((await events(sourceId)).at(-1).cursor).toBe(ev.cursor);
  });

  it('conflicts also arise from creating an existing path, deleting a changed file, and editing a deleted one', async () => {
    const { sourceId } = await setupSource(sync);
    await push(sync, sourceId, [upsert('a.md', 'a1'), upsert('b.md', 'b1'), upsert('c.md', 'c1')]);
    await push(sync, sourceId, [upsert('b.md', 'b2', sha('b1')), remove('c.md', sha('c1'))]);
    const r = await push(sync, sourceId, [upsert('a.md', 'mine', null), remove('b.md', sha('b1')), upsert('c.md', 'c-edit', sha('c1'))]);
    expect(r.map((x) => x.status)).toEqual(['conflict', 'conflict', 'conflict']);
    const list = (await sync('sources/conflicts', { sourceId })).body.conflicts;
    expect(list.map((c: any) => [c.relativePath, c.localHash, c.serviceHash, c.baseHash])).toEqual([
      ['a.md', sha('mine'), sha('a1'), null],
      ['b.md', null, sha('b2'), sha('b1')],
      ['c.md', sha('c-edit'), null, sha('c1')],
    ]);
  });

  it('records every version in history, newest first, contents stored once per hash', async () => {
    const { sourceId, connectorId } = await setupSource(sync);
    const [v1] = await push(sync, sourceId, [upsert('h.md', 'one')], connectorId);
    const [v2] = await push(sync, sourceId, [upsert('h.md', 'two', v1.contentHash)]);
    const u = await sync('sources/file/update', { sourceId, relativePath: 'h.md', content: 'one', baseHash: v2.contentHash });
    expect(u.body.status).toBe('ok');
    await push(sync, sourceId, [remove('h.md', sha('one'))], connectorId);
    const h = await sync('sources/history', { sourceId, relativePath: 'h.md' });
    expect(h.status).toBe(200);
    expect(h.body.versions.map((v: any) => [v.contentHash, v.size, v.deleted, v.origin, v.connectorId])).toEqual([
      [null, 0, true, 'push', connectorId],
      [sha('one'), 3, false, 'update', null],
      [sha('two'), 3, false, 'push', null],
      [sha('one'), 3, false, 'push', connectorId],
    ]);
    expect(h.body.versions[0].userId).toBeTypeOf('string');
    expect(h.body.hasMore).toBe(false);
    const blobs = await t.database.db
      .selectFrom('syncBlobs')
      .select('hash')
      .where('hash', 'in', [sha('one'), sha('two')])
      .execute();
    expect(blobs).toHaveLength(2);
    const paged = await sync('sources/history', { sourceId, relativePath: 'h.md', limit: 3 });
    expect(paged.body).toMatchObject({ hasMore: true });
    const rest = await sync('sources/history', { sourceId, relativePath: 'h.md', limit: 3, cursor: paged.body.nextCursor });
    expect(rest.body.versions).toHaveLength(1);
    expect((await sync('sources/history', { sourceId, relativePath: 'none.md' })).status).toBe(404);
  });

  it('pages the file list by cursor', async () => {
    const { sourceId } = await setupSource(sync);
    await push(
      sync,
      sourceId,
      Array.from({ length: 7 }, (_, i) => upsert(`p/${i}.md`, `${i}`)),
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: any = await sync('sources/files', { sourceId, limit: 3, cursor });
      expect(res.status).toBe(200);
      seen.push(...res.body.files.map((f: any) => f.relativePath));
      cursor = res.body.hasMore ? res.body.nextCursor : null;
    } while (cursor);
    expect(seen).toEqual(['p/0.md', 'p/1.md', 'p/2.md', 'p/3.md', 'p/4.md', 'p/5.md', 'p/6.md']);
    expect((await sync('sources/files', { sourceId, cursor: '!!' })).status).toBe(422);
    expect((await sync('sources/files', { sourceId, limit: 0 })).status).toBe(422);
    expect((await sync('sources/files', { sourceId, limit: 1001 })).status).toBe(422);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceWithRoles } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { push, remove, type SyncClient, setupSource, sha, syncClient, upsert } from './helpers.js';

let t: TestApp;
let sync: SyncClient;
let w: Awaited<ReturnType<typeof workspaceWithRoles>>;
beforeAll(async () => {
  t = await createTestApp();
  w = await workspaceWithRoles(t);
  sync = syncClient(t, w.editor, w.workspace.id);
});
afterAll(async () => {
  await t.close();
});

async function allEvents(sourceId: string, extra: Record<string, unknown> = {}) {
  const out: any[] = [];
  let cursor: string | undefined;
  for (;;) {
    const res = await sync('sources/deltas', { sourceId, cursor, ...extra });
    expect(res.status).toBe(200);
    out.push(...res.body.events);
    cursor = res.body.nextCursor;
    if (!res.body.hasMore) return { events: out, cursor };
  }
}

describe('deltas', () => {
  it('returns one total order with cursors, limit, nextCursor and hasMore', async () => {
    const { sourceId } = await setupSource(sync);
    await push(
      sync,
      sourceId,
      Array.from({ length: 25 }, (_, i) => upsert(`f${String(i).padStart(2, '0')}.md`, `${i}`)),
    );
    const first = await sync('sources/deltas', { sourceId, limit: 10 });
    expect(first.body.events).toHaveLength(10);
    expect(first.body.hasMore).toBe(true);
    expect(first.body.nextCursor).toBe(first.body.events[9].cursor);
    const all = await allEvents(sourceId, { limit: 10 });
    expect(all.events.map((e) => e.relativePath)).toEqual(Array.from({ length: 25 }, (_, i) => `f${String(i).padStart(2, '0')}.md`));
    const cursors = all.events.map((e) => Number(e.cursor));
    expect([...cursors].sort((a, b) => a - b)).toEqual(cursors);
    expect(new Set(cursors).size).toBe(25);
    // Default limit 100; polling at the end returns nothing and keeps the cursor.
    expect((await sync('sources/deltas', { sourceId })).body.events).toHaveLength(25);
    const end = await sync('sources/deltas', { sourceId, cursor: all.cursor });
    expect(end.body).toEqual({ events: [], nextCursor: all.cursor, hasMore: false });
    for (const [body, status] of [
      [{ sourceId, limit: 0 }, 422],
      [{ sourceId, limit: 1001 }, 422],
      [{ sourceId, limit: 'ten' }, 422],
      [{ sourceId, cursor: 'garbage' }, 422],
      [{ sourceId: 'nope' }, 404],
      [{}, 400],
    ] as const) {
      const res = await sync('sources/deltas', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
    }
    expect((await sync('sources/deltas', { sourceId, limit: 1000 })).status).toBe(200);
  });

  it('shows service edits, resolutions and other connectors’ pushes; a connector can leave out its own events', async () => {
    const { sourceId, connectorId: mine } = await setupSource(sync);
    const other = (await sync('connectors/register', { name: 'desktop', platform: 'win32', version: '1' })).body.connectorId;
    await push(sync, sourceId, [upsert('a.md', 'a1')], mine);
    await push(sync, sourceId, [upsert('b.md', 'b1')], other);
    await sync('sources/file/update', { sourceId, relativePath: 'a.md', content: 'a2', baseHash: sha('a1') });
    const [c] = await push(sync, sourceId, [upsert('a.md', 'a-local', sha('a1'))], mine);
    await sync('sources/conflicts/resolve', { conflictId: c.conflictId, resolution: 'keep_local', connectorId: mine });
    await push(sync, sourceId, [remove('b.md', sha('b1'))], other);

    const all = (await allEvents(sourceId)).events;
    expect(all.map((e) => [e.type, e.relativePath, e.connectorId])).toEqual([
      ['file.upsert', 'a.md', mine],
      ['file.upsert', 'b.md', other],
      ['file.upsert', 'a.md', null],
      ['conflict.opened', 'a.md', mine],
      ['file.upsert', 'a.md', mine],
      ['conflict.resolved', 'a.md', mine],
      ['file.delete', 'b.md', other],
    ]);
    const filtered = await allEvents(sourceId, { excludeConnectorId: mine });
    expect(filtered.events.map((e) => [e.type, e.relativePath])).toEqual([
      ['file.upsert', 'b.md'],
      ['file.upsert', 'a.md'],
      ['file.delete', 'b.md'],
    ]);
    expect(filtered.cursor).toBe(all.at(-1).cursor);
    // Own events at the end are skipped by the cursor too.
    await push(sync, sourceId, [upsert('z.md', 'z')], mine);
    const tail = await sync('sources/deltas', { sourceId, cursor: filtered.cursor, excludeConnectorId: mine });
    expect(tail.body.events).toEqual([]);
    expect(Number(tail.body.nextCursor)).toBeGreaterThan(Number(filtered.cursor));

    // Payloads.
    expect(all[0]).toEqual({
      cursor: expect.any(String),
      type: 'file.upsert',
      sourceId,
      relativePath: 'a.md',
      contentHash: sha('a1'),
      contentType: 'text',
      size: 2,
      conflictId: null,
      localHash: null,
      serviceHash: null,
      baseHash: null,
      resolution: null,
      connectorId: mine,
      userId: w.editor.id,
      createdAt: expect.any(String),
    });
    expect(all[5]).toMatchObject({
      conflictId: c.conflictId,
      resolution: 'keep_local',
      contentHash: sha('a-local'),
      localHash: sha('a-local'),
      serviceHash: sha('a2'),
      baseHash: sha('a1'),
    });
    expect(all[6]).toMatchObject({ contentHash: null });
    const withContent = await sync('sources/deltas', { sourceId, includeContent: true, limit: 3 });
    expect(withContent.body.events.map((e: any) => e.content)).toEqual(['a1', 'b1', 'a2']);
  });

  it('orders events from concurrent writers into one sequence', async () => {
    const { sourceId } = await setupSource(sync);
    await Promise.all(
      Array.from({ length: 5 }, (_, k) =>
        push(
          sync,
          sourceId,
          Array.from({ length: 10 }, (_, i) => upsert(`w${k}/${i}.md`, `${k}${i}`)),
        ),
      ),
    );
    const events = (await allEvents(sourceId, { limit: 7 })).events;
    expect(events).toHaveLength(50);
    // Each batch's events are consecutive and in item order.
    for (let b = 0; b < 5; b++) {
      const slice = events.slice(b * 10, b * 10 + 10).map((e) => e.relativePath);
      const k = slice[0].slice(1, 2);
      expect(slice).toEqual(Array.from({ length: 10 }, (_, i) => `w${k}/${i}.md`));
    }
  });
});

describe('conflicts', () => {
  async function conflictOn(content: { base: string; service: string; local: string }) {
    const { sourceId, connectorId } = await setupSource(sync);
    await push(sync, sourceId, [upsert('doc.md', content.base)]);
    await sync('sources/file/update', { sourceId, relativePath: 'doc.md', content: content.service, baseHash: sha(content.base) });
    const [c] = await push(sync, sourceId, [upsert('doc.md', content.local, sha(content.base))], connectorId);
    expect(c.status).toBe('conflict');
    return { sourceId, connectorId, conflictId: c.conflictId as string };
  }

  it('previews a non-overlapping conflict with a proposed automatic merge', async () => {
    const { conflictId } = await conflictOn({ base: 'one\ntwo\nthree\nfour\n', local: 'ONE\ntwo\nthree\nfour\n', service: 'one\ntwo\nthree\nFOUR\n' });
    const p = await sync('sources/conflicts/preview', { conflictId });
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({
      conflictId,
      relativePath: 'doc.md',
      status: 'open',
      binary: false,
      base: { contentHash: sha('one\ntwo\nthree\nfour\n'), lines: ['one', 'two', 'three', 'four'] },
      local: { content: 'ONE\ntwo\nthree\nfour\n' },
      service: { content: 'one\ntwo\nthree\nFOUR\n' },
      clashes: 0,
      mergeable: true,
      merged: 'ONE\ntwo\nthree\nFOUR\n',
    });
    expect(p.body.hunks).toEqual([
      { kind: 'local', baseStart: 1, baseLines: ['one'], localStart: 1, localLines: ['ONE'], serviceStart: 1, serviceLines: ['one'] },
      { kind: 'service', baseStart: 4, baseLines: ['four'], localStart: 4, localLines: ['four'], serviceStart: 4, serviceLines: ['FOUR'] },
    ]);
  });

  it('previews clashing hunks without a merge', async () => {
    const { conflictId } = await conflictOn({ base: 'a\nb\nc\n', local: 'a\nLOCAL\nc\n', service: 'a\nSERVICE\nc\n' });
    const p = await sync('sources/conflicts/preview', { conflictId });
    expect(p.body).toMatchObject({ clashes: 1, mergeable: false, merged: null });
    expect(p.body.hunks).toEqual([
      { kind: 'clash', baseStart: 2, baseLines: ['b'], localStart: 2, localLines: ['LOCAL'], serviceStart: 2, serviceLines: ['SERVICE'] },
    ]);
    expect((await sync('sources/conflicts/preview', { conflictId: 'missing' })).status).toBe(404);
  });

  it('resolves keep_local: writes the local version and emits events', async () => {
    const { sourceId, conflictId } = await conflictOn({ base: 'b\n', local: 'l\n', service: 's\n' });
    const r = await sync('sources/conflicts/resolve', { conflictId, resolution: 'keep_local' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ conflictId, relativePath: 'doc.md', resolution: 'keep_local', status: 'resolved', contentHash: sha('l\n'), deleted: false });
    expect(r.body.file).toMatchObject({ contentHash: sha('l\n'), conflictId: null, version: 3 });
    expect((await sync('sources/file', { sourceId, relativePath: 'doc.md' })).body.content).toBe('l\n');
    expect((await sync('sources/conflicts', { sourceId })).body.conflicts).toEqual([]);
    const ev = (await allEvents(sourceId)).events.slice(-2);
    expect(ev.map((e) => [e.type, e.conflictId])).toEqual([
      ['file.upsert', conflictId],
      ['conflict.resolved', conflictId],
    ]);
    const h = (await sync('sources/history', { sourceId, relativePath: 'doc.md' })).body.versions[0];
    expect(h).toMatchObject({ origin: 'resolve', conflictId, contentHash: sha('l\n') });
    const again = await sync('sources/conflicts/resolve', { conflictId, resolution: 'keep_service' });
    expect(again.status).toBe(422);
    expect(again.body.error.details).toMatchObject({ field: 'conflictId', reason: 'already_resolved' });
    // The preview of a resolved conflict still works.
    expect((await sync('sources/conflicts/preview', { conflictId })).body.status).toBe('resolved');
  });

  it('resolves keep_service: no new version, a conflict.resolved event, and pushes flow again', async () => {
    const { sourceId, conflictId } = await conflictOn({ base: 'b\n', local: 'l\n', service: 's\n' });
    const r = await sync('sources/conflicts/resolve', { conflictId, resolution: 'keep_service' });
    expect(r.body).toMatchObject({ contentHash: sha('s\n'), deleted: false, file: { version: 2, conflictId: null } });
    const last = (await allEvents(sourceId)).events.at(-1);
    expect(last).toMatchObject({ type: 'conflict.resolved', resolution: 'keep_service', contentHash: sha('s\n') });
    expect((await push(sync, sourceId, [upsert('doc.md', 'next\n', sha('s\n'))]))[0].status).toBe('applied');
  });

  it('resolves manual_merge with resolvedContent (required), text or binary', async () => {
    const { sourceId, conflictId } = await conflictOn({ base: 'b\n', local: 'l\n', service: 's\n' });
    const missing = await sync('sources/conflicts/resolve', { conflictId, resolution: 'manual_merge' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'MISSING_REQUIRED', details: { field: 'resolvedContent' } });
    expect((await sync('sources/conflicts/resolve', { conflictId, resolution: 'merge_it' })).status).toBe(422);
    expect((await sync('sources/conflicts/resolve', { conflictId, resolution: 'manual_merge', resolvedContent: '%%', contentType: 'binary' })).status).toBe(
      422,
    );
    const r = await sync('sources/conflicts/resolve', { conflictId, resolution: 'manual_merge', resolvedContent: 'l\ns\n' });
    expect(r.body).toMatchObject({ resolution: 'manual_merge', contentHash: sha('l\ns\n') });
    expect((await sync('sources/file', { sourceId, relativePath: 'doc.md' })).body.content).toBe('l\ns\n');
    const events = (await allEvents(sourceId)).events.slice(-2).map((e) => e.type);
    expect(events).toEqual(['file.upsert', 'conflict.resolved']);
  });

  it('resolves a local delete with keep_local (the file is deleted) and a service edit conflict', async () => {
    const { sourceId } = await setupSource(sync);
    await push(sync, sourceId, [upsert('gone.md', 'v1')]);
    await sync('sources/file/update', { sourceId, relativePath: 'gone.md', content: 'v2', baseHash: sha('v1') });
    const [c] = await push(sync, sourceId, [remove('gone.md', sha('v1'))]);
    const r = await sync('sources/conflicts/resolve', { conflictId: c.conflictId, resolution: 'keep_local' });
    expect(r.body).toMatchObject({ contentHash: null, deleted: true, file: { deleted: true } });
    expect((await sync('sources/file', { sourceId, relativePath: 'gone.md' })).status).toBe(410);
    expect((await allEvents(sourceId)).events.slice(-2).map((e) => e.type)).toEqual(['file.delete', 'conflict.resolved']);

    // A stale service-side edit: conflict, local = what connectors hold, service = the refused edit.
    await push(sync, sourceId, [upsert('e.md', 'e1')]);
    await push(sync, sourceId, [upsert('e.md', 'e2', sha('e1'))]);
    const u = await sync('sources/file/update', { sourceId, relativePath: 'e.md', content: 'web edit', baseHash: sha('e1') });
    expect(u.status).toBe(200);
    expect(u.body).toMatchObject({ status: 'conflict', file: { contentHash: sha('e2') } });
    const listed = (await sync('sources/conflicts', { sourceId })).body.conflicts[0];
    expect(listed).toMatchObject({ origin: 'update', localHash: sha('e2'), serviceHash: sha('web edit'), baseHash: sha('e1'), connectorId: null });
    const same = await sync('sources/file/update', { sourceId, relativePath: 'e.md', content: 'web edit 2', baseHash: sha('e2') });
    expect(same.body).toMatchObject({ status: 'conflict', conflictId: u.body.conflictId });
    const k = await sync('sources/conflicts/resolve', { conflictId: u.body.conflictId, resolution: 'keep_service' });
    expect(k.body.contentHash).toBe(sha('web edit 2'));
    expect((await sync('sources/file', { sourceId, relativePath: 'e.md' })).body.content).toBe('web edit 2');
    // An up-to-date edit is ok; identical content is ok without a version.
    const ok = await sync('sources/file/update', { sourceId, relativePath: 'e.md', content: 'web edit 2' });
    expect(ok.body).toMatchObject({ status: 'ok', file: { version: 3 } });
  });

  it('previews binary and deleted sides without a line view', async () => {
    const { sourceId } = await setupSource(sync);
    const bin = (s: string) => ({ contentType: 'binary', content: Buffer.from(s).toString('base64'), contentHash: sha(s) });
    await push(sync, sourceId, [{ ...upsert('i.bin', ''), ...bin('v1') }]);
    await push(sync, sourceId, [{ ...upsert('i.bin', '', sha('v1')), ...bin('v2') }]);
    const [c] = await push(sync, sourceId, [{ ...upsert('i.bin', '', sha('v1')), ...bin('v3') }]);
    const p = await sync('sources/conflicts/preview', { conflictId: c.conflictId });
    expect(p.body).toMatchObject({
      binary: true,
      hunks: [],
      mergeable: false,
      merged: null,
      local: { content: Buffer.from('v3').toString('base64'), lines: [] },
    });
  });

  it('outsiders cannot see or resolve conflicts', async () => {
    const { conflictId, sourceId } = await conflictOn({ base: 'b\n', local: 'l\n', service: 's\n' });
    const outsider = syncClient(t, w.outsider, w.workspace.id);
    expect((await outsider('sources/conflicts', { sourceId })).status).toBe(403);
    expect((await outsider('sources/conflicts/preview', { conflictId })).status).toBe(403);
    expect((await outsider('sources/conflicts/resolve', { conflictId, resolution: 'keep_local' })).status).toBe(403);
    const viewer = syncClient(t, w.viewer, w.workspace.id);
    expect((await viewer('sources/conflicts/preview', { conflictId })).status).toBe(200);
    expect((await viewer('sources/conflicts/resolve', { conflictId, resolution: 'keep_local' })).status).toBe(403);
  });
});

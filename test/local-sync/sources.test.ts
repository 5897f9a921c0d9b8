import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, workspaceWithRoles } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { push, setupSource, syncClient, upsert } from './helpers.js';

let t: TestApp;
let w: Awaited<ReturnType<typeof workspaceWithRoles>>;
beforeAll(async () => {
  t = await createTestApp();
  w = await workspaceWithRoles(t);
});
afterAll(async () => {
  await t.close();
});

describe('connectors', () => {
  it('registers (201, connectorId + record) and heartbeats; a silent connector shows offline in the source list', async () => {
    const sync = syncClient(t, w.editor, w.workspace.id);
    const reg = await sync('connectors/register', { name: 'laptop', platform: 'darwin', version: '0.1.0' });
    expect(reg.status).toBe(201);
    expect(reg.body).toMatchObject({ workspaceId: w.workspace.id, userId: w.editor.id, name: 'laptop', platform: 'darwin', version: '0.1.0', online: true });
    expect(reg.body.connectorId).toMatch(/^[0-9a-f-]{36}$/);
    const connectorId = reg.body.connectorId;
    const src = await sync('sources', { name: 'Notes', mode: 'bidirectional', connectorId });
    expect(src.status).toBe(201);
    expect(src.body.connector).toMatchObject({ connectorId, online: true });

    // Silent for six minutes: offline.
    await t.database.db
      .updateTable('syncConnectors')
      .set({ lastSeenAt: new Date(Date.now() - 6 * 60_000) })
      .where('id', '=', connectorId)
      .execute();
    let list = await sync('sources/list', {});
    expect(list.body.sources.find((s: any) => s.sourceId === src.body.sourceId).connector.online).toBe(false);

    const hb = await sync('connectors/heartbeat', { connectorId });
    expect(hb.status).toBe(200);
    expect(hb.body).toMatchObject({ connectorId, online: true });
    list = await sync('sources/list', {});
    expect(list.body.sources.find((s: any) => s.sourceId === src.body.sourceId).connector.online).toBe(true);

    expect((await sync('connectors/heartbeat', { connectorId: 'nope' })).status).toBe(404);
    expect((await sync('connectors/heartbeat', {})).status).toBe(400);
    expect((await sync('connectors/register', { name: 'x', platform: 'p'.repeat(101), version: '1' })).status).toBe(422);
  });

  it('a viewer may register a connector (read-only mirror) but not create sources', async () => {
    const sync = syncClient(t, w.viewer, w.workspace.id);
    expect((await sync('connectors/register', { name: 'v', platform: 'linux', version: '1' })).status).toBe(201);
    const res = await sync('sources', { name: 'viewer-src', mode: 'bidirectional' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
  });
});

describe('sources', () => {
  it('creates with patterns, lists with counts, refuses a taken name with its sourceId', async () => {
    const sync = syncClient(t, w.editor, w.workspace.id);
    const res = await sync('sources', { name: 'Docs', mode: 'push_only', includePatterns: ['**/*.md'], excludePatterns: ['drafts/**'] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Docs',
      mode: 'push_only',
      connectorId: null,
      connector: null,
      includePatterns: ['**/*.md'],
      excludePatterns: ['drafts/**'],
      paused: false,
      fileCount: 0,
      openConflicts: 0,
      lastCursor: '0',
      workspaceId: w.workspace.id,
    });
    const dup = await sync('sources', { name: 'docs', mode: 'bidirectional' });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatchObject({ code: 'ALREADY_EXISTS', details: { field: 'name', reason: 'taken', sourceId: res.body.sourceId } });

    await push(sync, res.body.sourceId, [upsert('a.md', 'a'), upsert('b.md', 'b')]);
    const list = await sync('sources/list');
    expect(list.status).toBe(200);
    expect(list.body.sources.find((s: any) => s.sourceId === res.body.sourceId)).toMatchObject({ fileCount: 2, lastCursor: '2' });
  });

  it('validates mode, patterns, connector; bad input is never a 500', async () => {
    const sync = syncClient(t, w.editor, w.workspace.id);
    const bad = [
      [{ name: 'x1', mode: 'sideways' }, 422],
      [{ mode: 'bidirectional' }, 400],
      [{ name: 'x2', mode: 'bidirectional', includePatterns: ['[unclosed'] }, 422],
      [{ name: 'x3', mode: 'bidirectional', excludePatterns: [''] }, 422],
      [{ name: 'x4', mode: 'bidirectional', includePatterns: 'notalist' }, 422],
      [{ name: 'x5', mode: 'bidirectional', connectorId: 'missing' }, 404],
      [{ name: 'n'.repeat(201), mode: 'bidirectional' }, 422],
    ] as const;
    for (const [body, status] of bad) {
      const res = await sync('sources', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error.code).toBeTypeOf('string');
    }
    const glob = await sync('sources', { name: 'x2', mode: 'bidirectional', includePatterns: ['[unclosed'] });
    expect(glob.body.error.details).toMatchObject({ field: 'includePatterns.0', reason: 'invalid_glob' });
    const malformed = await t.request({
      method: 'POST',
      url: '/api/local-sync/sources',
      token: w.editor.token,
      headers: { 'x-workspace-id': w.workspace.id, 'content-type': 'application/json' },
      body: '{"name":',
    });
    expect(malformed.status).toBe(400);
  });

  it('membership: outsider 403, unknown workspace 404, no credentials 401, API keys work, other workspace ids 404', async () => {
    const mine = syncClient(t, w.editor, w.workspace.id);
    const { sourceId } = await setupSource(mine);
    const outsider = syncClient(t, w.outsider, w.workspace.id);
    for (const [path, body] of [
      ['sources/list', {}],
      ['sources/files', { sourceId }],
      ['sources/deltas', { sourceId }],
      ['sources/push-batch', { sourceId, items: [upsert('x', 'x')] }],
      ['connectors/register', { name: 'x', platform: 'x', version: 'x' }],
    ] as const) {
      const res = await outsider(path, body);
      expect(res.status, path).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    expect((await syncClient(t, w.editor, 'no-such-ws')('sources/list', {})).status).toBe(404);
    const anon = await t.request({ method: 'POST', url: '/api/local-sync/sources/list', headers: { 'x-workspace-id': w.workspace.id }, body: {} });
    expect(anon.status).toBe(401);

    const key = await createApiKey(t, w.viewer);
    const viaKey = await t.request({
      method: 'POST',
      url: '/api/local-sync/sources/files',
      token: key,
      headers: { 'x-workspace-id': w.workspace.id },
      body: { sourceId },
    });
    expect(viaKey.status).toBe(200);

    // The outsider's own workspace cannot reach this source.
    const other = await t.request({ method: 'POST', url: '/api/v1/workspaces', token: w.outsider.token, body: { name: 'Other', hostname: `o-${Date.now()}` } });
    const theirs = syncClient(t, w.outsider, other.body.data.id);
    expect((await theirs('sources/files', { sourceId })).status).toBe(404);
    expect((await theirs('sources/pause', { sourceId })).status).toBe(404);
  });

  it('viewer reads but cannot push, update, pause or resolve', async () => {
    const editor = syncClient(t, w.editor, w.workspace.id);
    const viewer = syncClient(t, w.viewer, w.workspace.id);
    const { sourceId } = await setupSource(editor);
    await push(editor, sourceId, [upsert('r.md', 'read me')]);
    expect((await viewer('sources/files', { sourceId })).body.files).toHaveLength(1);
    expect((await viewer('sources/file', { sourceId, relativePath: 'r.md' })).body.content).toBe('read me');
    for (const [path, body] of [
      ['sources/push-batch', { sourceId, items: [upsert('v.md', 'v')] }],
      ['sources/file/update', { sourceId, relativePath: 'r.md', content: 'x' }],
      ['sources/pause', { sourceId }],
      ['sources/resume', { sourceId }],
      ['sources/conflicts/resolve', { conflictId: 'x', resolution: 'keep_local' }],
    ] as const) {
      const res = await viewer(path, body);
      expect(res.status, path).toBe(403);
    }
    expect((await viewer('sources/files', { sourceId })).body.files).toHaveLength(1);
  });
});

describe('modes', () => {
  it('push_only refuses service-side edits; pull_only refuses pushes (whole batch, 403 reason mode)', async () => {
    const sync = syncClient(t, w.editor, w.workspace.id);
    const pushOnly = await setupSource(sync, 'push_only');
    expect((await push(sync, pushOnly.sourceId, [upsert('m.md', 'mirror')]))[0].status).toBe('applied');
    const edit = await sync('sources/file/update', { sourceId: pushOnly.sourceId, relativePath: 'm.md', content: 'svc', baseHash: null });
    expect(edit.status).toBe(403);
    expect(edit.body.error).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'mode', mode: 'push_only' } });

    const pullOnly = await setupSource(sync, 'pull_only');
    const refused = await sync('sources/push-batch', { sourceId: pullOnly.sourceId, items: [upsert('p.md', 'x')] });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'mode', mode: 'pull_only' } });
    expect((await sync('sources/files', { sourceId: pullOnly.sourceId })).body.files).toEqual([]);
    // Its content comes from service-side edits, which connectors pull.
    const ok = await sync('sources/file/update', { sourceId: pullOnly.sourceId, relativePath: 'p.md', content: 'from the service' });
    expect(ok.body).toMatchObject({ status: 'ok', conflictId: null, file: { relativePath: 'p.md', version: 1 } });
    const d = await sync('sources/deltas', { sourceId: pullOnly.sourceId, includeContent: true });
    expect(d.body.events.map((e: any) => [e.type, e.content])).toEqual([['file.upsert', 'from the service']]);
  });
});

describe('pause and resume', () => {
  it('a paused source refuses writes with 403 source_paused and emits no events; reads go on', async () => {
    const sync = syncClient(t, w.editor, w.workspace.id);
    const { sourceId, connectorId } = await setupSource(sync);
    const [a] = await push(sync, sourceId, [upsert('a.md', 'one')]);
    const u = await sync('sources/file/update', { sourceId, relativePath: 'a.md', content: 'two', baseHash: 'f'.repeat(64) });
    expect(u.body.status).toBe('conflict');

    const paused = await sync('sources/pause', { sourceId });
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ sourceId, paused: true });
    expect(paused.body.pausedAt).toBeTypeOf('string');
    const again = await sync('sources/pause', { sourceId });
    expect(again.status).toBe(200);

    const before = (await sync('sources/deltas', { sourceId })).body;
    for (const [path, body] of [
      ['sources/push-batch', { sourceId, connectorId, items: [upsert('b.md', 'x')] }],
      ['sources/file/update', { sourceId, relativePath: 'a.md', content: 'three', baseHash: a.contentHash }],
      ['sources/conflicts/resolve', { conflictId: u.body.conflictId, resolution: 'keep_service' }],
    ] as const) {
      const res = await sync(path, body);
      expect(res.status, path).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'source_paused', sourceId } });
      expect(res.body.error.message).toMatch(/paused/);
    }
    const after = (await sync('sources/deltas', { sourceId })).body;
    expect(after.events).toEqual(before.events);
    expect(after.events.map((e: any) => e.type)).toEqual(['file.upsert', 'conflict.opened', 'source.paused']);
    expect((await sync('sources/files', { sourceId })).body.files.map((f: any) => f.relativePath)).toEqual(['a.md']);
    expect((await sync('sources/conflicts', { sourceId })).body.conflicts).toHaveLength(1);

    const resumed = await sync('sources/resume', { sourceId });
    expect(resumed.body.paused).toBe(false);
    expect((await push(sync, sourceId, [upsert('b.md', 'x')]))[0].status).toBe('applied');
    const events = (await sync('sources/deltas', { sourceId, cursor: after.nextCursor })).body.events.map((e: any) => e.type);
    expect(events).toEqual(['source.resumed', 'file.upsert']);
    expect((await sync('sources/pause', { sourceId: 'missing' })).status).toBe(404);
  });
});

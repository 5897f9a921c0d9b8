import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { workspaceWithRoles } from '../helpers/factories.js';
import { push, type SyncClient, setupSource, sha, syncClient, upsert } from './helpers.js';

/** A connector acts for the user who registered it: nobody else may push, resolve or heartbeat as it. */
let t: TestApp;
let alice: SyncClient; // editor
let bob: SyncClient; // admin of the same workspace
beforeAll(async () => {
  t = await createTestApp();
  const w = await workspaceWithRoles(t);
  alice = syncClient(t, w.editor, w.workspace.id);
  bob = syncClient(t, w.admin, w.workspace.id);
});
afterAll(async () => {
  await t.close();
});

const register = async (sync: SyncClient) =>
  (await sync('connectors/register', { name: 'laptop', platform: 'linux', version: '1' })).body.connectorId as string;

describe('connector ownership', () => {
  it('push-batch with another user’s connectorId is 404 and writes nothing', async () => {
    const { sourceId } = await setupSource(alice);
    const bobs = await register(bob);
    const before = (await bob('sources/list', {})).body.sources.find((s: any) => s.sourceId === sourceId);
    const res = await alice('sources/push-batch', { sourceId, connectorId: bobs, items: [upsert('a.md', 'forged')] });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', details: { field: 'connectorId' } });
    expect((await alice('sources/files', { sourceId, includeDeleted: true })).body.files).toEqual([]);
    expect((await alice('sources/deltas', { sourceId })).body.events).toEqual([]);
    expect(before.lastCursor).toBe('0');
    // Bob's own connector works for Bob; Alice's for Alice.
    expect((await push(bob, sourceId, [upsert('b.md', 'b')], bobs))[0].status).toBe('applied');
    const mine = await register(alice);
    expect((await push(alice, sourceId, [upsert('a.md', 'a')], mine))[0].status).toBe('applied');
    const events = (await alice('sources/deltas', { sourceId })).body.events;
    expect(events.map((e: any) => [e.relativePath, e.connectorId])).toEqual([
      ['b.md', bobs],
      ['a.md', mine],
    ]);
  });

  it('resolving with another user’s connectorId is 404 and the conflict stays open', async () => {
    const { sourceId, connectorId: mine } = await setupSource(alice);
    const bobs = await register(bob);
    await push(alice, sourceId, [upsert('c.md', 'v1')], mine);
    await alice('sources/file/update', { sourceId, relativePath: 'c.md', content: 'service', baseHash: sha('v1') });
    const [c] = await push(alice, sourceId, [upsert('c.md', 'local', sha('v1'))], mine);
    expect(c.status).toBe('conflict');
    const res = await alice('sources/conflicts/resolve', { conflictId: c.conflictId, resolution: 'keep_local', connectorId: bobs });
    expect(res.status).toBe(404);
    expect(res.body.error.details).toMatchObject({ field: 'connectorId' });
    expect((await alice('sources/conflicts', { sourceId })).body.conflicts.map((k: any) => k.conflictId)).toEqual([c.conflictId]);
    const ok = await alice('sources/conflicts/resolve', { conflictId: c.conflictId, resolution: 'keep_local', connectorId: mine });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 'resolved', contentHash: sha('local') });
  });

  it('a heartbeat for another user’s connector is 404 and does not mark it alive', async () => {
    const bobs = await register(bob);
    const res = await alice('connectors/heartbeat', { connectorId: bobs });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    const own = await bob('connectors/heartbeat', { connectorId: bobs });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ connectorId: bobs, online: true });
  });

  it('a source may still name another member’s connector (it only labels the source)', async () => {
    const bobs = await register(bob);
    const res = await alice('sources', { name: 'shared-label', mode: 'bidirectional', connectorId: bobs });
    expect(res.status).toBe(201);
    expect(res.body.connector).toMatchObject({ connectorId: bobs });
  });
});

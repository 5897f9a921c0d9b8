import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, requester, siblingApp, type TestApp } from '../helpers/app.js';
import { workspaceWithRoles } from '../helpers/factories.js';
import { connectRedis, requireRedis } from '../helpers/redis.js';
import { createSpace, doc, newPage } from '../pages/helpers.js';
import { type CollabClient, connect, eventually, paragraphsOf, putParagraphs } from './helpers.js';

/** Co-editing across a restart, across a change of role, and across two instances sharing documents through Redis. */
const FAST = { COLLAB_SAVE_DEBOUNCE_MS: 100, COLLAB_SAVE_MAX_WAIT_MS: 500, COLLAB_ACCESS_RECHECK_MS: 100 };
let t: TestApp;
let w: Awaited<ReturnType<typeof workspaceWithRoles>>;
let space: string;
const clients: CollabClient[] = [];
const apps: FastifyInstance[] = [];

const urlOf = (app: FastifyInstance) => `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

function open(baseUrl: string, pageId: string, token: string) {
  const client = connect(baseUrl, pageId, token);
  clients.push(client);
  return client;
}

async function setEditorRole(role: 'editor' | 'viewer', request: TestApp['request'] = t.request) {
  const res = await request({ method: 'PUT', url: `/api/v1/workspaces/${w.workspace.id}/members/${w.editor.id}`, token: w.admin.token, body: { role } });
  return res.status;
}

async function storedText(pageId: string) {
  const res = await t.request({ url: `/api/v1/pages/${pageId}`, token: w.admin.token });
  return paragraphsOf(res.body.data.content);
}

beforeAll(async () => {
  t = await createTestApp(FAST as never);
  w = await workspaceWithRoles(t);
  space = (await createSpace(t, w.admin, w.workspace.id, { name: 'Instances' })).id;
});

afterAll(async () => {
  for (const c of clients) c.destroy();
  for (const app of apps) await app.close();
  await t.close();
});

describe('co-editing across a restart', () => {
  it('keeps every acknowledged edit when the service restarts mid-edit, and the client carries on', async () => {
    const first = await siblingApp(t);
    await first.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (first.app.server.address() as AddressInfo).port;
    const p = await newPage(t, w.editor, w.workspace.id, space, { title: 'Restart', content: doc('Before') });
    const client = open(`http://127.0.0.1:${port}`, p.id, w.editor.token);
    await client.synced;
    client.type(' typed just before the restart');
    // Acknowledged: the server has the update (the provider counts it synced), not yet stored (the save is debounced).
    await eventually('the server to acknowledge the edit', () => client.provider.unsyncedChanges === 0 && client.provider.isSynced);
    await first.app.close();
    const second = await siblingApp(t);
    apps.push(second.app);
    await second.app.listen({ host: '127.0.0.1', port });
    expect(await storedText(p.id)).toBe('Before typed just before the restart');
    await eventually('the client to reconnect', () => client.provider.isSynced && client.provider.isAuthenticated);
    client.type(', and after');
    await eventually('the edit after the restart to be stored', async () => (await storedText(p.id)) === 'Before typed just before the restart, and after');
  });
});

describe('co-editing when a role changes', () => {
  it('reconnects an editor made viewer read-only at once (not at the next interval): their later updates are refused', async () => {
    // Checks on an interval far longer than the test: the close comes from the role change itself.
    const a = await siblingApp(t, {}, { COLLAB_ACCESS_RECHECK_MS: 600_000 });
    apps.push(a.app);
    await a.app.listen({ host: '127.0.0.1', port: 0 });
    const p = await newPage(t, w.editor, w.workspace.id, space, { title: 'Demoted', content: doc('Start') });
    const client = open(urlOf(a.app), p.id, w.editor.token);
    expect(await client.authenticated).toBe('read-write');
    await client.synced;
    expect(await setEditorRole('viewer', a.request)).toBe(200);
    try {
      expect((await client.closed).reason).toBe('access-changed');
      await eventually('the client to be admitted again, read-only', () => client.provider.isAuthenticated && client.provider.authorizedScope === 'readonly');
      client.type(' after demotion');
      const watcher = open(urlOf(a.app), p.id, w.admin.token);
      await watcher.synced;
      await new Promise((r) => setTimeout(r, 500));
      expect(watcher.text()).toBe('Start');
      expect(await storedText(p.id)).toBe('Start');
    } finally {
      expect(await setEditorRole('editor')).toBe(200);
    }
  });
});

describe('co-editing on two instances over Redis', () => {
  let redis: Redis | undefined;
  beforeAll(async () => {
    redis = await connectRedis();
  });
  afterAll(() => redis?.disconnect());

  it('converges two people connected to different instances, merges a write made on either, and tells both a new title', async (ctx) => {
    if (!requireRedis(redis, ctx)) return;
    const prefix = `t-${randomUUID().slice(0, 8)}:`;
    const one = await siblingApp(t, { redis, rateLimitKeyPrefix: prefix });
    const two = await siblingApp(t, { redis, rateLimitKeyPrefix: prefix });
    apps.push(one.app, two.app);
    await one.app.listen({ host: '127.0.0.1', port: 0 });
    await two.app.listen({ host: '127.0.0.1', port: 0 });
    const p = await newPage(t, w.editor, w.workspace.id, space, { title: 'Shared', content: doc('One', 'Two') });
    const onOne = open(urlOf(one.app), p.id, w.editor.token);
    const onTwo = open(urlOf(two.app), p.id, w.admin.token);
    await Promise.all([onOne.synced, onTwo.synced]);
    onOne.type(' typed on instance one', 0);
    onTwo.type(' typed on instance two', 1);
    const both = 'One typed on instance one\nTwo typed on instance two';
    await eventually('both instances’ clients to converge', () => onOne.text() === both && onTwo.text() === both);
    await eventually('the page to store both edits', async () => (await storedText(p.id)) === both);

    // A REST write on instance one reaches the person editing on instance two, merged with their typing.
    onTwo.type(' and more', 1);
    expect(await putParagraphs(requester(one.app), p.id, w.admin.token, 'One rewritten over REST', 'Two typed on instance two')).toBe(200);
    // Merged with the typing when the write reads the page before that typing is stored (100 ms after it); on a loaded
    // machine the store can come first, and the write, which did not see it, replaces that paragraph (last write wins).
    const merged = 'One rewritten over REST\nTwo typed on instance two and more';
    const afterStoredTyping = 'One rewritten over REST\nTwo typed on instance two';
    await eventually('the REST write to reach both clients, merged', () => [merged, afterStoredTyping].includes(onTwo.text()) && onOne.text() === onTwo.text());
    const settled = onTwo.text();
    await eventually('the merged text to be stored', async () => (await storedText(p.id)) === settled);

    // A new title (not in the Yjs document) reaches everyone with the page open, on both instances, at once; so does a
    // restore that brings an older title back.
    const titles = { one: [] as string[], two: [] as string[] };
    const listen = (client: CollabClient, into: string[]) =>
      client.provider.on('stateless', ({ payload }: { payload: string }) => {
        const message = JSON.parse(payload);
        if (message.type === 'title') into.push(message.title);
      });
    listen(onOne, titles.one);
    listen(onTwo, titles.two);
    const renamed = await requester(one.app)({
      method: 'PUT',
      url: `/api/v1/pages/${p.id}`,
      token: w.admin.token,
      body: { workspaceId: w.workspace.id, title: 'Shared, renamed' },
    });
    expect(renamed.status).toBe(200);
    await eventually('the new title to reach both clients', () => titles.one.includes('Shared, renamed') && titles.two.includes('Shared, renamed'));
    const history = await t.request({ url: `/api/v1/pages/${p.id}/history`, token: w.admin.token });
    const first = history.body.data.find((e: { title?: string; version: number }) => e.version === 1);
    const restored = await requester(two.app)({ method: 'POST', url: `/api/v1/pages/${p.id}/restore`, token: w.admin.token, body: { historyId: first.id } });
    expect(restored.status).toBe(200);
    await eventually('the restored title to reach both clients', () => titles.one.at(-1) === 'Shared' && titles.two.at(-1) === 'Shared');
    await redis!.del(...(await redis!.keys(`${prefix}*`)), 'never-empty');
  });

  it('attributes a version to everyone who edited it, on either instance, and carries no one over to the next', async (ctx) => {
    if (!requireRedis(redis, ctx)) return;
    const prefix = `t-${randomUUID().slice(0, 8)}:`;
    // Instance two stores late: a version naming B before then was told of B by instance one's store.
    const one = await siblingApp(t, { redis, rateLimitKeyPrefix: prefix }, { COLLAB_VERSION_QUIET_MS: 3000 });
    const two = await siblingApp(
      t,
      { redis, rateLimitKeyPrefix: prefix },
      { COLLAB_VERSION_QUIET_MS: 3000, COLLAB_SAVE_DEBOUNCE_MS: 4000, COLLAB_SAVE_MAX_WAIT_MS: 8000 },
    );
    apps.push(one.app, two.app);
    await one.app.listen({ host: '127.0.0.1', port: 0 });
    await two.app.listen({ host: '127.0.0.1', port: 0 });
    const p = await newPage(t, w.editor, w.workspace.id, space, { title: 'Attributed', content: doc('One', 'Two') });
    const versions = async () => {
      const res = await t.request({ url: `/api/v1/pages/${p.id}/history`, token: w.admin.token });
      return res.body.data as { version: number; summary: string; contributors: string[] }[];
    };
    const contributorsOf = (entry: { contributors: string[] } | undefined) => [...(entry?.contributors ?? [])].sort();
    const a = open(urlOf(one.app), p.id, w.editor.token);
    const b = open(urlOf(two.app), p.id, w.admin.token);
    await Promise.all([a.synced, b.synced]);
    b.type(' by B on two', 1);
    await eventually('B’s edit to reach A', () => a.text() === 'One\nTwo by B on two');
    a.type(' by A on one', 0);
    const both = 'One by A on one\nTwo by B on two';
    const together = [w.admin.id, w.editor.id].sort();
    const stored = async () => ({ text: await storedText(p.id), versions: await versions() });
    const first = await eventually(
      'instance one to store both edits as one version naming A and B (instance two has not stored yet)',
      async () => {
        const now = await stored();
        return now.text === both && JSON.stringify(contributorsOf(now.versions[0])) === JSON.stringify(together) ? now : null;
      },
      2500,
    );
    expect(first!.versions.map((e) => e.summary)).toEqual(['Edited together', 'Created page']);

    // After the quiet time, A alone edits, through instance two (where B was): a new version, A's only.
    await new Promise((r) => setTimeout(r, 3500));
    const aOnTwo = open(urlOf(two.app), p.id, w.editor.token);
    await aOnTwo.synced;
    aOnTwo.type(', then A alone', 1);
    await eventually('A’s edit on two to be stored', async () => (await storedText(p.id)) === `${both}, then A alone`);
    const afterA = await versions();
    expect(afterA).toHaveLength(3);
    expect(contributorsOf(afterA[0])).toEqual([w.editor.id]);
    expect(contributorsOf(afterA[1])).toEqual(together);
    await redis!.del(...(await redis!.keys(`${prefix}*`)), 'never-empty');
  });
});

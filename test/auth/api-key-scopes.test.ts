import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { workspaceWithRoles } from '../helpers/factories.js';
import { listenOnLoopback, mcpClients } from '../helpers/mcp.js';
import { createSpace } from '../spaces/helpers.js';

/**
 * API keys with scopes (issue 15): a read-only key reads what its user reads and writes nothing, through REST and
 * through MCP tools; a key with an expiry stops at it; the key list shows each key's scope and last use.
 */

let t: TestApp;
let ws: Awaited<ReturnType<typeof workspaceWithRoles>>;
let space: { id: string };
let pageId: string;
let base: string;
const clients = mcpClients();

beforeAll(async () => {
  t = await createTestApp();
  ws = await workspaceWithRoles(t);
  space = await createSpace(t, ws.admin, ws.workspace.id, { name: 'Keys' });
  const page = await t.request({
    method: 'POST',
    url: '/api/v1/pages',
    token: ws.editor.token,
    body: { workspaceId: ws.workspace.id, spaceId: space.id, title: 'Read me', markdown: 'text' },
  });
  pageId = page.body.data.id;
  base = await listenOnLoopback(t);
});

afterAll(async () => {
  await clients.close();
  await t?.close();
});

async function createKey(body: Record<string, unknown>) {
  const res = await t.request({ method: 'POST', url: '/api/v1/api-keys', token: ws.editor.token, body });
  return res;
}

const mcpAs = (key: string) => clients.connect(base, key);

const textOf = (r: unknown) => (r as { content: Array<{ text: string }> }).content[0].text;

describe('API keys with scopes', () => {
  it('a read-only key reads and is refused every write with 403, through REST', async () => {
    const created = await createKey({ name: 'reader', access: 'read-only' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'reader', access: 'read-only', expiresAt: null });
    const key = created.body.data.key as string;

    expect((await t.request({ url: `/api/v1/pages/${pageId}`, token: key })).status).toBe(200);
    expect((await t.request({ url: '/api/v1/pages', token: key, query: { workspaceId: ws.workspace.id, spaceId: space.id } })).status).toBe(200);
    const writes = [
      { method: 'POST' as const, url: '/api/v1/pages', body: { workspaceId: ws.workspace.id, spaceId: space.id, title: 'No', markdown: 'x' } },
      { method: 'PUT' as const, url: `/api/v1/pages/${pageId}`, body: { markdown: 'changed' } },
      { method: 'DELETE' as const, url: `/api/v1/pages/${pageId}` },
      { method: 'POST' as const, url: '/api/v1/tasks', body: { workspaceId: ws.workspace.id, title: 'No' } },
    ];
    for (const w of writes) {
      const res = await t.request({ ...w, token: key });
      expect(res.status, `${w.method} ${w.url}`).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'read_only_key' } });
    }
    // Nothing changed.
    const page = await t.request({ url: `/api/v1/pages/${pageId}`, token: ws.editor.token, query: { format: 'markdown' } });
    expect(page.body.data).toMatchObject({ title: 'Read me', markdown: 'text\n' });
    // A POST that only reads is allowed.
    expect((await t.request({ method: 'POST', url: '/api/v1/bug-reports/list', token: key, body: {} })).status).not.toBe(403);
  });

  it('a read-only key runs read tools and is refused write tools over MCP', async () => {
    const key = (await createKey({ name: 'agent', access: 'read-only' })).body.data.key as string;
    const client = await mcpAs(key);
    const read = await client.callTool({ name: 'page_get', arguments: { pageId } });
    expect(read.isError, textOf(read)).toBe(false);
    const write = await client.callTool({ name: 'page_create', arguments: { workspaceId: ws.workspace.id, spaceId: space.id, title: 'No', markdown: 'x' } });
    expect(write.isError).toBe(true);
    expect(textOf(write)).toMatch(/read-only/);
    const list = await t.request({ url: '/api/v1/pages', token: ws.editor.token, query: { workspaceId: ws.workspace.id, spaceId: space.id } });
    expect(list.body.data.map((p: { title: string }) => p.title)).toEqual(['Read me']);
  });

  it('a read-write key (the default) writes as its user may', async () => {
    const created = await createKey({ name: 'writer' });
    expect(created.body.data).toMatchObject({ access: 'read-write', expiresAt: null });
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: created.body.data.key,
      body: { workspaceId: ws.workspace.id, spaceId: space.id, title: 'Yes', markdown: 'x' },
    });
    expect(res.status).toBe(201);
  });

  it('a key with an expiry works until then and answers 401 TOKEN_EXPIRED after; one in the past is refused', async () => {
    const expiresAt = new Date(Date.now() + 1500).toISOString();
    const created = await createKey({ name: 'short', expiresAt });
    expect(created.status).toBe(201);
    expect(created.body.data.expiresAt).toBe(expiresAt);
    const key = created.body.data.key as string;
    expect((await t.request({ url: `/api/v1/pages/${pageId}`, token: key })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1600));
    const late = await t.request({ url: `/api/v1/pages/${pageId}`, token: key });
    expect(late.status).toBe(401);
    expect(late.body.error.code).toBe('TOKEN_EXPIRED');

    const past = await createKey({ name: 'past', expiresAt: new Date(Date.now() - 1000).toISOString() });
    expect(past.status).toBe(422);
    expect(past.body.error.details).toMatchObject({ field: 'expiresAt' });
    const bad = await createKey({ name: 'bad', access: 'admin' });
    expect(bad.status).toBe(422);
  });

  it('lists each key with its scope and when it was last used', async () => {
    const list = await t.request({ url: '/api/v1/api-keys', token: ws.editor.token });
    expect(list.status).toBe(200);
    const byName = Object.fromEntries(list.body.data.map((k: { name: string }) => [k.name, k]));
    expect(byName.reader).toMatchObject({ access: 'read-only', expiresAt: null });
    expect(byName.reader.lastUsedAt).not.toBeNull();
    expect(byName.writer).toMatchObject({ access: 'read-write' });
    expect(byName.short.expiresAt).not.toBeNull();
  });
});

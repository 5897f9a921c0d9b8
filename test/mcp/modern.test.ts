import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchEvents } from '../../src/areas/events/events.dispatch.js';
import { siblingApp, type TestApp } from '../helpers/app.js';
import { createUser, type workspaceWithRoles } from '../helpers/factories.js';
import { listeningHandbook } from '../helpers/mcp.js';
import { agentConnects, MemoryOAuthClient } from '../helpers/oauth.js';
import { connectRedis, requireRedis } from '../helpers/redis.js';

/** The 2026-07-28 revision at /api/mcp, through the official SDK v2 client: no handshake, each request carries its version. */

let t: TestApp;
let base: string;
let ws: Awaited<ReturnType<typeof workspaceWithRoles>>;
let spaceId: string;
const open: Client[] = [];

beforeAll(async () => {
  ({ t, base, ws, spaceId } = await listeningHandbook());
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  await t.close();
});

/** The SDK v2 client; `auto` negotiation probes with `server/discover` and speaks 2026-07-28 when the server does. */
async function modernClient(token: string, mode: 'auto' | 'legacy' = 'auto', at = base) {
  const client = new Client({ name: 'modern', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${at}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  open.push(client);
  return client;
}

describe('MCP 2026-07-28', () => {
  it('discovers the server, lists typed tools and calls them as the caller', async () => {
    const client = await modernClient(ws.editor.token);
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(client.getServerVersion()).toMatchObject({ name: 'kb-service' });
    const { tools } = await client.listTools();
    const create = tools.find((x) => x.name === 'page_create');
    expect(create?.outputSchema).toMatchObject({ type: 'object' });
    const made = await client.callTool({ name: 'page_create', arguments: { workspaceId: ws.workspace.id, spaceId, title: 'Modern', markdown: 'Hi' } });
    expect(made.isError).toBeFalsy();
    const id = (made.structuredContent as { id: string }).id;
    const read = await client.readResource({ uri: `kb://pages/${id}` });
    expect(JSON.stringify(read.contents)).toContain('# Modern');

    const viewer = await modernClient(ws.viewer.token);
    const refused = await viewer.callTool({ name: 'page_create', arguments: { workspaceId: ws.workspace.id, spaceId, title: 'No' } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toMatch(/^\[\{"type":"text","text":"FORBIDDEN: /);
    await expect(viewer.readResource({ uri: 'kb://pages/nothing' })).rejects.toMatchObject({ code: -32602 });
  });

  it('still serves the v2 client in its default 2025 mode from the same endpoint', async () => {
    const client = await modernClient(ws.viewer.token, 'legacy');
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    const listed = await client.callTool({ name: 'workspace_list', arguments: {} });
    expect((listed.structuredContent as { items: Array<{ id: string }> }).items.map((w) => w.id)).toEqual([ws.workspace.id]);
  });

  it('answers a raw 2026-07-28 request (version in the envelope, no initialize) with JSON', async () => {
    const res = await fetch(`${base}/api/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${ws.viewer.token}`,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/list',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(JSON.parse(text).result.tools.length).toBeGreaterThan(100);
  });
});

describe('an agent on the SDK v2 connecting by URL alone', () => {
  it('discovers, registers, gets consent, and works over 2026-07-28 with the token; a revoked token is refused', async () => {
    const oauth = new MemoryOAuthClient();
    const { client } = await agentConnects(base, oauth, ws.editor, { approve: true, workspaceId: ws.workspace.id, scopes: ['read'] }, 'v2');
    open.push(client as unknown as Client);
    expect((client as unknown as Client).getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const listed = await client.callTool({ name: 'workspace_list', arguments: {} });
    expect((listed.structuredContent as { items: Array<{ id: string }> }).items.map((w) => w.id)).toEqual([ws.workspace.id]);
    const write = await client.callTool({ name: 'page_create', arguments: { workspaceId: ws.workspace.id, spaceId, title: 'No' } });
    expect(write.isError).toBe(true);
    const revoke = await fetch(`${base}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: oauth.saved!.access_token, client_id: oauth.info!.client_id }),
    });
    expect(revoke.status).toBe(200);
    expect((await fetch(`${base}/api/v1/workspaces`, { headers: { authorization: `Bearer ${oauth.saved!.access_token}` } })).status).toBe(401);
  });
});

describe('tools that destroy ask first (2026-07-28 input-required)', () => {
  /** A v2 client that can ask its person: it answers every question with `answer` and keeps the questions. */
  async function askingClient(answer: 'accept' | 'decline') {
    const client = new Client({ name: 'asking', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {} } } });
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(String((request.params as { message: string }).message));
      return answer === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${ws.editor.token}` } } }),
    );
    open.push(client);
    return { client, asked };
  }
  const newTask = async (client: Client) => {
    const made = await client.callTool({ name: 'task_create', arguments: { workspaceId: ws.workspace.id, title: 'Throw away' } });
    return (made.structuredContent as { id: string }).id;
  };
  const taskExists = async (id: string) => (await t.request({ url: `/api/v1/tasks/${id}`, token: ws.editor.token })).status === 200;

  it('asks the person before deleting, and deletes once they agree', async () => {
    const { client, asked } = await askingClient('accept');
    const { tools } = await client.listTools();
    expect(tools.find((x) => x.name === 'task_delete')?.inputSchema.properties).toHaveProperty('confirm');
    expect(tools.find((x) => x.name === 'task_get')?.inputSchema.properties).not.toHaveProperty('confirm');
    const id = await newTask(client);
    const deleted = await client.callTool({ name: 'task_delete', arguments: { taskId: id, workspaceId: ws.workspace.id } });
    expect(deleted.isError).toBeFalsy();
    expect(asked).toEqual([`Delete a task (task ${id}): this cannot be undone. Go ahead?`]);
    expect(await taskExists(id)).toBe(false);
  });

  it('changes nothing when the person declines, and does not ask when the call says confirm: true', async () => {
    const { client, asked } = await askingClient('decline');
    const id = await newTask(client);
    const refused = await client.callTool({ name: 'task_delete', arguments: { taskId: id, workspaceId: ws.workspace.id } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain('DECLINED');
    expect(await taskExists(id)).toBe(true);
    const confirmed = await client.callTool({ name: 'task_delete', arguments: { taskId: id, workspaceId: ws.workspace.id, confirm: true } });
    expect(confirmed.isError).toBeFalsy();
    expect(asked).toHaveLength(1);
    expect(await taskExists(id)).toBe(false);
  });
});

describe('subscriptions/listen (2026-07-28)', () => {
  const pageUri = (id: string) => `kb://pages/${id}`;

  it('tells a follower when a page they follow changes, and nothing of the pages they do not follow', async () => {
    const editor = await modernClient(ws.editor.token);
    const make = async (title: string) =>
      (
        (await editor.callTool({ name: 'page_create', arguments: { workspaceId: ws.workspace.id, spaceId, title, markdown: 'First' } })).structuredContent as {
          id: string;
        }
      ).id;
    const followed = await make('Followed');
    const other = await make('Not followed');
    await dispatchEvents(t.database.db);

    const viewer = await modernClient(ws.viewer.token);
    const updated: string[] = [];
    viewer.setNotificationHandler('notifications/resources/updated', (n) => {
      updated.push(n.params.uri);
    });
    const subscription = await viewer.listen({ resourceSubscriptions: [pageUri(followed)] });
    await editor.callTool({ name: 'page_update', arguments: { pageId: other, markdown: 'Changed' } });
    await editor.callTool({ name: 'page_update', arguments: { pageId: followed, title: 'Followed, renamed' } });
    await dispatchEvents(t.database.db);
    await expect.poll(() => updated).toEqual([pageUri(followed)]);
    // What changed is read as usual.
    expect(JSON.stringify((await viewer.readResource({ uri: pageUri(followed) })).contents)).toContain('# Followed, renamed');

    await subscription.close();
    await editor.callTool({ name: 'page_update', arguments: { pageId: followed, markdown: 'Again' } });
    await dispatchEvents(t.database.db);
    await new Promise((r) => setTimeout(r, 200));
    expect(updated).toEqual([pageUri(followed)]);
  });

  it('reaches a follower on another instance through Redis', async (ctx) => {
    const redis = await connectRedis();
    if (!requireRedis(redis, ctx)) return;
    const prefix = `kb-test-${process.pid}-${Date.now()}`;
    const sibling = await siblingApp(t, { redis, rateLimitKeyPrefix: prefix });
    try {
      await sibling.app.pageChanges.ready();
      const siblingBase = await sibling.app.listen({ host: '127.0.0.1', port: 0 });
      const editor = await modernClient(ws.editor.token);
      const made = await editor.callTool({ name: 'page_create', arguments: { workspaceId: ws.workspace.id, spaceId, title: 'Far away', markdown: 'x' } });
      const id = (made.structuredContent as { id: string }).id;
      await dispatchEvents(t.database.db);
      const follower = await modernClient(ws.viewer.token, 'auto', siblingBase);
      const updated: string[] = [];
      follower.setNotificationHandler('notifications/resources/updated', (n) => {
        updated.push(n.params.uri);
      });
      await follower.listen({ resourceSubscriptions: [pageUri(id)] });
      await editor.callTool({ name: 'page_update', arguments: { pageId: id, markdown: 'Changed here' } });
      // Dispatched here; the sibling (with Redis) hears it only through Redis.
      await dispatchEvents(t.database.db);
      await expect.poll(() => updated).toEqual([pageUri(id)]);
      await follower.close();
    } finally {
      await sibling.app.close();
      redis.disconnect();
    }
  });

  it('refuses to follow a page the caller cannot open, anything but a page, or too many', async () => {
    const editor = await modernClient(ws.editor.token);
    const made = await editor.callTool({ name: 'page_create', arguments: { workspaceId: ws.workspace.id, spaceId, title: 'Members only', markdown: 'x' } });
    const id = (made.structuredContent as { id: string }).id;
    const stranger = await createUser(t, 'Stranger');
    const outsider = await modernClient(stranger.token);
    await expect(outsider.listen({ resourceSubscriptions: [pageUri(id)] })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/NOT_FOUND|FORBIDDEN/),
    });
    await expect(outsider.listen({ resourceSubscriptions: ['file:///etc/passwd'] })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/Only pages/),
    });
    const many = Array.from({ length: 101 }, (_, i) => pageUri(`p${i}`));
    await expect(editor.listen({ resourceSubscriptions: many })).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/at most 100/) });
  });
});

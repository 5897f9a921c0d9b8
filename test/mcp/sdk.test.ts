import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolRegistry } from '../../src/mcp/registry.js';
import type { TestApp } from '../helpers/app.js';
import { createApiKey, type TestUser, type workspaceWithRoles } from '../helpers/factories.js';
import { listeningHandbook, mcpClients, toolErrorOf } from '../helpers/mcp.js';
import { createSpace } from '../spaces/helpers.js';

/** The standard MCP transport at /api/mcp, through the SDK's own client over a real socket. */

let t: TestApp;
let base: string;
let ws: Awaited<ReturnType<typeof workspaceWithRoles>>;
let spaceId: string;
let privateSpaceId: string;
const clients = mcpClients();
const connect = (token: string | TestUser) => clients.connect(base, typeof token === 'string' ? token : token.token);

const contentOf = (r: unknown) => (r as { content: Array<{ type: string; text?: string; uri?: string }> }).content;
const textOf = (r: unknown) => contentOf(r)[0].text as string;

beforeAll(async () => {
  ({ t, base, ws, spaceId } = await listeningHandbook());
  privateSpaceId = (await createSpace(t, ws.admin, ws.workspace.id, { name: 'Board', visibility: 'private' })).id;
});
afterAll(async () => {
  await clients.close();
  await t.close();
});

describe('standard MCP over Streamable HTTP', () => {
  it('initializes with server info, capabilities and instructions (API key)', async () => {
    const client = await connect(await createApiKey(t, ws.editor));
    expect(client.getServerVersion()).toMatchObject({ name: 'kb-service' });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {} });
    expect(client.getInstructions()).toContain('tool_search');
  });

  it('lists the same tools as the registry, with JSON Schema inputs and annotations', async () => {
    const client = await connect(ws.viewer);
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name).sort()).toEqual(
      toolRegistry()
        .tools.map((x) => x.name)
        .sort(),
    );
    const create = tools.find((x) => x.name === 'page_create');
    expect(create?.inputSchema).toMatchObject({ type: 'object', required: expect.arrayContaining(['workspaceId', 'spaceId', 'title']) });
    expect(create?.annotations).toMatchObject({ readOnlyHint: false });
    expect(tools.find((x) => x.name === 'page_get')?.annotations).toMatchObject({ readOnlyHint: true });
    expect(create?._meta).toEqual({ category: 'page' });
  });

  it('calls tools: results as structured content; domain errors as isError with the code', async () => {
    const editor = await connect(ws.editor);
    const viewer = await connect(ws.viewer);
    const workspaceId = ws.workspace.id;

    const listed = await viewer.callTool({ name: 'workspace_list', arguments: {} });
    expect(listed.isError).toBe(false);
    expect((listed.structuredContent as { items: Array<{ id: string }> }).items.map((w) => w.id)).toEqual([workspaceId]);

    const created = await editor.callTool({
      name: 'page_create',
      arguments: { workspaceId, spaceId, title: 'Expenses', markdown: '## Policy\n\nKeep **receipts**.' },
    });
    expect(created.isError).toBe(false);
    const page = created.structuredContent as { id: string; title: string };
    expect(page.title).toBe('Expenses');
    expect(JSON.parse(textOf(created))).toEqual(created.structuredContent);

    const read = await viewer.callTool({ name: 'page_get', arguments: { pageId: page.id } });
    expect((read.structuredContent as { markdown: string }).markdown).toContain('Keep **receipts**.');

    const denied = await viewer.callTool({ name: 'page_create', arguments: { workspaceId, spaceId, title: 'Nope', markdown: 'x' } });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toMatch(/^FORBIDDEN: /);
    expect(toolErrorOf(denied)).toMatchObject({ code: 'FORBIDDEN', status: 403 });

    const task = await editor.callTool({ name: 'task_create', arguments: { workspaceId, title: 'File receipts', priority: 'low' } });
    expect(task.structuredContent).toMatchObject({ title: 'File receipts', status: 'todo' });
    const missing = await viewer.callTool({ name: 'task_get', arguments: { taskId: 'nothing-here' } });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/^NOT_FOUND: /);

    const found = await viewer.callTool({ name: 'search_query', arguments: { workspaceId, query: 'receipts' } });
    expect((found.structuredContent as { items: Array<{ id: string }> }).items.map((r) => r.id).sort()).toEqual(
      [page.id, (task.structuredContent as { id: string }).id].sort(),
    );
    // The page hit comes as a resource link too (not the task): the client reads the page it wants as a resource.
    const links = contentOf(found).filter((c) => c.type === 'resource_link');
    expect(links).toEqual([{ type: 'resource_link', uri: `kb://pages/${page.id}`, name: 'Expenses', mimeType: 'text/markdown' }]);
    const linked = await viewer.readResource({ uri: links[0].uri as string });
    expect(linked.contents[0]).toMatchObject({ uri: `kb://pages/${page.id}`, mimeType: 'text/markdown', text: expect.stringContaining('Keep **receipts**.') });
    const pageList = await viewer.callTool({ name: 'page_list', arguments: { workspaceId, spaceId } });
    expect(
      contentOf(pageList)
        .filter((c) => c.type === 'resource_link')
        .map((c) => c.uri),
    ).toContain(`kb://pages/${page.id}`);
    // A tool that names no page adds none.
    expect(contentOf(task).map((c) => c.type)).toEqual(['text']);

    const outsider = await connect(ws.outsider);
    const hidden = await outsider.callTool({ name: 'search_query', arguments: { workspaceId, query: 'receipts' } });
    expect(hidden.isError).toBe(true);
    expect(textOf(hidden)).toMatch(/^FORBIDDEN: /);

    const bad = await viewer.callTool({ name: 'search_query', arguments: { workspaceId } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^VALIDATION_ERROR: /);
    expect(toolErrorOf(bad)).toMatchObject({ details: { field: 'query' } });

    const tools = await viewer.callTool({ name: 'tool_search', arguments: { query: 'complete a task' } });
    expect((tools.structuredContent as { items: Array<{ name: string }> }).items[0].name).toBe('task_complete');
  });

  it('answers an unknown tool with a protocol error', async () => {
    const client = await connect(ws.viewer);
    const err = await client.callTool({ name: 'page_explode', arguments: {} }).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/Unknown tool "page_explode"/);
    // The code is said once (the SDK's client adds "MCP error -32602:" to what the server sends).
    expect(err?.message.match(/MCP error/g)).toHaveLength(1);
  });

  it('lists no tool name a model API would refuse; the seed name knowledge.search still calls knowledge_search', async () => {
    const client = await connect(ws.viewer);
    const names = (await client.listTools()).tools.map((x) => x.name);
    for (const name of names) expect(name, name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(names).toContain('knowledge_search');
    expect(names).not.toContain('knowledge.search');
    const args = { workspaceId: ws.workspace.id, query: 'anything', mode: 'lexical' };
    const byNew = await client.callTool({ name: 'knowledge_search', arguments: args });
    const bySeed = await client.callTool({ name: 'knowledge.search', arguments: args });
    expect(byNew.isError).toBe(false);
    expect(bySeed.structuredContent).toEqual(byNew.structuredContent);
  });

  it('serves readable pages as resources: recent first, read as Markdown', async () => {
    const editor = await connect(ws.editor);
    const workspaceId = ws.workspace.id;
    const older = (await editor.callTool({ name: 'page_create', arguments: { workspaceId, spaceId, title: 'Older', markdown: 'First.' } }))
      .structuredContent as { id: string };
    await new Promise((r) => setTimeout(r, 5));
    const newer = (await editor.callTool({ name: 'page_create', arguments: { workspaceId, spaceId, title: 'Newer', markdown: 'Second *page*.' } }))
      .structuredContent as { id: string };
    const admin = await connect(ws.admin);
    const secret = (
      await admin.callTool({ name: 'page_create', arguments: { workspaceId, spaceId: privateSpaceId, title: 'Board minutes', markdown: 'Secret.' } })
    ).structuredContent as { id: string };

    const viewer = await connect(ws.viewer);
    const { resources } = await viewer.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris.indexOf(`kb://pages/${newer.id}`)).toBeLessThan(uris.indexOf(`kb://pages/${older.id}`));
    expect(uris.indexOf(`kb://pages/${newer.id}`)).toBeGreaterThanOrEqual(0);
    expect(uris).not.toContain(`kb://pages/${secret.id}`);
    expect(resources.find((r) => r.uri === `kb://pages/${newer.id}`)).toMatchObject({ name: 'Newer', mimeType: 'text/markdown' });
    expect((await admin.listResources()).resources.map((r) => r.uri)).toContain(`kb://pages/${secret.id}`);
    expect(resources.find((r) => r.uri === `kb://pages/${older.id}`)?.description).toMatch(/^Page in space ".+", edited \d{4}-/);
    // A trashed page is no resource.
    await editor.callTool({ name: 'page_delete', arguments: { workspaceId, pageId: older.id } });
    expect((await viewer.listResources()).resources.map((r) => r.uri)).not.toContain(`kb://pages/${older.id}`);

    const read = await viewer.readResource({ uri: `kb://pages/${newer.id}` });
    expect(read.contents).toEqual([{ uri: `kb://pages/${newer.id}`, mimeType: 'text/markdown', text: '# Newer\n\nSecond *page*.\n' }]);
    await expect(viewer.readResource({ uri: `kb://pages/${secret.id}` })).rejects.toMatchObject({ code: -32602 });
    await expect(viewer.readResource({ uri: 'kb://pages/nothing' })).rejects.toMatchObject({ code: -32602 });
    await expect(viewer.readResource({ uri: 'https://example.com/x' })).rejects.toMatchObject({ code: -32602 });

    const { resourceTemplates } = await viewer.listResourceTemplates();
    expect(resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: 'kb://pages/{pageId}', mimeType: 'text/markdown' })]);
  });

  it('needs credentials, JSON and event-stream in Accept, and POST', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const anonymous = await fetch(`${base}/api/mcp`, { method: 'POST', headers, body: JSON.stringify(init) });
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error.code).toBe('UNAUTHORIZED');
    await expect(connect('not-a-key')).rejects.toThrow();

    const auth = { ...headers, authorization: `Bearer ${ws.viewer.token}` };
    const okRes = await fetch(`${base}/api/mcp`, { method: 'POST', headers: { ...auth, 'x-request-id': 'mcp-req-1' }, body: JSON.stringify(init) });
    expect(okRes.status).toBe(200);
    expect(okRes.headers.get('x-request-id')).toBe('mcp-req-1');
    expect(okRes.headers.get('x-ratelimit-limit')).toBeTruthy();
    expect((await okRes.json()).result.serverInfo.name).toBe('kb-service');

    const noAccept = await fetch(`${base}/api/mcp`, { method: 'POST', headers: { ...auth, accept: 'application/json' }, body: JSON.stringify(init) });
    expect(noAccept.status).toBe(406);
    const get = await fetch(`${base}/api/mcp`, { headers: auth });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });
});

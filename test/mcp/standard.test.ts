import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../src/mcp/categories.js';
import { ALL_TOOLS, TOOL_NAME, ToolRegistry, toolRegistry } from '../../src/mcp/registry.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createApiKey, type TestUser, workspaceWithRoles } from '../helpers/factories.js';

let t: TestApp;
let ws: Awaited<ReturnType<typeof workspaceWithRoles>>;
let adminKey: string;

beforeAll(async () => {
  t = await createTestApp();
  ws = await workspaceWithRoles(t);
  adminKey = await createApiKey(t, ws.admin);
});
afterAll(() => t.close());

const post = (path: string, token: string | undefined, body?: unknown) => t.request({ method: 'POST', url: path, token, body });
const call = (user: TestUser | string, name: string, args?: Record<string, unknown>) =>
  post('/api/mcp-standard/call_tool', typeof user === 'string' ? user : user.token, { name, arguments: args });

describe('catalog invariants', () => {
  const registry = toolRegistry();

  it('names are unique and well-formed, area first', () => {
    const names = ALL_TOOLS.map((tool) => tool.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) {
      expect(name, name).toMatch(TOOL_NAME);
      expect(name).toMatch(/^[a-z]+(_[a-z]+)+$/);
    }
    expect(names).toEqual(expect.arrayContaining(['page_create', 'page_update', 'space_list', 'search_query', 'research_create', 'tool_search', 'user_me']));
  });

  it('every inputSchema is a JSON Schema object whose properties are the zod shape', () => {
    for (const d of registry.list()) {
      expect(d.inputSchema.type, d.name).toBe('object');
      expect(d.inputSchema.$schema).toBeUndefined();
      const props = Object.keys(d.inputSchema.properties ?? {});
      const tool = registry.get(d.name)!;
      expect(props.sort(), d.name).toEqual(Object.keys(tool.input.shape).sort());
      for (const r of d.inputSchema.required ?? []) expect(props, `${d.name}.${r}`).toContain(r);
      expect(JSON.parse(JSON.stringify(d.inputSchema))).toEqual(d.inputSchema);
      expect(d.description.length, d.name).toBeGreaterThan(20);
      expect(typeof d.annotations.readOnlyHint).toBe('boolean');
    }
  });

  it('every inputSchema and outputSchema compiles in strict draft-07 and draft 2020-12 validators (what MCP Inspector --strict and clients use)', () => {
    const validators = { 'draft-07': new Ajv({ strict: true, allowUnionTypes: true }), '2020-12': new Ajv2020({ strict: true, allowUnionTypes: true }) };
    for (const [draft, ajv] of Object.entries(validators)) {
      formats.default(ajv);
      for (const d of registry.list()) {
        for (const [which, schema] of Object.entries({ input: d.inputSchema, output: registry.outputSchema(d.name) })) {
          expect(() => ajv.compile(schema), `${draft} ${d.name} ${which}`).not.toThrow();
          expect(JSON.stringify(schema), `${d.name} ${which}`).not.toContain('"items":false');
          expect(schema.$schema, `${d.name} ${which}`).toBeUndefined();
          expect(schema.type, `${d.name} ${which}`).toBe('object');
        }
      }
    }
    // What they accept is what the tool accepts: a call that fits the schema passes, one that does not is refused.
    const create = validators['draft-07'].compile(registry.describe('webhook_create').inputSchema);
    expect(create({ workspaceId: 'w', url: 'https://example.com/hook', events: ['page.created'] })).toBe(true);
    expect(create({ workspaceId: 'w', url: 'https://example.com/hook', events: [] })).toBe(false);
    expect(create({ workspaceId: 'w', url: 'https://example.com/hook', events: ['page.created'], extra: 1 })).toBe(false);
  });

  it('read-only tools are never destructive; categories are known', () => {
    for (const tool of ALL_TOOLS) {
      if (tool.annotations.readOnlyHint) expect(tool.annotations.destructiveHint, tool.name).not.toBe(true);
      expect(CATEGORIES.map((c) => c.id)).toContain(tool.category);
    }
  });

  it('refuses a duplicate or badly named tool', () => {
    const [one] = ALL_TOOLS;
    expect(() => new ToolRegistry([one, one])).toThrow(/twice/);
    expect(() => new ToolRegistry([{ ...one, name: 'Page-Create' }])).toThrow(/lower-case/);
  });
});

describe('/api/mcp-standard endpoints', () => {
  it('need credentials', async () => {
    for (const path of ['initialize', 'list_tools', 'search_tools', 'list_categories', 'get_tools_by_category', 'call_tool']) {
      const res = await post(`/api/mcp-standard/${path}`, undefined, {});
      expect(res.status, path).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
    }
    expect((await post('/api/mcp-standard/list_tools', 'not-a-key')).status).toBe(401);
  });

  it('initialize: protocol version, server info, capabilities and instructions (API key)', async () => {
    const res = await post('/api/mcp-standard/initialize', adminKey, { protocolVersion: '2025-06-18', clientInfo: { name: 'test' } });
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toBeTruthy();
    expect(res.body.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(res.body.serverInfo).toMatchObject({ name: 'kb-service', version: expect.any(String) });
    expect(res.body.capabilities).toMatchObject({ tools: {}, resources: {} });
    expect(res.body.instructions).toContain('workspace_list');
    expect(res.body.instructions).toContain('markdown');
    expect(res.body.instructions).toContain('tool_search');
    // also without a body, and at the unprefixed alias
    const bare = await post('/mcp-standard/initialize', ws.viewer.token);
    expect(bare.status).toBe(200);
    expect(bare.body.serverInfo.name).toBe('kb-service');
  });

  it('list_tools: every tool with name, description, inputSchema', async () => {
    const res = await post('/api/mcp-standard/list_tools', ws.viewer.token);
    expect(res.status).toBe(200);
    expect(res.body.tools).toHaveLength(ALL_TOOLS.length);
    const pageCreate = res.body.tools.find((x: { name: string }) => x.name === 'page_create');
    expect(pageCreate).toMatchObject({
      category: 'page',
      inputSchema: { type: 'object', required: expect.arrayContaining(['workspaceId', 'spaceId', 'title']) },
    });
    expect(pageCreate.inputSchema.properties.markdown).toMatchObject({ type: 'string' });
    expect(pageCreate.annotations).toMatchObject({ readOnlyHint: false });
    // The seed's name for knowledge search, here as the seed's interface gave it.
    const names = res.body.tools.map((x: { name: string }) => x.name);
    expect(names).toContain('knowledge.search');
    expect(names).not.toContain('knowledge_search');
    const alias = await post('/mcp-standard/list_tools', ws.viewer.token, {});
    expect(alias.body.tools.map((x: { name: string }) => x.name)).toEqual(res.body.tools.map((x: { name: string }) => x.name));
  });

  it('list_categories: ids, names and counts that match list_tools', async () => {
    const res = await post('/api/mcp-standard/list_categories', ws.viewer.token);
    expect(res.status).toBe(200);
    const cats: Array<{ id: string; name: string; toolCount: number }> = res.body.categories;
    expect(cats).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: 'page', name: 'Page Management' }),
        expect.objectContaining({ id: 'task', name: 'Task Management' }),
      ]),
    );
    const tools = (await post('/api/mcp-standard/list_tools', ws.viewer.token)).body.tools as Array<{ category: string }>;
    for (const c of cats) expect(c.toolCount, c.id).toBe(tools.filter((x) => x.category === c.id).length);
    expect(cats.reduce((n, c) => n + c.toolCount, 0)).toBe(tools.length);
    expect(cats.every((c) => c.toolCount > 0)).toBe(true);
  });

  it('get_tools_by_category: the tools of one category; unknown category 404', async () => {
    const res = await post('/api/mcp-standard/get_tools_by_category', ws.viewer.token, { category: 'task' });
    expect(res.status).toBe(200);
    expect(res.body.category).toMatchObject({ id: 'task', name: 'Task Management' });
    expect(res.body.tools.length).toBe(res.body.category.toolCount);
    expect(res.body.tools.every((x: { category: string }) => x.category === 'task')).toBe(true);
    expect(res.body.tools.map((x: { name: string }) => x.name)).toContain('task_complete');

    const unknown = await post('/api/mcp-standard/get_tools_by_category', ws.viewer.token, { category: 'nope' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'NOT_FOUND', details: { category: 'nope' } });
    const missing = await post('/api/mcp-standard/get_tools_by_category', ws.viewer.token, {});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'MISSING_REQUIRED', details: { field: 'category' } });
  });

  it('search_tools: ranked by name, description and category', async () => {
    const cases: Array<[string, string]> = [
      ['create a page', 'page_create'],
      ['move page', 'page_move'],
      ['restore an old version of a page', 'page_restore'],
      ['recover from trash', 'page_recover'],
      ['assign task to someone', 'task_assign'],
      ['mark task complete', 'task_complete'],
      ['triage buckets', 'task_triage_summary'],
      ['find tools', 'tool_search'],
      ['link a task to a goal', 'goal_link_task'],
      ['who am i', 'user_me'],
      ['autocomplete', 'search_suggest'],
      ['read attachment text', 'attachment_read'],
      ['cancel research', 'research_cancel'],
    ];
    for (const [query, best] of cases) {
      const res = await post('/api/mcp-standard/search_tools', ws.viewer.token, { query, limit: 3 });
      expect(res.status, query).toBe(200);
      expect(res.body.tools.length).toBeLessThanOrEqual(3);
      expect(res.body.tools[0]?.name, query).toBe(best);
      const scores = res.body.tools.map((x: { score: number }) => x.score);
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    }
    const def = await post('/api/mcp-standard/search_tools', ws.viewer.token, { query: 'page' });
    expect(def.body.tools.length).toBe(10);
    expect(def.body.tools.every((x: { inputSchema: { type: string } }) => x.inputSchema.type === 'object')).toBe(true);
    const none = await post('/api/mcp-standard/search_tools', ws.viewer.token, { query: 'zzqxj' });
    expect(none.body.tools).toEqual([]);
    const bad = await post('/api/mcp-standard/search_tools', ws.viewer.token, { query: 'page', limit: 0 });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'limit' } });
    const missing = await post('/api/mcp-standard/search_tools', ws.viewer.token, {});
    expect(missing.status).toBe(400);
  });

  it('call_tool: an MCP tool result', async () => {
    const res = await call(ws.viewer, 'workspace_get', { workspaceId: ws.workspace.id });
    expect(res.status).toBe(200);
    expect(res.body.isError).toBe(false);
    expect(res.body.structuredContent).toMatchObject({ id: ws.workspace.id, memberCount: 3 });
    expect(res.body.content).toEqual([{ type: 'text', text: JSON.stringify(res.body.structuredContent) }]);
  });

  it('call_tool: unknown tool 404 with details.tool', async () => {
    const res = await call(ws.viewer, 'page_explode', {});
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', details: { tool: 'page_explode' } });
    const viaAlias = await post('/mcp-standard/call_tool', ws.viewer.token, { name: 'nope' });
    expect(viaAlias.status).toBe(404);
  });

  it('call_tool: bad arguments 422 VALIDATION_ERROR naming the field', async () => {
    const missing = await call(ws.editor, 'space_list', {});
    expect(missing.status).toBe(422);
    expect(missing.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { tool: 'space_list', field: 'workspaceId' } });
    const wrongType = await call(ws.editor, 'task_create', { workspaceId: ws.workspace.id, title: 'x', priority: 'urgent' });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.error.details).toMatchObject({ field: 'priority' });
    const notObject = await post('/api/mcp-standard/call_tool', ws.editor.token, { name: 'space_list', arguments: [1] });
    expect(notObject.status).toBe(422);
    expect(notObject.body.error.details).toMatchObject({ field: 'arguments' });
    const noName = await post('/api/mcp-standard/call_tool', ws.editor.token, { arguments: {} });
    expect(noName.status).toBe(400);
    expect(noName.body.error).toMatchObject({ code: 'MISSING_REQUIRED', details: { field: 'name' } });
  });

  it('call_tool: a viewer calling a write tool gets 403, as over REST, and nothing is written', async () => {
    const viaTool = await call(ws.viewer, 'space_create', { workspaceId: ws.workspace.id, name: 'Nope' });
    const viaRest = await t.request({ method: 'POST', url: '/api/v1/spaces', token: ws.viewer.token, body: { workspaceId: ws.workspace.id, name: 'Nope' } });
    expect(viaTool.status).toBe(403);
    expect(viaTool.body.error.code).toBe('FORBIDDEN');
    expect(viaRest.status).toBe(viaTool.status);
    expect(viaRest.body.error.code).toBe(viaTool.body.error.code);
    const list = await call(ws.viewer, 'space_list', { workspaceId: ws.workspace.id });
    expect(list.body.structuredContent.items.map((s: { name: string }) => s.name)).not.toContain('Nope');
    const task = await call(ws.viewer, 'task_create', { workspaceId: ws.workspace.id, title: 'x' });
    expect(task.status).toBe(403);
  });

  it('call_tool: an outsider sees 403 for a workspace that is not theirs; a tool acts with the caller’s own permissions', async () => {
    const res = await call(ws.outsider, 'workspace_get', { workspaceId: ws.workspace.id });
    const rest = await t.request({ url: `/api/v1/workspaces/${ws.workspace.id}`, token: ws.outsider.token });
    expect(res.status).toBe(rest.status);
    expect(res.body.error.code).toBe(rest.body.error.code);
    const me = await call(adminKey, 'user_me', {});
    expect(me.body.structuredContent).toMatchObject({ id: ws.admin.id });
  });

  it('are documented in the OpenAPI document (the unprefixed alias hidden)', async () => {
    const res = await t.request({ url: '/api/openapi.json' });
    expect(res.status).toBe(200);
    const paths = Object.keys(res.body.paths);
    for (const p of ['initialize', 'list_tools', 'search_tools', 'list_categories', 'get_tools_by_category', 'call_tool'])
      expect(paths, p).toContain(`/api/mcp-standard/${p}`);
    expect(paths).toContain('/api/mcp');
    expect(paths.some((p) => p.startsWith('/mcp-standard'))).toBe(false);
  });

  it('call_tool: an unknown argument is a 422 naming it, not silently dropped', async () => {
    const res = await call(ws.viewer, 'space_list', { workspace_id: ws.workspace.id });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'workspace_id', reason: 'unknown_argument' } });
    expect(res.body.error.message).toContain('workspaceId');
  });

  it('call_tool: text with a NUL character is a 422, never a 500', async () => {
    const sp = await call(ws.admin, 'space_create', { workspaceId: ws.workspace.id, name: 'Nul' });
    const res = await call(ws.editor, 'task_create', { workspaceId: ws.workspace.id, title: 'a\u0000b' });
    expect(sp.status).toBe(200);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });
});

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Worker } from '../../src/jobs/worker.js';
import type { TestApp } from '../helpers/app.js';
import type { TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { listeningHandbook, mcpClients, toolErrorOf } from '../helpers/mcp.js';
import { importWorker, makeZip, readPage, readTree, titles } from '../imports/helpers.js';

/** `import_create` and `import_get` through the official MCP SDK client over a real socket, with an imports worker. */

let t: TestApp;
let worker: Worker;
let base: string;
let ws: Awaited<ReturnType<typeof workspaceWithRoles>>;
let spaceId: string;
const clients = mcpClients();
const connect = (user: TestUser) => clients.connect(base, user.token);

interface ImportView {
  id: string;
  status: string;
  detectedSource: string | null;
  progress: { done: number; total: number };
  result: { pages: number; attachments: number; rootPageIds: string[] } | null;
  warnings: Array<{ path: string; message: string }>;
  error: { code: string; message: string } | null;
}

const textOf = (r: unknown) => (r as { content: Array<{ type: string; text: string }> }).content[0].text;

/** Calls `import_get` until the import has succeeded or failed. */
async function waitOverMcp(client: Client, importId: string): Promise<ImportView> {
  const until = Date.now() + 30_000;
  for (;;) {
    const got = await client.callTool({ name: 'import_get', arguments: { importId } });
    expect(got.isError, textOf(got)).toBe(false);
    const view = got.structuredContent as unknown as ImportView;
    if (view.status === 'succeeded' || view.status === 'failed' || Date.now() > until) return view;
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  ({ t, base, ws, spaceId } = await listeningHandbook());
  worker = importWorker(t);
});

afterAll(async () => {
  await clients.close();
  await worker?.stop();
  await t?.close();
});

const base64 = (b: Buffer | string) => Buffer.from(b).toString('base64');

describe('imports over MCP', () => {
  it('lists import_create and import_get with their schemas, under Import and Export', async () => {
    const client = await connect(ws.viewer);
    const { tools } = await client.listTools();
    const create = tools.find((x) => x.name === 'import_create');
    expect(create?.inputSchema).toMatchObject({ type: 'object', required: expect.arrayContaining(['workspaceId', 'spaceId', 'filename', 'data']) });
    expect(Object.keys(create?.inputSchema.properties ?? {}).sort()).toEqual(['data', 'filename', 'parentPageId', 'source', 'spaceId', 'workspaceId']);
    expect(create?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(create?._meta).toEqual({ category: 'export' });
    expect(tools.find((x) => x.name === 'import_get')?.annotations).toMatchObject({ readOnlyHint: true });
    // an agent that asks for it finds it
    const found = await client.callTool({ name: 'tool_search', arguments: { query: 'import a notion export' } });
    expect((found.structuredContent as { items: Array<{ name: string }> }).items[0].name).toBe('import_create');
  });

  it('imports a Base64 zip, polls it to success with import_get, and answers the same record as REST', async () => {
    const editor = await connect(ws.editor);
    const zip = await makeZip({ 'Guide.md': 'Read [setup](Guide/Setup.md).', 'Guide/Setup.md': 'Install it. See [gone](missing.md).' });
    const created = await editor.callTool({
      name: 'import_create',
      arguments: { workspaceId: ws.workspace.id, spaceId, filename: 'guide.zip', data: base64(zip) },
    });
    expect(created.isError, textOf(created)).toBe(false);
    const started = created.structuredContent as unknown as ImportView;
    expect(started).toMatchObject({ status: 'queued', filename: 'guide.zip', source: 'auto', spaceId, parentPageId: null, size: zip.length, result: null });

    const done = await waitOverMcp(editor, started.id);
    expect(done).toMatchObject({ status: 'succeeded', detectedSource: 'markdown', progress: { done: 2, total: 2 }, result: { pages: 2, attachments: 0 } });
    expect(done.warnings).toEqual([{ path: 'Guide/Setup.md', message: expect.stringContaining('missing.md') }]);
    const tree = await readTree(t, ws.editor, ws.workspace.id, spaceId);
    expect(titles(tree)).toEqual(['Guide', ['Setup']]);
    expect(done.result?.rootPageIds).toEqual([tree[0].id]);
    expect((await readPage(t, ws.editor, tree[0].children[0].id)).markdown).toContain('Install it.');

    const rest = await t.request({ url: `/api/v1/imports/${started.id}`, token: ws.editor.token });
    expect(rest.body.data).toEqual(done);
  });

  it('puts one Markdown page under parentPageId', async () => {
    const editor = await connect(ws.editor);
    const parent = await editor.callTool({ name: 'page_create', arguments: { workspaceId: ws.workspace.id, spaceId, title: 'Minutes', markdown: '' } });
    const parentPageId = (parent.structuredContent as { id: string }).id;
    const created = await editor.callTool({
      name: 'import_create',
      arguments: { workspaceId: ws.workspace.id, spaceId, parentPageId, source: 'markdown', filename: 'Monday.md', data: base64('We decided **things**.') },
    });
    expect(created.isError, textOf(created)).toBe(false);
    const done = await waitOverMcp(editor, (created.structuredContent as { id: string }).id);
    expect(done).toMatchObject({ status: 'succeeded', result: { pages: 1, attachments: 0 } });
    const page = await readPage(t, ws.editor, done.result?.rootPageIds[0] as string);
    expect(page).toMatchObject({ title: 'Monday', parentId: parentPageId });
    expect(page.markdown).toContain('We decided **things**.');
  });

  it('answers refusals as tool errors with their codes, and keeps an import to its requester', async () => {
    const editor = await connect(ws.editor);
    const target = { workspaceId: ws.workspace.id, spaceId };

    const notZip = await editor.callTool({ name: 'import_create', arguments: { ...target, filename: 'docs.zip', data: base64('plain text') } });
    expect(notZip.isError).toBe(true);
    expect(textOf(notZip)).toMatch(/^VALIDATION_ERROR: docs\.zip is named \.zip but is not a zip/);

    const notBase64 = await editor.callTool({ name: 'import_create', arguments: { ...target, filename: 'a.md', data: 'not base64!' } });
    expect(notBase64.isError).toBe(true);
    expect(textOf(notBase64)).toMatch(/^VALIDATION_ERROR: /);

    const badSource = await editor.callTool({ name: 'import_create', arguments: { ...target, source: 'word', filename: 'a.md', data: base64('x') } });
    expect(badSource.isError).toBe(true);
    expect(toolErrorOf(badSource)).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'source' } });

    const viewer = await connect(ws.viewer);
    const denied = await viewer.callTool({ name: 'import_create', arguments: { ...target, filename: 'a.md', data: base64('x') } });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toMatch(/^FORBIDDEN: /);

    const outsider = await connect(ws.outsider);
    const stranger = await outsider.callTool({ name: 'import_create', arguments: { ...target, filename: 'a.md', data: base64('x') } });
    expect(stranger.isError).toBe(true);
    expect(textOf(stranger)).toMatch(/^FORBIDDEN: /);

    const mine = await editor.callTool({ name: 'import_create', arguments: { ...target, filename: 'Mine.md', data: base64('Mine.') } });
    const id = (mine.structuredContent as { id: string }).id;
    await waitOverMcp(editor, id);
    const admin = await connect(ws.admin);
    const other = await admin.callTool({ name: 'import_get', arguments: { importId: id } });
    expect(other.isError).toBe(true);
    expect(textOf(other)).toMatch(/^NOT_FOUND: /);
  });
});

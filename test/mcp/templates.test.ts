import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import type { TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { listeningHandbook, mcpClients } from '../helpers/mcp.js';

/** The template tools through the official MCP SDK client over a real socket (issue 30). */

let t: TestApp;
let base: string;
let ws: Awaited<ReturnType<typeof workspaceWithRoles>>;
let spaceId: string;
const clients = mcpClients();
const connect = (user: TestUser) => clients.connect(base, user.token);

const textOf = (r: unknown) => (r as { content: Array<{ type: string; text: string }> }).content[0].text;

beforeAll(async () => {
  ({ t, base, ws, spaceId } = await listeningHandbook());
});
afterAll(async () => {
  await clients.close();
  await t.close();
});

describe('template tools', () => {
  it('lists the six tools in the template category', async () => {
    const { tools } = await (await connect(ws.viewer)).listTools();
    const mine = tools.filter((x) => (x._meta as { category?: string } | undefined)?.category === 'template').map((x) => x.name);
    expect(mine.sort()).toEqual(['page_create_from_template', 'template_create', 'template_delete', 'template_get', 'template_list', 'template_update']);
    expect(tools.find((x) => x.name === 'template_get')?.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((x) => x.name === 'template_delete')?.annotations).toMatchObject({ destructiveHint: true });
  });

  it('creates, lists, reads, updates, starts a page from and deletes a template; errors carry their codes', async () => {
    const editor = await connect(ws.editor);
    const viewer = await connect(ws.viewer);
    const workspaceId = ws.workspace.id;

    const created = await editor.callTool({
      name: 'template_create',
      arguments: { workspaceId, spaceId, title: 'Decision record', markdown: '# {{title}}\n\nDecided on {{date}} by {{author}}.' },
    });
    expect(created.isError).toBe(false);
    const tpl = created.structuredContent as { id: string; title: string; spaceId: string };
    expect(tpl).toMatchObject({ title: 'Decision record', spaceId });

    const listed = await viewer.callTool({ name: 'template_list', arguments: { workspaceId, spaceId } });
    expect(listed.structuredContent).toMatchObject({ items: [{ id: tpl.id, title: 'Decision record' }], total: 1, page: 1, hasMore: false });

    const read = await viewer.callTool({ name: 'template_get', arguments: { templateId: tpl.id } });
    expect(read.structuredContent).toMatchObject({ id: tpl.id, markdown: '# {{title}}\n\nDecided on {{date}} by {{author}}.\n' });
    expect(read.structuredContent).not.toHaveProperty('content');
    const tree = await viewer.callTool({ name: 'template_get', arguments: { templateId: tpl.id, format: 'json' } });
    expect((tree.structuredContent as { content: { type: string } }).content.type).toBe('doc');

    const updated = await editor.callTool({ name: 'template_update', arguments: { templateId: tpl.id, description: 'For ADRs' } });
    expect(updated.structuredContent).toMatchObject({ title: 'Decision record', description: 'For ADRs' });

    const page = await editor.callTool({
      name: 'page_create_from_template',
      arguments: { templateId: tpl.id, spaceId, title: 'Use PostgreSQL', date: '2026-12-06' },
    });
    expect(page.isError, textOf(page)).toBe(false);
    const pageId = (page.structuredContent as { id: string }).id;
    const got = await viewer.callTool({ name: 'page_get', arguments: { pageId } });
    expect((got.structuredContent as { markdown: string }).markdown).toBe('# Use PostgreSQL\n\nDecided on 2026-12-06 by Editor.\n');

    const denied = await viewer.callTool({ name: 'template_create', arguments: { workspaceId, spaceId, title: 'Nope', markdown: 'x' } });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toMatch(/^FORBIDDEN: /);
    const bad = await editor.callTool({ name: 'page_create_from_template', arguments: { templateId: tpl.id, spaceId, date: 'yesterday' } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^VALIDATION_ERROR: /);

    const viewerUpdate = await viewer.callTool({ name: 'template_update', arguments: { templateId: tpl.id, title: 'Mine' } });
    expect(textOf(viewerUpdate)).toMatch(/^FORBIDDEN: /);
    const viewerDelete = await viewer.callTool({ name: 'template_delete', arguments: { templateId: tpl.id } });
    expect(textOf(viewerDelete)).toMatch(/^FORBIDDEN: /);

    const deleted = await editor.callTool({ name: 'template_delete', arguments: { templateId: tpl.id } });
    expect(deleted.structuredContent).toEqual({ id: tpl.id, deleted: true });
    const missing = await viewer.callTool({ name: 'template_get', arguments: { templateId: tpl.id } });
    expect(textOf(missing)).toMatch(/^NOT_FOUND: /);
    const outsider = await connect(ws.outsider);
    const hidden = await outsider.callTool({ name: 'template_list', arguments: { workspaceId } });
    expect(textOf(hidden)).toMatch(/^FORBIDDEN: /);
  });
});

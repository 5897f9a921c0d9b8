import { describe, expect, it } from 'vitest';
import { useHandbookWithMcp } from '../helpers/mcp.js';

/** Callouts, toggles, math and Mermaid diagrams written as Markdown through REST and MCP, and read back the same. */

const h = useHandbookWithMcp();

const MARKDOWN = [
  ':::warning 🔥',
  'Rotate the **keys** first.',
  '',
  ':::',
  '',
  '<details>',
  '<summary>Why?</summary>',
  '',
  'Because the old ones leaked.',
  '',
  '</details>',
  '',
  'Energy is $E = mc^2$, price \\$5.',
  '',
  '$$',
  '\\sum_{i=1}^n i',
  '$$',
  '',
  '```mermaid',
  'graph TD',
  '  A-->B',
  '```',
  '',
].join('\n');

async function readMarkdown(id: string) {
  const res = await h.t.request({ url: `/api/v1/pages/${id}`, token: h.ws.editor.token, query: { format: 'markdown' } });
  expect(res.status).toBe(200);
  return res.body.data.markdown as string;
}

describe('new blocks through the API', () => {
  it('POST /v1/pages with Markdown builds the nodes and reads back the same Markdown', async () => {
    const res = await h.t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: h.ws.editor.token,
      body: { workspaceId: h.ws.workspace.id, spaceId: h.spaceId, title: 'Blocks', markdown: MARKDOWN },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const got = await h.t.request({ url: `/api/v1/pages/${res.body.data.id}`, token: h.ws.editor.token });
    const types = (got.body.data.content.content as { type: string }[]).map((n) => n.type);
    expect(types).toEqual(['callout', 'details', 'paragraph', 'mathBlock', 'codeBlock']);
    expect(await readMarkdown(res.body.data.id)).toBe(MARKDOWN);
  });

  it('MCP page_create with Markdown, then page_get gives the same Markdown', async () => {
    const created = await h.client.callTool({
      name: 'page_create',
      arguments: { workspaceId: h.ws.workspace.id, spaceId: h.spaceId, title: 'Blocks', markdown: MARKDOWN },
    });
    expect(created.isError, JSON.stringify(created.content)).toBe(false);
    const id = (created.structuredContent as { id: string }).id;
    const read = await h.client.callTool({ name: 'page_get', arguments: { pageId: id } });
    expect((read.structuredContent as { markdown: string }).markdown).toBe(MARKDOWN);
    const updated = await h.client.callTool({ name: 'page_update', arguments: { pageId: id, markdown: '> [!tip]\n> Use $x$.' } });
    expect(updated.isError, JSON.stringify(updated.content)).toBe(false);
    expect(await readMarkdown(id)).toBe(':::success\nUse $x$.\n\n:::\n');
  });

  it('refuses a huge formula with 422 naming the limit', async () => {
    const res = await h.t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: h.ws.editor.token,
      body: { workspaceId: h.ws.workspace.id, spaceId: h.spaceId, title: 'Huge', markdown: `$$\n${'x'.repeat(10_001)}\n$$` },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'markdown' } });
    expect(res.body.error.message).toContain('at most 10000 characters');
    const json = await h.t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: h.ws.editor.token,
      body: {
        workspaceId: h.ws.workspace.id,
        spaceId: h.spaceId,
        title: 'Bad',
        content: { type: 'doc', content: [{ type: 'callout', attrs: { type: 'info', icon: '<script>' }, content: [{ type: 'paragraph' }] }] },
      },
    });
    expect(json.status, JSON.stringify(json.body)).toBe(422);
    expect(json.body.error.code).toBe('VALIDATION_ERROR');
  });
});

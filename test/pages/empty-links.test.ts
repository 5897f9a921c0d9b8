import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import type { workspaceWithRoles } from '../helpers/factories.js';
import { connectMcp, listeningHandbook } from '../helpers/mcp.js';

/**
 * Empty link destinations are valid CommonMark and Outline's export writes them (`[text]()` for a link never filled
 * in). Issue 29: each answered 500 INTERNAL_ERROR on POST /v1/pages and MCP page_create. The text stays; the link
 * that points nowhere goes; an empty image goes, its alt text kept as text.
 */

let t: TestApp;
let base: string;
let ws: Awaited<ReturnType<typeof workspaceWithRoles>>;
let spaceId: string;
let client: Client;

beforeAll(async () => {
  ({ t, base, ws, spaceId } = await listeningHandbook());
  client = await connectMcp(base, ws.editor.token);
});
afterAll(async () => {
  await client?.close();
  await t.close();
});

/** Each form, and the Markdown its page reads back as: the words kept, no link or image left. */
const FORMS: [string, string, string][] = [
  ['empty parentheses', 'Read [the guide]() first.', 'Read the guide first.\n'],
  ['empty image', 'Before\n\n![]()\n\nAfter', 'Before\n\nAfter\n'],
  ['empty image with alt text', '![A diagram of the flow]()', 'A diagram of the flow\n'],
  ['empty angle brackets', 'See [below](<>) now.', 'See below now.\n'],
  ['a space', 'See [x]( ) too.', 'See x too.\n'],
  ['empty reference definition', '[r]: <>\n\nAs [the ref][r] says.', 'As the ref says.\n'],
  ['a mention without an id', 'Ask [@Ann](mention:) today.', 'Ask @Ann today.\n'],
  ['next to a real link', 'A [gap]() and [a site](https://example.com).', 'A gap and [a site](https://example.com).\n'],
];

async function readMarkdown(id: string) {
  const res = await t.request({ url: `/api/v1/pages/${id}`, token: ws.editor.token, query: { format: 'markdown' } });
  expect(res.status).toBe(200);
  return res.body.data.markdown as string;
}

describe('empty link destinations', () => {
  it.each(FORMS)('REST POST /v1/pages keeps the text of %s (201)', async (_name, markdown, expected) => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: ws.editor.token,
      body: { workspaceId: ws.workspace.id, spaceId, title: 'Links', markdown },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await readMarkdown(res.body.data.id)).toBe(expected);
    // And a write of the same Markdown (PUT) likewise.
    const put = await t.request({ method: 'PUT', url: `/api/v1/pages/${res.body.data.id}`, token: ws.editor.token, body: { markdown: `${markdown}\n\nmore` } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
  });

  it.each(FORMS)('MCP page_create (the SDK client) keeps the text of %s', async (_name, markdown, expected) => {
    const created = await client.callTool({ name: 'page_create', arguments: { workspaceId: ws.workspace.id, spaceId, title: 'Links', markdown } });
    expect(created.isError, JSON.stringify(created.content)).toBe(false);
    expect(await readMarkdown((created.structuredContent as { id: string }).id)).toBe(expected);
  });

  it('answers a link URL over the length limit 422, not 500', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: ws.editor.token,
      body: { workspaceId: ws.workspace.id, spaceId, title: 'Long', markdown: `[x](https://example.com/${'a'.repeat(3000)})` },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'markdown' } });
  });
});

import { describe, expect, it } from 'vitest';
import { exportAndUnzip, exportWorker } from '../exports/helpers.js';
import { useHandbookWithMcp } from '../helpers/mcp.js';
import { createSpace } from '../spaces/helpers.js';

/** The live blocks (subpages, table of contents) written as Markdown and JSON through REST and MCP, and read back. */

const h = useHandbookWithMcp();

const MARKDOWN = '# Onboarding\n\n::toc\n\n## Pages below\n\n::subpages\n';
const docOf = (...content: object[]) => ({ type: 'doc', content });

function create(body: Record<string, unknown>) {
  return h.t.request({
    method: 'POST',
    url: '/api/v1/pages',
    token: h.ws.editor.token,
    body: { workspaceId: h.ws.workspace.id, spaceId: h.spaceId, title: 'Live', ...body },
  });
}
async function read(id: string) {
  const res = await h.t.request({ url: `/api/v1/pages/${id}`, token: h.ws.editor.token, query: { format: 'markdown' } });
  expect(res.status).toBe(200);
  return res.body.data as { content: { content: { type: string }[] }; markdown: string };
}

describe('live blocks through the API', () => {
  it('POST /v1/pages with Markdown builds both blocks and reads back the same Markdown; PUT JSON does too', async () => {
    const res = await create({ markdown: MARKDOWN });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const page = await read(res.body.data.id);
    expect(page.content.content.map((n) => n.type)).toEqual(['heading', 'tableOfContents', 'heading', 'subpages']);
    expect(page.markdown).toBe(MARKDOWN);

    const put = await h.t.request({
      method: 'PUT',
      url: `/api/v1/pages/${res.body.data.id}`,
      token: h.ws.editor.token,
      body: { content: docOf({ type: 'subpages' }, { type: 'paragraph', content: [{ type: 'text', text: '::toc' }] }) },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect((await read(res.body.data.id)).markdown).toBe('::subpages\n\n\\::toc\n');
  });

  it('refuses attributes or content on them with 422 naming the node, before and after a page exists', async () => {
    const attrs = await create({ content: docOf({ type: 'subpages', attrs: { parentId: '00000000-0000-0000-0000-000000000000' } }) });
    expect(attrs.status).toBe(422);
    expect(attrs.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'content', path: 'content[0]' } });
    expect(attrs.body.error.message).toMatch(/unknown attribute "parentId" on node subpages/);
    const content = await create({ content: docOf({ type: 'tableOfContents', content: [{ type: 'text', text: '<script>' }] }) });
    expect(content.status).toBe(422);
    expect(content.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('MCP page_create with Markdown, page_get gives the same Markdown, page_update with Markdown replaces it; hostile JSON is a VALIDATION_ERROR', async () => {
    const created = await h.client.callTool({
      name: 'page_create',
      arguments: { workspaceId: h.ws.workspace.id, spaceId: h.spaceId, title: 'Handbook home', markdown: MARKDOWN },
    });
    expect(created.isError, JSON.stringify(created.content)).toBe(false);
    const id = (created.structuredContent as { id: string }).id;
    const got = await h.client.callTool({ name: 'page_get', arguments: { pageId: id } });
    expect((got.structuredContent as { markdown: string }).markdown).toBe(MARKDOWN);

    const updated = await h.client.callTool({ name: 'page_update', arguments: { pageId: id, markdown: 'Children:\n\n::subpages\n' } });
    expect(updated.isError, JSON.stringify(updated.content)).toBe(false);
    expect((await read(id)).content.content.map((n) => n.type)).toEqual(['paragraph', 'subpages']);

    const bad = await h.client.callTool({
      name: 'page_create',
      arguments: { workspaceId: h.ws.workspace.id, spaceId: h.spaceId, title: 'Bad', content: docOf({ type: 'tableOfContents', attrs: { depth: 9 } }) },
    });
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0].text).toMatch(/^VALIDATION_ERROR: .*unknown attribute "depth" on node tableOfContents/);
  });
});

describe('live blocks in an export', () => {
  it('HTML: the contents link to the headings and the subpages block to the pages under it; Markdown keeps the directives', async () => {
    const worker = exportWorker(h.t);
    try {
      const space = await createSpace(h.t, h.ws.admin, h.ws.workspace.id, { name: 'Exported' });
      const make = async (title: string, markdown: string, parentId?: string) => {
        const res = await h.t.request({
          method: 'POST',
          url: '/api/v1/pages',
          token: h.ws.editor.token,
          body: { workspaceId: h.ws.workspace.id, spaceId: space.id, title, markdown, ...(parentId ? { parentId } : {}) },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        return res.body.data.id as string;
      };
      const home = await make('Home', MARKDOWN);
      await make('Guide: setup', 'One.\n', home);
      await make('', 'Two.\n', home);
      const { files } = await exportAndUnzip(h.t, h.ws.viewer, { workspaceId: h.ws.workspace.id, spaceId: space.id, format: 'html' });
      const html = files.get('Home.html')?.toString('utf8') ?? '';
      expect(html).toContain(
        '<nav data-type="toc" class="toc" aria-label="Table of contents"><ul><li class="toc-h1"><a href="#onboarding">Onboarding</a></li>' +
          '<li class="toc-h2"><a href="#pages-below">Pages below</a></li></ul></nav>',
      );
      expect(html).toContain('<h2 id="pages-below">Pages below</h2>');
      expect(html).toMatch(
        /<nav data-type="subpages" class="subpages" aria-label="Subpages"><ul><li><a href="Home\/Guide%20setup\.html">Guide: setup<\/a><\/li><li><a href="Home\/[^"]+\.html">Untitled<\/a><\/li><\/ul><\/nav>/,
      );
      // Markdown keeps the directives as they are (an import builds the blocks again).
      const markdown = await exportAndUnzip(h.t, h.ws.viewer, { workspaceId: h.ws.workspace.id, spaceId: space.id, format: 'markdown' });
      expect(markdown.files.get('Home.md')?.toString('utf8')).toMatch(/::toc\n\n## Pages below\n\n::subpages\n$/);
    } finally {
      await worker.stop();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { useHandbookWithMcp } from '../helpers/mcp.js';
import { publish, sharedSetup, tokenOf } from '../shares/helpers.js';

/** Embeds written as JSON and as Markdown through REST and MCP, refused when not allow-listed, read back, searched, shared. */

const h = useHandbookWithMcp();

const YOUTUBE = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';
const LOOM = 'https://www.loom.com/share/0281766fa2d04bb788eaf19e65135184';
const MARKDOWN = ['Kick-off recording:', '', `::embed[${YOUTUBE}]`, '', `::embed[${LOOM}]`, ''].join('\n');
const ALLOWED = 'YouTube, Vimeo, Loom, Figma, Google Docs, Google Sheets, Google Slides, Miro and CodePen';

const embed = (src: string, provider?: string) => ({ type: 'embed', attrs: provider ? { src, provider } : { src } });
const docOf = (...content: object[]) => ({ type: 'doc', content });

function create(body: Record<string, unknown>) {
  return h.t.request({
    method: 'POST',
    url: '/api/v1/pages',
    token: h.ws.editor.token,
    body: { workspaceId: h.ws.workspace.id, spaceId: h.spaceId, title: 'Embeds', ...body },
  });
}
async function read(id: string) {
  const res = await h.t.request({ url: `/api/v1/pages/${id}`, token: h.ws.editor.token, query: { format: 'markdown' } });
  expect(res.status).toBe(200);
  return res.body.data as { content: { content: object[] }; markdown: string };
}

describe('embeds through the API', () => {
  it('POST /v1/pages with content JSON: the provider is derived and stored; Markdown and search read it', async () => {
    const res = await create({ content: docOf({ type: 'paragraph', content: [{ type: 'text', text: 'Demo' }] }, embed(YOUTUBE)) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const page = await read(res.body.data.id);
    expect(page.content.content[1]).toEqual(embed(YOUTUBE, 'youtube'));
    expect(page.markdown).toBe(`Demo\n\n::embed[${YOUTUBE}]\n`);
    const found = await h.t.request({ url: '/api/v1/search', token: h.ws.editor.token, query: { workspaceId: h.ws.workspace.id, query: 'youtube' } });
    expect(found.status).toBe(200);
    expect(found.body.data.map((r: { id: string }) => r.id)).toContain(res.body.data.id);
  });

  it('POST /v1/pages with Markdown builds the embeds and reads back the same Markdown', async () => {
    const res = await create({ markdown: MARKDOWN });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const page = await read(res.body.data.id);
    expect(page.content.content.slice(1)).toEqual([embed(YOUTUBE, 'youtube'), embed(LOOM, 'loom')]);
    expect(page.markdown).toBe(MARKDOWN);
  });

  it.each([
    ['javascript:alert(1)', /must be https, not javascript:/],
    ['data:text/html,<script>alert(1)</script>', /must be https, not data:/],
    ['http://www.youtube.com/watch?v=dQw4w9WgXcQ', /must be https, not http:/],
    ['https://youtube.com.evil.com/watch?v=dQw4w9WgXcQ', /youtube\.com\.evil\.com is not an allowed embed provider/],
    ['https://evil.com/youtube.com/watch?v=dQw4w9WgXcQ', /evil\.com is not an allowed embed provider/],
    ['https://attacker:pw@www.youtube.com/watch?v=dQw4w9WgXcQ', /user name or password/],
    ['https://www.youtube.com/watch?v=nope', /not one that can be embedded/],
  ])('refuses %s in content JSON with 422 naming the allowed providers', async (src, why) => {
    const res = await create({ content: docOf(embed(src)) });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'content', path: 'content[0]' } });
    expect(res.body.error.message).toMatch(why);
    expect(res.body.error.message).toContain(ALLOWED);
  });

  it('refuses a provider that disagrees with the link, a missing link, and the same on PUT', async () => {
    const wrong = await create({ content: docOf(embed(YOUTUBE, 'vimeo')) });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.message).toMatch(/"provider" of embed is "vimeo" but its src is a YouTube link/);
    const missing = await create({ content: docOf({ type: 'embed', attrs: { provider: 'youtube' } }) });
    expect(missing.status).toBe(422);
    expect(missing.body.error.message).toMatch(/"src" of embed is required/);
    const huge = await create({ content: docOf(embed(`${YOUTUBE}&x=${'a'.repeat(3000)}`)) });
    expect(huge.status).toBe(422);
    expect(huge.body.error.message).toMatch(/at most 2048 characters/);

    const ok = await create({ markdown: MARKDOWN });
    const put = await h.t.request({
      method: 'PUT',
      url: `/api/v1/pages/${ok.body.data.id}`,
      token: h.ws.editor.token,
      body: { content: docOf(embed('https://evil.com/embed')) },
    });
    expect(put.status).toBe(422);
    expect(put.body.error.message).toContain(ALLOWED);
    expect((await read(ok.body.data.id)).markdown).toBe(MARKDOWN);
  });

  it('keeps a Markdown embed it may not show as a link paragraph (or its text): 201, never 422 or 500, no text lost', async () => {
    const res = await create({
      markdown: '::embed[https://youtube.com.evil.com/watch?v=dQw4w9WgXcQ]\n\n::embed[javascript:alert(1)]\n\n::embed[https://evil.com/a b]\n',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const page = await read(res.body.data.id);
    expect(page.content.content.map((n) => (n as { type: string }).type)).toEqual(['paragraph', 'paragraph', 'paragraph']);
    expect(JSON.stringify(page.content)).not.toContain('"embed"');
    expect(page.markdown).toBe(
      '<https://youtube.com.evil.com/watch?v=dQw4w9WgXcQ>\n\n\\::embed\\[javascript:alert(1)\\]\n\n\\::embed\\[https://evil.com/a b\\]\n',
    );
  });

  it('MCP page_create with Markdown holding embeds, then page_get gives the same Markdown; a hostile JSON embed is a VALIDATION_ERROR', async () => {
    const created = await h.client.callTool({
      name: 'page_create',
      arguments: { workspaceId: h.ws.workspace.id, spaceId: h.spaceId, title: 'Recording', markdown: MARKDOWN },
    });
    expect(created.isError, JSON.stringify(created.content)).toBe(false);
    const id = (created.structuredContent as { id: string }).id;
    const got = await h.client.callTool({ name: 'page_get', arguments: { pageId: id } });
    expect((got.structuredContent as { markdown: string }).markdown).toBe(MARKDOWN);
    expect((await read(id)).content.content[1]).toEqual(embed(YOUTUBE, 'youtube'));

    const bad = await h.client.callTool({
      name: 'page_create',
      arguments: { workspaceId: h.ws.workspace.id, spaceId: h.spaceId, title: 'Bad', content: docOf(embed('https://evil.com/x')) },
    });
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0].text).toMatch(/^VALIDATION_ERROR: .*evil\.com is not an allowed embed provider/);
  });
});

describe('embeds on a public page', () => {
  it('shows a link card, no frame, under a CSP that allows none', async () => {
    const s = await sharedSetup(h.t);
    const put = await h.t.request({
      method: 'PUT',
      url: `/api/v1/pages/${s.page.id}`,
      token: s.editor.token,
      body: { markdown: `Watch:\n\n::embed[${YOUTUBE}]\n` },
    });
    expect(put.status).toBe(200);
    const { url } = (await publish(h.t, s.editor, s.page.id)).body.data;
    const res = await h.t.app.inject({ method: 'GET', url: `/s/${tokenOf(url)}` });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('<iframe');
    expect(res.body).toContain(
      `<figure class="embed-card"><a href="${YOUTUBE}" target="_blank" rel="noopener noreferrer nofollow"><strong>YouTube</strong><span>${YOUTUBE}</span></a></figure>`,
    );
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('frame-src');
  });
});

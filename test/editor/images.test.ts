import { prosemirrorJSONToYDoc, yXmlFragmentToProseMirrorRootNode } from '@tiptap/y-tiptap';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { convertConfluencePage } from '../../src/areas/imports/sources/confluence-convert.js';
import { convertNotionHtml } from '../../src/areas/imports/sources/notion.html.js';
import { up as clearPixelWidths } from '../../src/db/migrations/0042_image_layout_widths.js';
import { readerContent } from '../../src/areas/shares/reader/reader.content.js';
import { documentToHtml, htmlToDocument } from '../../src/editor/html.js';
import { MAX_CAPTION } from '../../src/editor/images.js';
import { documentToMarkdown, documentToText, markdownToDocument, validateDocument } from '../../src/editor/index.js';
import { schema, storedSchema } from '../../src/editor/schema.js';
import { COLLAB_FIELD } from '../../src/editor/ydoc.js';
import { useHandbookWithMcp } from '../helpers/mcp.js';
import { docOf, p, refused, text } from './helpers.js';

/** A block image's width (percent), alignment and caption (src/editor/images.ts): schema, Markdown, HTML, imports, reader, API and MCP. */

const SRC = 'https://img.example.com/chart.png';
const image = (attrs: Record<string, unknown> = {}) => ({
  type: 'image',
  attrs: { src: SRC, alt: 'Chart', title: null, width: null, height: null, align: null, caption: null, ...attrs },
});
const LAID_OUT = image({ width: 50, align: 'center', caption: 'Sales by quarter' });
const LAID_OUT_MD = `![Chart](${SRC} "Sales by quarter"){width=50% align=center}\n`;

describe('image layout: what the schema takes', () => {
  it('takes a whole percentage 10–100, an alignment and a one-line caption, each or none', () => {
    const doc = docOf(
      LAID_OUT,
      image(),
      image({ width: 10 }),
      image({ width: 100, align: 'right' }),
      image({ align: 'left', caption: 'x'.repeat(MAX_CAPTION) }),
    );
    expect(validateDocument(doc)).toEqual(doc);
    // Left out, they are null: existing content is unchanged.
    expect(validateDocument(docOf({ type: 'image', attrs: { src: SRC } }))).toEqual(docOf(image({ alt: null })));
  });

  it('refuses out-of-range and hostile values with a 422 naming the attribute', () => {
    const cases: [object, RegExp][] = [
      [image({ width: 9 }), /attribute "width" of image must be null or a whole percentage from 10 to 100/],
      [image({ width: 101 }), /whole percentage from 10 to 100/],
      [image({ width: 50.5 }), /whole percentage/],
      [image({ width: '50%' }), /whole percentage/],
      [image({ width: '50;background:url(https://evil.example/x)' }), /whole percentage/],
      [image({ width: -20 }), /whole percentage/],
      [image({ width: Number.NaN }), /whole percentage/],
      [image({ align: 'justify' }), /attribute "align" of image must be null or one of "left", "center", "right"/],
      [image({ align: 'center" onerror="alert(1)' }), /attribute "align" of image/],
      [image({ align: 1 }), /attribute "align" of image/],
      [image({ caption: 'x'.repeat(MAX_CAPTION + 1) }), /attribute "caption" of image must be at most 500 characters/],
      [image({ caption: 'two\nlines' }), /attribute "caption" of image must be one line of plain text/],
      [image({ caption: '\u0000' }), /one line of plain text/],
      [image({ caption: { html: '<b>x</b>' } }), /attribute "caption" of image must be null or a string/],
      [{ type: 'image', attrs: { src: SRC, float: 'left' } }, /unknown attribute "float" on node image/],
    ];
    for (const [node, reason] of cases) expect(refused(docOf(node)), JSON.stringify(node).slice(0, 120)).toMatch(reason);
  });

  it('keeps an inline image (in a line of text) as it was: no layout attributes', () => {
    expect(refused(docOf(p(text('a '), { type: 'inlineImage', attrs: { src: SRC, caption: 'x' } })))).toMatch(
      /unknown attribute "caption" on node inlineImage/,
    );
  });
});

describe('image layout: Markdown', () => {
  it('writes the caption in the title slot and the layout as an attribute list, and reads both back', () => {
    expect(documentToMarkdown(docOf(LAID_OUT))).toBe(LAID_OUT_MD);
    expect(markdownToDocument(LAID_OUT_MD)).toEqual(docOf(LAID_OUT));
    const eachAlone = docOf(image({ width: 25 }), image({ align: 'right' }), image({ caption: 'Only a caption' }));
    const md = documentToMarkdown(eachAlone);
    expect(md).toBe(`![Chart](${SRC}){width=25%}\n\n![Chart](${SRC}){align=right}\n\n![Chart](${SRC} "Only a caption")\n`);
    expect(markdownToDocument(md)).toEqual(eachAlone);
    // The keys in any order; a caption with quotes, backslashes and entities reads back as written.
    expect(markdownToDocument(`![Chart](${SRC}){align=left width=80%}\n`)).toEqual(docOf(image({ width: 80, align: 'left' })));
    const tricky = docOf(image({ caption: 'He said "hi" \\ & &amp; [x]' }));
    expect(markdownToDocument(documentToMarkdown(tricky))).toEqual(tricky);
  });

  it('leaves Markdown without a layout as it was (an image without a title writes no list, its text after it stays)', () => {
    const plain = `![Chart](${SRC})\n`;
    expect(documentToMarkdown(markdownToDocument(plain))).toBe(plain);
    expect(markdownToDocument(plain)).toEqual(docOf(image()));
    // Not an attribute list: text, and the image in a line of text stays inline.
    const other = markdownToDocument(`![Chart](${SRC}){size=50}\n`) as { content: { type: string }[] };
    expect(other.content[0].type).toBe('paragraph');
    expect(documentToMarkdown(other)).toBe(`![Chart](${SRC}){size=50}\n`);
  });

  it('reads an out-of-range width in Markdown clamped, never as an error', () => {
    expect(markdownToDocument(`![Chart](${SRC}){width=5%}\n\n![Chart](${SRC}){width=900%}\n`)).toEqual(docOf(image({ width: 10 }), image({ width: 100 })));
    const long = markdownToDocument(`![Chart](${SRC} "${'c'.repeat(MAX_CAPTION + 50)}")\n`) as { content: { attrs: { caption: string } }[] };
    expect(long.content[0].attrs.caption).toHaveLength(MAX_CAPTION);
  });

  it('finds an image by its caption in search text', () => {
    expect(documentToText(docOf(LAID_OUT))).toBe('Chart Sales by quarter');
  });
});

describe('image layout: HTML out and in, imports, the public reader', () => {
  it('writes a figure when a layout is set and a plain <img> otherwise; both read back', () => {
    const html = documentToHtml(docOf(LAID_OUT, image()));
    expect(html).toBe(
      `<figure class="image" data-align="center" style="width: 50%;"><img src="${SRC}" alt="Chart"><figcaption>Sales by quarter</figcaption></figure><img src="${SRC}" alt="Chart">`,
    );
    expect(htmlToDocument(html).doc).toEqual(docOf(LAID_OUT, image()));
  });

  it('reads a figure with a caption from elsewhere; pixel widths and other figures are not a layout', () => {
    expect(htmlToDocument(`<figure><img src="${SRC}" alt="Chart" width="640"><figcaption>  Sales\n by quarter </figcaption></figure>`).doc).toEqual(
      docOf(image({ caption: 'Sales by quarter' })),
    );
    expect(htmlToDocument(`<figure style="width:33.4%" data-align="RIGHT"><img src="${SRC}" alt="Chart"></figure>`).doc).toEqual(
      docOf(image({ width: 33, align: 'right' })),
    );
    // A figure holding more than one picture is read as its content.
    const two = htmlToDocument(`<figure><img src="${SRC}"><p>words</p><figcaption>c</figcaption></figure>`).doc as { content: { type: string }[] };
    expect(two.content.map((n) => n.type)).not.toEqual(['image']);
  });

  it('maps Notion image figures with captions and Confluence alignments', () => {
    const notion = convertNotionHtml(
      '<html><body><article><div class="page-body"><figure id="i1" class="image"><a href="a/logo.png"><img style="width:240px" src="a/logo.png"/></a>' +
        '<figcaption>Our logo</figcaption></figure></div></article></body></html>',
    );
    expect(notion.doc).toEqual(docOf(image({ src: 'a/logo.png', alt: null, caption: 'Our logo' })));
    const confluence = convertConfluencePage(
      '<html><body><div id="main-content" class="wiki-content"><span class="confluence-embedded-file-wrapper image-center-wrapper confluence-embedded-manual-size">' +
        '<img class="confluence-embedded-image image-center" alt="layout.png" width="500" src="attachments/100/501.png?width=500" data-image-src="attachments/100/501.png"></span></div></body></html>',
    );
    expect(confluence.doc).toEqual(docOf(image({ src: 'attachments/100/501.png', alt: 'layout.png', align: 'center' })));
  });

  it('the public reader keeps the figure, its caption and layout without any style attribute', () => {
    const { html } = readerContent(docOf(LAID_OUT) as never);
    expect(html).toContain('<figure class="image" data-align="center" data-width="50">');
    expect(html).toContain('<figcaption>Sales by quarter</figcaption>');
    expect(html).not.toContain('style=');
  });
});

describe('image layout through the API and MCP', () => {
  const h = useHandbookWithMcp();
  const create = (body: Record<string, unknown>) =>
    h.t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: h.ws.editor.token,
      body: { workspaceId: h.ws.workspace.id, spaceId: h.spaceId, title: 'Charts', ...body },
    });

  it('POST with Markdown keeps the layout, reads the same Markdown back, and search finds the caption', async () => {
    const res = await create({ markdown: LAID_OUT_MD, title: 'Quarterly' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const read = await h.t.request({ url: `/api/v1/pages/${res.body.data.id}`, token: h.ws.editor.token, query: { format: 'markdown' } });
    expect(read.body.data.content).toEqual(docOf(LAID_OUT));
    expect(read.body.data.markdown).toBe(LAID_OUT_MD);
    const found = await h.t.request({ url: '/api/v1/search', token: h.ws.editor.token, query: { workspaceId: h.ws.workspace.id, query: 'quarter' } });
    expect(found.body.data.map((r: { id: string }) => r.id)).toContain(res.body.data.id);
  });

  it('refuses a hostile layout in JSON with 422 VALIDATION_ERROR naming where, on create and update', async () => {
    const bad = await create({ content: docOf(p(text('Intro')), image({ width: '50%;position:fixed' })) });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    expect(bad.body.error.message).toMatch(/^Invalid document at content\[1\]: attribute "width" of image must be null or a whole percentage/);
    const made = await create({ markdown: 'Fine\n' });
    const update = await h.t.request({
      method: 'PUT',
      url: `/api/v1/pages/${made.body.data.id}`,
      token: h.ws.editor.token,
      body: { content: docOf(image({ align: '<script>' })) },
    });
    expect(update.status).toBe(422);
    expect(update.body.error.details.path).toBe('content[0]');
  });

  it('MCP page_create and page_update with Markdown carry the layout; page_get gives it back', async () => {
    const created = await h.client.callTool({
      name: 'page_create',
      arguments: { workspaceId: h.ws.workspace.id, spaceId: h.spaceId, title: 'By agent', markdown: LAID_OUT_MD },
    });
    expect(created.isError, JSON.stringify(created.content)).toBe(false);
    const pageId = (created.structuredContent as { id: string }).id;
    const got = await h.client.callTool({ name: 'page_get', arguments: { pageId } });
    expect((got.structuredContent as { markdown: string }).markdown).toBe(LAID_OUT_MD);
    const next = `![Chart](${SRC} "Now right"){width=75% align=right}\n`;
    const updated = await h.client.callTool({ name: 'page_update', arguments: { pageId, markdown: next } });
    expect(updated.isError, JSON.stringify(updated.content)).toBe(false);
    const again = await h.client.callTool({ name: 'page_get', arguments: { pageId } });
    expect((again.structuredContent as { markdown: string }).markdown).toBe(next);
    const bad = await h.client.callTool({ name: 'page_update', arguments: { pageId, content: docOf(image({ width: 0 })) } });
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0].text).toMatch(/^VALIDATION_ERROR: .*whole percentage/);
  });
});

describe('image layout: content from before it', () => {
  const h = useHandbookWithMcp();

  it('clears pixel widths kept from imported HTML in pages, history and live documents, so the editor keeps the picture', async () => {
    const legacy = docOf(p(text('Plan')), image({ width: 500 }), image({ width: 40 }), {
      type: 'paragraph',
      content: [{ type: 'inlineImage', attrs: { src: SRC, width: 24 } }],
    });
    expect(refused(legacy)).toMatch(/content\[1\]: attribute "width" of image must be null or a whole percentage/);
    const page = await h.t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: h.ws.editor.token,
      body: { workspaceId: h.ws.workspace.id, spaceId: h.spaceId, title: 'Imported', markdown: 'Plan\n' },
    });
    const id = page.body.data.id as string;
    const ydoc = Y.encodeStateAsUpdate(prosemirrorJSONToYDoc(storedSchema, legacy, COLLAB_FIELD));
    const { db } = h.t.database;
    await sql`update pages set content = ${JSON.stringify(legacy)}::jsonb, ydoc = ${ydoc} where id = ${id}`.execute(db);
    await sql`update page_history set content = ${JSON.stringify(legacy)}::jsonb where page_id = ${id}`.execute(db);

    await clearPixelWidths(db as never);

    const fixed = docOf(p(text('Plan')), image(), image({ width: 40 }), {
      type: 'paragraph',
      content: [{ type: 'inlineImage', attrs: { src: SRC, width: 24 } }],
    });
    const row = (await sql<{ content: unknown; ydoc: Uint8Array }>`select content, ydoc from pages where id = ${id}`.execute(db)).rows[0];
    expect(row.content).toEqual(fixed);
    // The live document now builds in the checking schema, both pictures in it.
    const liveDoc = new Y.Doc();
    Y.applyUpdate(liveDoc, row.ydoc);
    const live = yXmlFragmentToProseMirrorRootNode(liveDoc.getXmlFragment(COLLAB_FIELD), schema).toJSON() as {
      content: { type: string; attrs?: { width: unknown } }[];
    };
    expect(live.content.filter((n) => n.type === 'image').map((n) => n.attrs?.width)).toEqual([null, 40]);
    const history = await sql<{ content: unknown }>`select content from page_history where page_id = ${id}`.execute(db);
    for (const r of history.rows) expect(r.content).toEqual(fixed);
    const read = await h.t.request({ url: `/api/v1/pages/${id}`, token: h.ws.editor.token, query: { format: 'markdown' } });
    expect(read.body.data.markdown).toBe(`Plan\n\n![Chart](${SRC})\n\n![Chart](${SRC}){width=40%}\n\n![](${SRC})\n`);
  });
});

import { describe, expect, it } from 'vitest';
import { chunkDocument } from '../../src/areas/knowledge/knowledge.chunk.js';
import { convertNotionHtml } from '../../src/areas/imports/sources/notion.html.js';
import { readerContent } from '../../src/areas/shares/reader/reader.content.js';
import { documentToHtml, htmlToDocument } from '../../src/editor/html.js';
import { documentToMarkdown, documentToText, markdownToDocument, validateDocument } from '../../src/editor/index.js';
import { documentToYState, yStateToSnapshot } from '../../src/editor/ydoc.js';
import { useHandbookWithMcp } from '../helpers/mcp.js';
import { docOf, refused } from './helpers.js';

/** Columns (2 or 3 side by side) through the content model: schema, Markdown, HTML, Notion import, search, MCP. */

const para = (t: string) => ({ type: 'paragraph', content: [{ type: 'text', text: t }] });
const column = (...content: object[]) => ({ type: 'column', content });
const columns = (...cols: object[]) => ({ type: 'columns', content: cols });
const callout = (...content: object[]) => ({ type: 'callout', attrs: { type: 'info', icon: null }, content });

const TWO = columns(column(para('Left')), column(para('Right')));
const TWO_MD = '::::columns\n:::column\nLeft\n\n:::\n\n:::column\nRight\n\n:::\n\n::::\n';

describe('columns: schema', () => {
  it('takes two or three columns of any blocks (a callout, a list, columns in a column)', () => {
    const three = docOf(
      columns(
        column(para('A'), callout(para('note'))),
        column({ type: 'bulletList', content: [{ type: 'listItem', content: [para('b')] }] }),
        column(para('C')),
      ),
    );
    expect(validateDocument(three)).toEqual(three);
    const nested = docOf(columns(column(TWO), column(para('x'))));
    expect(validateDocument(nested)).toEqual(nested);
  });

  it('refuses hostile shapes with a 422: one column, four, none, a bare column, a column outside columns, text or attributes', () => {
    expect(refused(docOf(columns(column(para('only')))))).toMatch(/Invalid document/);
    expect(refused(docOf(columns(column(para('1')), column(para('2')), column(para('3')), column(para('4')))))).toMatch(/Invalid document/);
    expect(refused(docOf(columns()))).toMatch(/Invalid document/);
    expect(refused(docOf(column(para('stray'))))).toMatch(/Invalid document/);
    expect(refused(docOf(columns(para('not a column'), column(para('x')))))).toMatch(/Invalid document/);
    expect(refused(docOf(columns(column(), column(para('x')))))).toMatch(/Invalid document/);
    expect(refused(docOf(columns(column({ type: 'text', text: 'bare' }), column(para('x')))))).toMatch(/Invalid document/);
    expect(refused(docOf({ ...TWO, attrs: { count: 2 } }))).toMatch(/unknown attribute "count" on node columns/);
    expect(refused(docOf({ type: 'paragraph', content: [TWO] }))).toMatch(/Invalid document/);
  });
});

describe('columns: Markdown', () => {
  it('round-trips as ::::columns with :::column fences, callouts and nested columns inside', () => {
    const doc = validateDocument(docOf(para('Before'), TWO, para('After')));
    const md = documentToMarkdown(doc);
    expect(md).toBe(`Before\n\n${TWO_MD}\nAfter\n`);
    expect(markdownToDocument(md)).toEqual(doc);
    const deep = validateDocument(docOf(columns(column(callout(para('n')), TWO), column(para('x')), column(para('y')))));
    expect(markdownToDocument(documentToMarkdown(deep))).toEqual(deep);
    // In a list item, too.
    const listed = validateDocument(docOf({ type: 'bulletList', content: [{ type: 'listItem', content: [para('item'), TWO] }] }));
    expect(markdownToDocument(documentToMarkdown(listed))).toEqual(listed);
  });

  it('reads hand-written columns without blank lines, and an empty column as an empty paragraph', () => {
    expect(markdownToDocument('::::columns\n:::column\nLeft\n:::\n:::column\n:::\n::::').content).toEqual([
      columns(column(para('Left')), column({ type: 'paragraph' })),
    ]);
  });

  it('never makes an invalid document: one column, four, blocks between columns, unclosed fences keep their blocks in order', () => {
    const fences = (n: number) => Array.from({ length: n }, (_, i) => `:::column\nc${i}\n:::`).join('\n');
    expect(markdownToDocument(`::::columns\n${fences(1)}\n::::\n`).content).toEqual([para('c0')]);
    expect(markdownToDocument(`::::columns\n${fences(4)}\n::::\nend`).content).toEqual([para('c0'), para('c1'), para('c2'), para('c3'), para('end')]);
    expect(markdownToDocument('::::columns\n:::column\na\n:::\nstray\n:::column\nb\n:::\n::::').content).toEqual([para('a'), para('stray'), para('b')]);
    expect(markdownToDocument('::::columns\n:::column\na\n:::\n:::column\nb').content).toEqual([columns(column(para('a')), column(para('b')))]);
    expect(markdownToDocument('::::columns').content).toEqual([{ type: 'paragraph' }]);
    // Whatever it makes is a document the schema takes.
    for (const md of ['::::columns\n::::\n::::', ':::column\n::::columns\n:::', '::::columns\n:::column\n::::columns\n:::column\n:::\n::::']) {
      expect(() => validateDocument(markdownToDocument(md)), md).not.toThrow();
    }
  });

  it('a line of text that reads as a fence is escaped and stays text', () => {
    const doc = validateDocument(docOf(para('::::columns'), para('::::')));
    expect(markdownToDocument(documentToMarkdown(doc))).toEqual(doc);
  });
});

describe('columns: HTML, import, search', () => {
  it('HTML is div[data-type=columns] of div[data-type=column], and reads back', () => {
    const doc = validateDocument(docOf(TWO));
    const html = documentToHtml(doc);
    expect(html).toBe('<div data-type="columns" class="columns"><div data-type="column"><p>Left</p></div><div data-type="column"><p>Right</p></div></div>');
    expect(htmlToDocument(html)).toEqual({ doc, dropped: [] });
    // Four columns in HTML from elsewhere still make a valid document with all the text.
    const four = htmlToDocument(`<div data-type="columns">${'<div data-type="column"><p>x</p></div>'.repeat(4)}</div>`).doc;
    expect(() => validateDocument(four)).not.toThrow();
    expect(documentToText(four).match(/x/g)).toHaveLength(4);
  });

  it('the share reader lays columns out as a grid', () => {
    const { html } = readerContent(validateDocument(docOf(TWO)) as never);
    expect(html).toContain('<div data-type="columns" class="columns"><div data-type="column"><p>Left</p></div>');
  });

  it("Notion's column lists become columns; one column or more than three keep their blocks in order", () => {
    const notion = (body: string) => convertNotionHtml(`<html><body><article class="page"><div class="page-body">${body}</div></article></body></html>`);
    const col = (t: string) => `<div class="column" style="width:50%"><p>${t}</p></div>`;
    const two = notion(`<div class="column-list">${col('Left')}${col('Right')}</div>`);
    expect(two.doc.content).toEqual([TWO]);
    expect(two.warnings).toEqual([]);
    expect(notion(`<div class="column-list">${col('a')}${col('b')}${col('c')}</div>`).doc.content).toEqual([
      columns(column(para('a')), column(para('b')), column(para('c'))),
    ]);
    expect(notion(`<div class="column-list">${col('solo')}</div>`)).toEqual({ doc: docOf(para('solo')), warnings: [] });
    const five = notion(`<div class="column-list">${['1', '2', '3', '4', '5'].map(col).join('')}</div>`);
    expect(five.doc.content).toEqual(['1', '2', '3', '4', '5'].map(para));
    expect(five.warnings).toEqual([expect.stringMatching(/5 columns .* at most 3/)]);
  });

  it("search and knowledge passages include every column's text", () => {
    const doc = validateDocument(docOf(para('Intro'), TWO));
    expect(documentToText(doc)).toBe('Intro\nLeft\nRight');
    expect(
      chunkDocument(doc)
        .map((c) => c.content)
        .join('\n'),
    ).toMatch(/Left[\s\S]*Right/);
  });
});

describe('columns through MCP', () => {
  const h = useHandbookWithMcp();

  it('page_create with Markdown builds columns, page_get gives the same Markdown, page_update replaces them; hostile JSON is a VALIDATION_ERROR', async () => {
    const markdown = `# Plan\n\n${TWO_MD}`;
    const created = await h.client.callTool({
      name: 'page_create',
      arguments: { workspaceId: h.ws.workspace.id, spaceId: h.spaceId, title: 'Cols', markdown },
    });
    expect(created.isError, JSON.stringify(created.content)).toBe(false);
    const id = (created.structuredContent as { id: string }).id;
    const got = await h.client.callTool({ name: 'page_get', arguments: { pageId: id } });
    expect((got.structuredContent as { markdown: string }).markdown).toBe(markdown);

    const three = '::::columns\n:::column\nA\n:::\n:::column\nB\n:::\n:::column\nC\n:::\n::::\n';
    const updated = await h.client.callTool({ name: 'page_update', arguments: { pageId: id, markdown: three } });
    expect(updated.isError, JSON.stringify(updated.content)).toBe(false);
    const res = await h.t.request({ url: `/api/v1/pages/${id}`, token: h.ws.editor.token });
    expect(res.body.data.content.content).toEqual([columns(column(para('A')), column(para('B')), column(para('C')))]);

    const bad = await h.client.callTool({
      name: 'page_create',
      arguments: { workspaceId: h.ws.workspace.id, spaceId: h.spaceId, title: 'Bad', content: docOf(columns(column(para('one')))) },
    });
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0].text).toMatch(/^VALIDATION_ERROR: /);
    const rest = await h.t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: h.ws.editor.token,
      body: {
        workspaceId: h.ws.workspace.id,
        spaceId: h.spaceId,
        title: 'Bad',
        content: docOf(columns(...Array.from({ length: 4 }, () => column(para('x'))))),
      },
    });
    expect(rest.status).toBe(422);
    expect(rest.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'content' } });
  });
});

describe('columns in co-editing', () => {
  it('columns survive the Yjs round trip unchanged', () => {
    const doc = validateDocument(docOf(para('a'), TWO, columns(column(para('x')), column(TWO), column(callout(para('n'))))));
    const snapshot = yStateToSnapshot({ state: documentToYState(doc), stored: doc });
    expect(snapshot).toMatchObject({ json: doc, corrected: false, unchanged: true });
    expect(snapshot.text).toContain('Left\nRight');
  });
});

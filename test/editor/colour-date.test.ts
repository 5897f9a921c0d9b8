import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertConfluencePage } from '../../src/areas/imports/sources/confluence-convert.js';
import { convertNotionHtml } from '../../src/areas/imports/sources/notion.html.js';
import { readerContent } from '../../src/areas/shares/reader/reader.content.js';
import { dayInWords, isIsoDay } from '../../src/editor/dates.js';
import { documentToHtml, htmlToDocument } from '../../src/editor/html.js';
import { documentToMarkdown, documentToText, markdownToDocument, validateDocument } from '../../src/editor/index.js';
import { paletteColourOf, TEXT_COLOURS } from '../../src/editor/text-colours.js';
import type { TestApp } from '../helpers/app.js';
import type { workspaceWithRoles } from '../helpers/factories.js';
import { connectMcp, listeningHandbook } from '../helpers/mcp.js';
import { docOf, p, refused, text } from './helpers.js';

/** Text colour (a palette name, never CSS) and dates: Markdown, HTML, search text, imports, and the API refusing hostile values. */

const colour = (color: unknown) => ({ type: 'textColor', attrs: { color } });
const background = (color: unknown) => ({ type: 'backgroundColor', attrs: { color } });
const day = (date: unknown) => ({ type: 'date', attrs: { date } });

const MARKDOWN = 'Launch on :date[2026-12-07], <span data-color="red">**not** later</span> than planned.\n\n<span data-color="gray">Owner: Ada</span>\n';
const DOC = docOf(
  p(text('Launch on '), day('2026-12-07'), text(', '), text('not', [{ type: 'bold' }, colour('red')]), text(' later', [colour('red')]), text(' than planned.')),
  p(text('Owner: Ada', [colour('gray')])),
);

const HOSTILE_COLOURS = [
  'red;background:url(https://evil.example/x)',
  'expression(alert(1))',
  'RED',
  '#ff0000',
  'rgb(255,0,0)',
  'var(--x)',
  '',
  'red ',
  42,
  null,
];

describe('text colour and dates: the schema', () => {
  it('takes each palette name and real days; refuses CSS, unknown names and impossible days (422)', () => {
    for (const name of TEXT_COLOURS) expect(validateDocument(docOf(p(text('x', [colour(name)]))))).toEqual(docOf(p(text('x', [colour(name)]))));
    for (const bad of HOSTILE_COLOURS) {
      expect(refused(docOf(p(text('x', [colour(bad)])))), String(bad)).toMatch(
        /must be one of "gray", "brown".*not a CSS value|"color" of textColor is required/,
      );
      expect(refused(docOf(p(text('x', [background(bad)])))), String(bad)).toMatch(
        /must be one of "gray", "brown".*not a CSS value|"color" of backgroundColor is required/,
      );
    }
    expect(refused(docOf(p(text('x', [{ type: 'textColor' }]))))).toMatch(/attribute "color" of textColor is required/);
    expect(refused(docOf(p(text('x', [{ type: 'textColor', attrs: { color: 'red', style: 'x' } }]))))).toMatch(/unknown attribute "style" on mark textColor/);

    for (const ok of ['2026-12-07', '2024-02-29', '2000-02-29', '0001-01-01', '9999-12-31']) expect(isIsoDay(ok), ok).toBe(true);
    for (const bad of [
      '2026-02-29',
      '1900-02-29',
      '2026-13-01',
      '2026-04-31',
      '2026-00-10',
      '0000-01-01',
      '2026-1-7',
      '2026-12-07T00:00',
      ' 2026-12-07',
      '7 Dec 2026',
    ]) {
      expect(isIsoDay(bad), String(bad)).toBe(false);
      expect(refused(docOf(p(day(bad)))), String(bad)).toMatch(/calendar date written YYYY-MM-DD/);
    }
    expect(refused(docOf(p({ type: 'date' })))).toMatch(/attribute "date" of date is required/);
    expect(refused(docOf(p(day(20261207))))).toMatch(/attribute "date" of date is required/);
  });

  it('Markdown: <span data-color> and :date[…] round-trip; anything else stays text, and text that looks like them is escaped', () => {
    expect(markdownToDocument(MARKDOWN)).toEqual(DOC);
    const written = documentToMarkdown(DOC);
    expect(written).toBe(
      'Launch on :date[2026-12-07], **<span data-color="red">not</span>**<span data-color="red"> later</span> than planned.\n\n<span data-color="gray">Owner: Ada</span>\n',
    );
    expect(markdownToDocument(written)).toEqual(DOC);

    // Not the palette, not a real day, not exactly the tag, or a tag without its partner: the text as written.
    for (const line of [
      '<span data-color="red;background:url(x)">a</span>',
      '<span data-color="crimson">a</span>',
      '<span style="color:red">a</span>',
      "<span data-color='red'>a</span>",
      '<span data-color="red">never closed',
      'closed </span> only',
      ':date[2026-02-30] and :date[tomorrow] and :date[2026-12-7]',
    ]) {
      const doc = markdownToDocument(line);
      expect(doc, line).toEqual(docOf(p(text(line))));
    }
    // Written as text, they read back as that text.
    const literal = docOf(p(text('<span data-color="red">x</span> and :date[2026-12-07]')));
    const md = documentToMarkdown(literal);
    expect(md).toBe('\\<span data-color="red">x\\</span> and :date\\[2026-12-07\\]\n');
    expect(markdownToDocument(md)).toEqual(literal);
    // Background colours: `<mark data-color>` (the theme's highlight stays `==`), with a text colour too.
    const backgrounds = validateDocument(
      docOf(
        p(
          text('plain', [{ type: 'highlight' }]),
          text(' and '),
          text('both', [colour('red'), background('yellow')]),
          text(' '),
          text('blue', [background('blue')]),
        ),
      ),
    );
    const bgMarkdown = '==plain== and <span data-color="red"><mark data-color="yellow">both</mark></span> <mark data-color="blue">blue</mark>\n';
    expect(documentToMarkdown(backgrounds)).toBe(bgMarkdown);
    expect(markdownToDocument(bgMarkdown)).toEqual(backgrounds);
    expect(markdownToDocument('<mark data-color="teal">x</mark> <mark>y</mark>\n')).toEqual(docOf(p(text('<mark data-color="teal">x</mark> <mark>y</mark>'))));
    expect(documentToMarkdown(docOf(p(text('a <mark data-color="red">b</mark>'))))).toBe('a \\<mark data-color="red">b\\</mark>\n');
    expect(documentToHtml(backgrounds)).toBe(
      '<p><mark>plain</mark> and <span data-color="red"><mark data-color="yellow">both</mark></span> <mark data-color="blue">blue</mark></p>',
    );
    expect(htmlToDocument(documentToHtml(backgrounds)).doc).toEqual(backgrounds);
    expect(readerContent(backgrounds).html).toContain('<span data-color="red"><mark data-color="yellow">both</mark></span>');
    // Nested the other way round, a date in colour, a date in a table cell.
    const mixed = validateDocument(docOf(p(text('a', [colour('blue')]), day('2027-01-31'), text('b', [{ type: 'italic' }, colour('blue')]))));
    expect(markdownToDocument(documentToMarkdown(mixed))).toEqual(mixed);
    expect(documentToMarkdown(markdownToDocument('| When |\n| --- |\n| :date[2026-12-07] |\n'))).toBe('| When |\n| --- |\n| :date[2026-12-07] |\n');
  });

  it('HTML: <span data-color> and <time datetime>, read back as the same document; search text writes the day out', () => {
    const html = documentToHtml(DOC);
    expect(html).toBe(
      '<p>Launch on <time datetime="2026-12-07" data-type="date">7 Dec 2026</time>, <strong><span data-color="red">not</span></strong><span data-color="red"> later</span> than planned.</p>' +
        '<p><span data-color="gray">Owner: Ada</span></p>',
    );
    expect(htmlToDocument(html)).toEqual({ doc: DOC, dropped: [] });
    expect(documentToText(DOC)).toBe('Launch on 7 December 2026, not later than planned.\nOwner: Ada');
    expect(dayInWords('2024-02-29')).toBe('29 February 2024');
    // The public reader keeps the colour's name (its stylesheet colours it) and the date.
    const reader = readerContent(DOC).html;
    expect(reader).toContain('<span data-color="red">not</span>');
    expect(reader).toContain('<time datetime="2026-12-07" data-type="date">7 Dec 2026</time>');
  });
});

describe('text colour and dates: other tools’ HTML', () => {
  it('maps CSS colours onto the palette only where they plainly match', () => {
    const cases: [string, string | null][] = [
      ['red', 'red'],
      ['#D44C47', 'red'],
      ['rgb(255, 86, 48)', 'red'],
      ['#e03e3e', 'red'],
      ['rgb(0, 128, 0)', 'green'],
      ['#0747A6', 'blue'],
      ['#FF991F', 'orange'],
      ['rgb(153, 51, 0)', 'brown'],
      ['#CB912F', 'yellow'],
      ['rgb(255, 204, 0)', 'yellow'],
      ['#403294', 'purple'],
      ['#c14c8a', 'pink'],
      ['grey', 'gray'],
      ['#97A0AF', 'gray'],
      ['#000000', null],
      ['#172B4D', null], // Confluence's body text
      ['rgb(51, 51, 51)', null],
      ['#777777', null], // a grey of no known tool: no colour guessed
      ['white', null],
      ['transparent', null],
      ['inherit', null],
      ['var(--red)', null],
      ['expression(alert(1))', null],
      ['red;background:url(x)', null],
    ];
    for (const [css, expected] of cases) expect(paletteColourOf(css), css).toBe(expected);
  });

  it('Notion export: highlight-<colour> marks are text colours, …_background ones background colours, <time>@Month D, YYYY</time> a date', () => {
    const { doc } = convertNotionHtml(
      '<html><body><article class="page"><div class="page-body"><p>' +
        '<mark class="highlight-red">Blocked</mark> since <time>@December 7, 2026</time>, ' +
        '<mark class="highlight-yellow_background">read this</mark> and <mark class="highlight-teal">teal</mark> <mark class="highlight-default_background">d</mark>' +
        '</p></div></article></body></html>',
    );
    expect(doc).toEqual(
      docOf(
        p(
          text('Blocked', [colour('red')]),
          text(' since '),
          day('2026-12-07'),
          text(', '),
          text('read this', [background('yellow')]),
          text(' and '),
          text('teal', [{ type: 'highlight' }]),
          text(' '),
          text('d', [{ type: 'highlight' }]),
        ),
      ),
    );
  });

  it('Confluence export: coloured spans map onto the palette (body-text navy stays plain), <time datetime> is a date', () => {
    const { doc } = convertConfluencePage(
      '<html><body><div id="main-content" class="wiki-content"><p>' +
        '<span style="color: rgb(255,86,48);">Risk</span> <span style="color: rgb(23,43,77);">plain</span> ' +
        '<span style="color: rgb(0,101,255);">note</span> due <time datetime="2026-12-24" class="date-future">24 Dec 2026</time>' +
        '</p></div></body></html>',
    );
    expect(doc).toEqual(docOf(p(text('Risk', [colour('red')]), text(' plain '), text('note', [colour('blue')]), text(' due '), day('2026-12-24'))));
    // A link copied from a web page keeps no colour (its site's link colour is on the <a>); a background is no text colour.
    expect(
      htmlToDocument('<p><a href="https://example.com" style="color: rgb(51, 102, 204)">site</a> <span style="background-color: red">bg</span></p>').doc,
    ).toEqual(
      docOf(
        p(
          text('site', [
            { type: 'link', attrs: { href: 'https://example.com', target: '_blank', rel: 'noopener noreferrer nofollow', class: null, title: null } },
          ]),
          text(' bg'),
        ),
      ),
    );
    // A <time> whose datetime is no day stays its text.
    expect(htmlToDocument('<p><time datetime="soon">next week</time></p>').doc).toEqual(docOf(p(text('next week'))));
    expect(htmlToDocument('<p><time datetime="2026-12-07T09:30:00Z">Monday</time></p>').doc).toEqual(docOf(p(day('2026-12-07'))));
  });
});

describe('text colour and dates through the API', () => {
  let t: TestApp;
  let ws: Awaited<ReturnType<typeof workspaceWithRoles>>;
  let spaceId: string;
  let client: Client;
  beforeAll(async () => {
    const handbook = await listeningHandbook();
    ({ t, ws, spaceId } = handbook);
    client = await connectMcp(handbook.base, ws.editor.token);
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  const create = (body: Record<string, unknown>) =>
    t.request({ method: 'POST', url: '/api/v1/pages', token: ws.editor.token, body: { workspaceId: ws.workspace.id, spaceId, title: 'Plan', ...body } });

  it('POST /v1/pages with Markdown stores both, reads the same Markdown back, and search finds the day in words', async () => {
    const res = await create({ markdown: MARKDOWN, title: 'Launch plan' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const read = await t.request({ url: `/api/v1/pages/${res.body.data.id}`, token: ws.editor.token, query: { format: 'markdown' } });
    expect(read.status).toBe(200);
    expect(read.body.data.content).toEqual(DOC);
    expect(read.body.data.markdown).toBe(documentToMarkdown(DOC));
    const found = await t.request({ url: '/api/v1/search', token: ws.editor.token, query: { workspaceId: ws.workspace.id, query: 'December' } });
    expect(found.status).toBe(200);
    expect(found.body.data.map((r: { id: string }) => r.id)).toContain(res.body.data.id);
  });

  it('refuses hostile colours and impossible days in JSON content with 422 VALIDATION_ERROR naming where, on create and update', async () => {
    for (const bad of ['red;background:url(https://evil.example/x)', 'expression(alert(1))', '#ff0000']) {
      const res = await create({ content: docOf(p(text('Hi '), text('there', [colour(bad)]))) });
      expect(res.status, bad).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.message).toMatch(/^Invalid document at content\[0\]\.content\[1\]: must be one of "gray"/);
    }
    const bg = await create({ content: docOf(p(text('x', [background('yellow;background:url(https://evil.example/x)')]))) });
    expect(bg.status).toBe(422);
    expect(bg.body.error.message).toMatch(/^Invalid document at content\[0\]\.content\[0\]: must be one of "gray"/);
    const date = await create({ content: docOf(p(day('2026-02-30'))) });
    expect(date.status).toBe(422);
    expect(date.body.error.message).toBe('Invalid document at content[0].content[0]: must be a calendar date written YYYY-MM-DD');

    const made = await create({ markdown: 'Fine\n' });
    expect(made.status).toBe(201);
    const update = await t.request({
      method: 'PUT',
      url: `/api/v1/pages/${made.body.data.id}`,
      token: ws.editor.token,
      body: { content: docOf(p(text('x', [colour('url(javascript:alert(1))')]))) },
    });
    expect(update.status).toBe(422);
    expect(update.body.error.code).toBe('VALIDATION_ERROR');
    // Hostile Markdown is never a 422: it stays the text it is.
    const md = await create({ markdown: '<span data-color="red;x">a</span> :date[2026-02-30]\n' });
    expect(md.status).toBe(201);
    const back = await t.request({ url: `/api/v1/pages/${md.body.data.id}`, token: ws.editor.token });
    expect(back.body.data.content).toEqual(docOf(p(text('<span data-color="red;x">a</span> :date[2026-02-30]'))));
  });

  it('MCP page_create with Markdown, then page_get gives the same Markdown; a hostile colour is a VALIDATION_ERROR', async () => {
    const created = await client.callTool({ name: 'page_create', arguments: { workspaceId: ws.workspace.id, spaceId, title: 'By agent', markdown: MARKDOWN } });
    expect(created.isError, JSON.stringify(created.content)).toBe(false);
    const got = await client.callTool({ name: 'page_get', arguments: { pageId: (created.structuredContent as { id: string }).id } });
    expect((got.structuredContent as { markdown: string }).markdown).toBe(documentToMarkdown(DOC));
    const bad = await client.callTool({
      name: 'page_create',
      arguments: { workspaceId: ws.workspace.id, spaceId, title: 'Bad', content: docOf(p(text('x', [colour('red;background:url(x)')]))) },
    });
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0].text).toMatch(/^VALIDATION_ERROR: .*must be one of "gray"/);
  });
});

import { describe, expect, it } from 'vitest';
import { convertHtml, convertMarkdown } from '../../src/areas/imports/sources/markdown.js';
import { readerContent } from '../../src/areas/shares/reader/reader.content.js';
import { FOOTNOTE_MAX } from '../../src/editor/footnotes.js';
import { documentToHtml, htmlToDocument } from '../../src/editor/html.js';
import { documentToMarkdown, documentToText, markdownToDocument, validateDocument } from '../../src/editor/index.js';
import { useHandbookWithMcp } from '../helpers/mcp.js';
import { docOf, p, refused, text } from './helpers.js';

/** Footnotes: the schema's checks, GFM Markdown both ways (inside lists, tables, callouts), HTML both ways, search text, the API and MCP. */

const note = (t: unknown) => ({ type: 'footnote', attrs: { text: t } });
const cell = (type: string, ...content: object[]) => ({ type, attrs: { colspan: 1, rowspan: 1, colwidth: null, align: null }, content: [p(...content)] });
const item = (...content: object[]) => ({ type: 'listItem', content: [p(...content)] });

const MARKDOWN = 'Water boils at 100 °C[^1] at sea level[^2].\n\n[^1]: At 1 atm; \\*not\\* in the mountains.\n[^2]: See the \\[appendix\\] table.\n';
const DOC = docOf(
  p(text('Water boils at 100 °C'), note('At 1 atm; *not* in the mountains.'), text(' at sea level'), note('See the [appendix] table.'), text('.')),
);

describe('footnotes: the schema', () => {
  it('takes one line of plain text up to the limit (an empty note is one being written); refuses anything else with a 422', () => {
    for (const ok of ['', 'A note', 'x'.repeat(FOOTNOTE_MAX), '<script>alert(1)</script> stays text', 'ünïcödé ✓ — “quotes”'])
      expect(validateDocument(docOf(p(text('a'), note(ok))))).toEqual(docOf(p(text('a'), note(ok))));
    expect(validateDocument(docOf(p({ type: 'footnote' })))).toEqual(docOf(p(note(''))));
    expect(refused(docOf(p(note('x'.repeat(FOOTNOTE_MAX + 1)))))).toMatch(`must be at most ${FOOTNOTE_MAX} characters`);
    expect(refused(docOf(p(note('x'.repeat(1_000_000)))))).toMatch(/at most/);
    for (const bad of ['two\nlines', 'tab\there', 'nul\u0000', 'bell\u0007', 'del\u007f'])
      expect(refused(docOf(p(note(bad)))), JSON.stringify(bad)).toMatch(/one line of plain text/);
    for (const bad of [42, true, { html: '<b>' }, ['a']]) expect(refused(docOf(p(note(bad)))), JSON.stringify(bad)).toMatch(/must be a string/);
    expect(refused(docOf(p({ type: 'footnote', attrs: { text: 'a', href: 'javascript:alert(1)' } })))).toMatch(/unknown attribute "href"/);
    expect(refused(docOf(note('a')))).toMatch(/./); // inline only: not a block of its own
  });

  it('search text carries the note after its word', () => {
    expect(documentToText(DOC)).toBe('Water boils at 100 °C (At 1 atm; *not* in the mountains.) at sea level (See the [appendix] table.).');
  });
});

describe('footnotes: Markdown', () => {
  it('writes [^n] numbered in order with the definitions at the end, and reads them back', () => {
    expect(markdownToDocument(MARKDOWN)).toEqual(DOC);
    expect(documentToMarkdown(DOC)).toBe(MARKDOWN);
  });

  it('reads named labels and definitions anywhere; a label used twice is two notes; an unused definition is dropped; an undefined reference stays text', () => {
    const md = '[^src]: The source,\n  on two lines.\n\nA[^src] and B[^src], C[^missing], D^[inline *note*].\n\n[^unused]: Nobody points here.\n';
    const doc = markdownToDocument(md);
    expect(doc).toEqual(
      docOf(
        p(
          text('A'),
          note('The source, on two lines.'),
          text(' and B'),
          note('The source, on two lines.'),
          text(', C[^missing], D'),
          note('inline note'),
          text('.'),
        ),
      ),
    );
    expect(documentToMarkdown(doc)).toBe(
      'A[^1] and B[^2], C\\[^missing\\], D[^3].\n\n[^1]: The source, on two lines.\n[^2]: The source, on two lines.\n[^3]: inline note\n',
    );
    // Text that only looks like a footnote stays that text.
    const literal = docOf(p(text('See [^1] and [^1]: x')));
    expect(markdownToDocument(documentToMarkdown(literal))).toEqual(literal);
    // A note not yet written is left out; a note past the limit is cut, never a 422.
    expect(documentToMarkdown(docOf(p(text('a'), note(''), text('b'))))).toBe('ab\n');
    const long = markdownToDocument(`x[^1]\n\n[^1]: ${'y'.repeat(FOOTNOTE_MAX + 50)}\n`);
    expect((long.content as { content: { attrs: { text: string } }[] }[])[0].content[1].attrs.text).toHaveLength(FOOTNOTE_MAX);
  });

  it('round-trips footnotes in lists, tables, callouts, quotes and headings, numbered through the whole page', () => {
    const doc = validateDocument(
      docOf(
        { type: 'heading', attrs: { level: 2 }, content: [text('Title'), note('On the heading')] },
        {
          type: 'bulletList',
          content: [
            item(text('one'), note('In a list')),
            {
              type: 'listItem',
              content: [
                p(text('two')),
                { type: 'orderedList', attrs: { start: 1, type: null }, content: [item(text('deep'), note('Nested $5 `x` ==y== <span data-color="red">'))] },
              ],
            },
          ],
        },
        {
          type: 'table',
          content: [
            { type: 'tableRow', content: [cell('tableHeader', text('H'), note('Header | pipe'))] },
            { type: 'tableRow', content: [cell('tableCell', text('c'), note('In a cell'))] },
          ],
        },
        { type: 'callout', attrs: { type: 'info', icon: null }, content: [p(text('Mind'), note('In a callout'))] },
        { type: 'blockquote', content: [p(text('q'), note('In a quote'), text(' end'))] },
      ),
    );
    const md = documentToMarkdown(doc);
    expect(md).toContain('- one[^2]\n');
    expect(md).toContain('| H[^4] |\n| --- |\n| c[^5] |\n');
    expect(md.slice(md.indexOf('\n\n[^1]: '))).toBe(
      '\n\n[^1]: On the heading\n[^2]: In a list\n[^3]: Nested \\$5 \\`x\\` \\==y\\== \\<span data-color="red">\n[^4]: Header | pipe\n[^5]: In a cell\n[^6]: In a callout\n[^7]: In a quote\n',
    );
    expect(markdownToDocument(md)).toEqual(doc);
    // Markdown importers (Obsidian, kb's own export) read the same way.
    expect(convertMarkdown(md).doc).toEqual(doc);
  });
});

describe('footnotes: HTML', () => {
  it('writes numbered <sup> references and a footnotes section, and reads that back', () => {
    const html = documentToHtml(DOC);
    expect(html).toBe(
      '<p>Water boils at 100 °C<sup class="footnote-ref"><a href="#fn1" id="fnref1">1</a></sup> at sea level<sup class="footnote-ref"><a href="#fn2" id="fnref2">2</a></sup>.</p>' +
        '<section class="footnotes"><ol><li id="fn1">At 1 atm; *not* in the mountains. <a href="#fnref1">↩</a></li><li id="fn2">See the [appendix] table. <a href="#fnref2">↩</a></li></ol></section>',
    );
    expect(htmlToDocument(html)).toEqual({ doc: DOC, dropped: [] });
    expect(convertHtml(html).doc).toEqual(DOC);
    // The public reader keeps the links and their ids; text is escaped, never markup.
    const reader = readerContent(validateDocument(docOf(p(text('a'), note('<img src=x onerror=alert(1)>'))))).html;
    expect(reader).toContain('<sup class="footnote-ref"><a href="#fn1" id="fnref1">1</a></sup>');
    expect(reader).toContain('<li id="fn1">&lt;img src=x onerror=alert(1)&gt; <a href="#fnref1">↩</a></li>');
    // The editor's own HTML (its clipboard) reads back too.
    expect(htmlToDocument('<p>x<sup data-type="footnote" data-text="Pasted">*</sup></p>').doc).toEqual(docOf(p(text('x'), note('Pasted'))));
  });

  it('reads markdown-it-footnote’s, Pandoc’s and GitHub’s footnotes', () => {
    const markdownIt =
      '<p>A<sup class="footnote-ref"><a href="#fn1" id="fnref1">[1]</a></sup> B<sup class="footnote-ref"><a href="#fn2" id="fnref2">[2]</a></sup></p>\n<hr class="footnotes-sep">\n' +
      '<section class="footnotes"><ol class="footnotes-list"><li id="fn1" class="footnote-item"><p>First <em>note</em>\nmore <a href="#fnref1" class="footnote-backref">↩︎</a></p></li>' +
      '<li id="fn2" class="footnote-item"><p>Second</p><p>para</p><a href="#fnref2" class="footnote-backref">↩︎</a></li><li id="fn3"><p>orphan</p></li></ol></section>';
    expect(htmlToDocument(markdownIt)).toEqual({
      doc: docOf(p(text('A'), note('First note more'), text(' B'), note('Second para'))),
      dropped: ['1 footnote without a reference in the text was dropped'],
    });
    const pandoc =
      '<p>Text<a href="#fn1" class="footnote-ref" id="fnref1" role="doc-noteref"><sup>1</sup></a>.</p>' +
      '<section id="footnotes" class="footnotes footnotes-end-of-document" role="doc-endnotes"><hr /><ol><li id="fn1"><p>Pandoc note<a href="#fnref1" class="footnote-back" role="doc-backlink">↩︎</a></p></li></ol></section>';
    expect(htmlToDocument(pandoc).doc).toEqual(docOf(p(text('Text'), note('Pandoc note'), text('.'))));
    const github =
      '<p>Hi<sup><a href="#user-content-fn-1-x" id="user-content-fnref-1-x" data-footnote-ref="">1</a></sup></p>' +
      '<section data-footnotes="" class="footnotes"><h2 id="footnote-label" class="sr-only">Footnotes</h2><ol><li id="user-content-fn-1-x"><p>GH <a href="#user-content-fnref-1-x" data-footnote-backref="" class="data-footnote-backref">↩</a></p></li></ol></section>';
    expect(htmlToDocument(github).doc).toEqual(docOf(p(text('Hi'), note('GH'))));
    // An in-page link that is no footnote stays a link; a footnotes list item longer than the limit is cut.
    const plain = htmlToDocument('<p><a href="#top">top</a></p>').doc;
    expect(JSON.stringify(plain)).toContain('"href":"#top"');
    const long = htmlToDocument(
      `<p>x<sup><a href="#fn1">1</a></sup></p><section class="footnotes"><ol><li id="fn1">${'z'.repeat(5000)}</li></ol></section>`,
    ).doc;
    expect(validateDocument(long)).toEqual(long);
  });
});

describe('footnotes through the API and MCP', () => {
  const h = useHandbookWithMcp();
  const create = (body: Record<string, unknown>) =>
    h.t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: h.ws.editor.token,
      body: { workspaceId: h.ws.workspace.id, spaceId: h.spaceId, title: 'Notes', ...body },
    });

  it('refuses hostile footnote text in JSON content with 422 VALIDATION_ERROR naming where; search finds the note', async () => {
    for (const bad of ['x'.repeat(FOOTNOTE_MAX + 1), 'a\nb', 12]) {
      const res = await create({ content: docOf(p(text('Hi'), note(bad))) });
      expect(res.status, String(bad).slice(0, 20)).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.message).toMatch(/^Invalid document at content\[0\]\.content\[1\]: /);
    }
    const made = await create({ markdown: 'Boiling[^1]\n\n[^1]: Quintessential thermometer reading\n' });
    expect(made.status).toBe(201);
    const found = await h.t.request({ url: '/api/v1/search', token: h.ws.editor.token, query: { workspaceId: h.ws.workspace.id, query: 'quintessential' } });
    expect(found.body.data.map((r: { id: string }) => r.id)).toContain(made.body.data.id);
  });

  it('MCP page_create, page_update and page_get carry footnotes as Markdown; hostile JSON is a VALIDATION_ERROR', async () => {
    const created = await h.client.callTool({
      name: 'page_create',
      arguments: { workspaceId: h.ws.workspace.id, spaceId: h.spaceId, title: 'By agent', markdown: MARKDOWN },
    });
    expect(created.isError, JSON.stringify(created.content)).toBe(false);
    const id = (created.structuredContent as { id: string }).id;
    const got = await h.client.callTool({ name: 'page_get', arguments: { pageId: id } });
    expect((got.structuredContent as { markdown: string }).markdown).toBe(MARKDOWN);
    const updated = await h.client.callTool({ name: 'page_update', arguments: { pageId: id, markdown: '- item[^a]\n\n[^a]: Listed\n' } });
    expect(updated.isError, JSON.stringify(updated.content)).toBe(false);
    const again = await h.client.callTool({ name: 'page_get', arguments: { pageId: id } });
    expect((again.structuredContent as { markdown: string }).markdown).toBe('- item[^1]\n\n[^1]: Listed\n');
    const bad = await h.client.callTool({
      name: 'page_create',
      arguments: { workspaceId: h.ws.workspace.id, spaceId: h.spaceId, title: 'Bad', content: docOf(p(note('x'.repeat(FOOTNOTE_MAX + 1)))) },
    });
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0].text).toMatch(/^VALIDATION_ERROR: .*at most 1000 characters/);
  });
});

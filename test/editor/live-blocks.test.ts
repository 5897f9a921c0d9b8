import { describe, expect, it } from 'vitest';
import { chunkDocument } from '../../src/areas/knowledge/knowledge.chunk.js';
import { readerContent } from '../../src/areas/shares/reader/reader.content.js';
import { documentToHtml, htmlToDocument } from '../../src/editor/html.js';
import { documentToMarkdown, documentToText, markdownToDocument, validateDocument } from '../../src/editor/index.js';
import { AppError } from '../../src/errors.js';

const docOf = (...content: object[]) => ({ type: 'doc', content });
const p = (t: string) => ({ type: 'paragraph', content: [{ type: 'text', text: t }] });
const h = (level: number, t: string) => ({ type: 'heading', attrs: { level }, content: [{ type: 'text', text: t }] });
const SUBPAGES = { type: 'subpages' };
const TOC = { type: 'tableOfContents' };

function refused(json: unknown): string {
  try {
    validateDocument(json);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(422);
    return (err as AppError).message;
  }
  throw new Error('expected the document to be refused');
}

describe('live blocks: subpages and tableOfContents', () => {
  it('are atoms without attributes: a valid document keeps them as given', () => {
    const doc = docOf(h(1, 'Guide'), TOC, p('Intro'), SUBPAGES);
    expect(validateDocument(doc)).toEqual(doc);
  });

  it('refuse attributes, content and text (422, never a 500)', () => {
    expect(refused(docOf({ type: 'subpages', attrs: { parentId: 'x' } }))).toMatch(/unknown attribute "parentId" on node subpages/);
    expect(refused(docOf({ type: 'tableOfContents', attrs: { levels: 6 } }))).toMatch(/unknown attribute "levels" on node tableOfContents/);
    expect(refused(docOf({ type: 'subpages', content: [p('x')] }))).toMatch(/subpages/);
    expect(refused(docOf({ type: 'tableOfContents', text: 'x' }))).toMatch(/only text nodes have "text"/);
    expect(refused(docOf({ type: 'paragraph', content: [SUBPAGES] }))).toMatch(/content|paragraph|invalid/i);
  });

  it('Markdown: ::subpages and ::toc on their own lines round-trip, inside quotes and lists too', () => {
    const doc = validateDocument(docOf(h(1, 'Guide'), TOC, p('Below:'), SUBPAGES, { type: 'blockquote', content: [SUBPAGES] }));
    const md = documentToMarkdown(doc);
    expect(md).toBe('# Guide\n\n::toc\n\nBelow:\n\n::subpages\n\n> ::subpages\n');
    expect(markdownToDocument(md)).toEqual(doc);
    // Trailing spaces are fine, and the line may follow a paragraph without a blank line.
    expect(markdownToDocument('Text\n::toc  \n::subpages\n').content).toEqual([p('Text'), TOC, SUBPAGES]);
  });

  it('Markdown: anything else on the line, or an indented line, stays text', () => {
    for (const line of ['::toc[]', '::subpages{x=1}', 'see ::toc', '::tocs', ':::toc', '::TOC']) {
      const doc = markdownToDocument(line);
      expect(JSON.stringify(doc), line).not.toMatch(/"subpages"|"tableOfContents"/);
      expect(markdownToDocument(documentToMarkdown(doc)), line).toEqual(doc);
    }
    expect(markdownToDocument('    ::toc\n').content).toEqual([{ type: 'codeBlock', attrs: { language: null }, content: [{ type: 'text', text: '::toc' }] }]);
  });

  it('Markdown: a line of text that reads `::toc` is written escaped, so it stays text', () => {
    const doc = validateDocument(
      docOf(p('::toc'), { type: 'paragraph', content: [{ type: 'text', text: 'a' }, { type: 'hardBreak' }, { type: 'text', text: '::subpages' }] }),
    );
    const md = documentToMarkdown(doc);
    expect(md).toBe('\\::toc\n\na\\\n\\::subpages\n');
    expect(markdownToDocument(md)).toEqual(doc);
    // So is a callout's fence, and a line with spaces before it; text that reads as no block is written as it was.
    for (const [text, md] of [
      [':::info', '\\:::info\n'],
      [':::', '\\:::\n'],
      ['  ::toc', '  \\::toc\n'],
      ['::toc now', '::toc now\n'],
      ['::subpages:', '::subpages:\n'],
      // A line that reads as another leaf directive (a player, an embed) too.
      ['::video[Intro](https://example.com/a.mp4)', '\\::video\\[Intro\\](https://example.com/a.mp4)\n'],
      ['::embed[https://vimeo.com/76979871]', '\\::embed\\[https://vimeo.com/76979871\\]\n'],
    ]) {
      const one = validateDocument(docOf(p(text)));
      expect(documentToMarkdown(one), text).toBe(md);
      expect(markdownToDocument(md).content, text).toEqual([p(text.trim())]);
    }
    // Code keeps its colons as written.
    const code = validateDocument(docOf({ type: 'paragraph', content: [{ type: 'text', text: '::toc', marks: [{ type: 'code' }] }] }));
    expect(documentToMarkdown(code)).toBe('`::toc`\n');
  });

  it('HTML: the contents list links to the h1–h3 headings (given ids), subpages a placeholder; both read back', () => {
    const doc = validateDocument(docOf(TOC, h(1, 'Set up'), h(2, 'Set up'), h(4, 'Deep'), SUBPAGES, h(3, 'Café <b>')));
    const html = documentToHtml(doc);
    expect(html).toBe(
      '<nav data-type="toc" class="toc" aria-label="Table of contents"><ul>' +
        '<li class="toc-h1"><a href="#set-up">Set up</a></li><li class="toc-h2"><a href="#set-up-2">Set up</a></li>' +
        '<li class="toc-h3"><a href="#cafe-b">Café &lt;b&gt;</a></li></ul></nav>' +
        '<h1 id="set-up">Set up</h1><h2 id="set-up-2">Set up</h2><h4 id="deep">Deep</h4>' +
        '<nav data-type="subpages" class="subpages" aria-label="Subpages">Subpages</nav><h3 id="cafe-b">Café &lt;b&gt;</h3>',
    );
    expect(htmlToDocument(html)).toEqual({ doc, dropped: [] });
    // Without headings the contents keep their label; a page without contents gets no heading ids.
    expect(documentToHtml(validateDocument(docOf(TOC)))).toBe('<nav data-type="toc" class="toc" aria-label="Table of contents">Table of contents</nav>');
    expect(documentToHtml(validateDocument(docOf(h(2, 'Plain'))))).toBe('<h2>Plain</h2>');
  });

  it('the share reader keeps the contents as links to its headings and drops the subpages placeholder (it lists the children itself)', () => {
    const { html } = readerContent(validateDocument(docOf(TOC, h(2, 'One'), SUBPAGES, p('End'))) as never);
    expect(html).toContain('<ul><li class="toc-h2"><a href="#one">One</a></li></ul><h2 id="one">One</h2>');
    expect(html).not.toMatch(/<nav|Subpages/);
  });

  it('have no text for search, nor for the knowledge passages', () => {
    expect(documentToText(validateDocument(docOf(p('Intro'), TOC, SUBPAGES, p('End'))))).toBe('Intro\nEnd');
    expect(chunkDocument(validateDocument(docOf(h(1, 'Guide'), TOC, p('Intro'), SUBPAGES))).map((c) => c.content)).toEqual(['# Guide\n\nIntro']);
  });
});

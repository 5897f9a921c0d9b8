import { describe, expect, it } from 'vitest';
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

  it('Markdown: a paragraph that reads `::toc` is written escaped, so it stays a paragraph', () => {
    const doc = validateDocument(
      docOf(p('::toc'), { type: 'paragraph', content: [{ type: 'text', text: 'a' }, { type: 'hardBreak' }, { type: 'text', text: '::subpages' }] }),
    );
    const md = documentToMarkdown(doc);
    expect(md).toBe('\\::toc\n\na\\\n\\::subpages\n');
    expect(markdownToDocument(md)).toEqual(doc);
    // Code keeps its colons as written.
    const code = validateDocument(docOf({ type: 'paragraph', content: [{ type: 'text', text: '::toc', marks: [{ type: 'code' }] }] }));
    expect(documentToMarkdown(code)).toBe('`::toc`\n');
  });

  it('HTML: a <nav data-type> placeholder each, read back; the share reader keeps their label as text', () => {
    const doc = validateDocument(docOf(TOC, h(2, 'One'), SUBPAGES));
    const html = documentToHtml(doc);
    expect(html).toBe(
      '<nav data-type="toc" class="toc" aria-label="Table of contents">Table of contents</nav><h2>One</h2>' +
        '<nav data-type="subpages" class="subpages" aria-label="Subpages">Subpages</nav>',
    );
    expect(htmlToDocument(html)).toEqual({ doc, dropped: [] });
    expect(readerContent(doc).html).not.toContain('<nav');
  });

  it('have no text for search', () => {
    expect(documentToText(validateDocument(docOf(p('Intro'), TOC, SUBPAGES, p('End'))))).toBe('Intro\nEnd');
  });
});

import { describe, expect, it } from 'vitest';
import { renderExportPages } from '../../src/areas/exports/exports.render.js';
import { htmlToDocument } from '../../src/editor/html.js';
import { documentToMarkdown, documentToText, markdownToDocument, validateDocument } from '../../src/editor/index.js';
import { documentToYState, yStateToSnapshot } from '../../src/editor/ydoc.js';
import { docOf, p, refused, text } from './helpers.js';

const callout = (type: string, icon: string | null, ...content: object[]) => ({ type: 'callout', attrs: { type, icon }, content });
const toggle = (summary: string, ...content: object[]) => ({
  type: 'details',
  content: [
    { type: 'detailsSummary', content: [text(summary)] },
    { type: 'detailsContent', content },
  ],
});
const mathBlock = (latex: string) => ({ type: 'mathBlock', attrs: { latex } });
const mathInline = (latex: string) => ({ type: 'mathInline', attrs: { latex } });

const ALL = docOf(
  callout('warning', '🔥', p(text('Careful '), text('now', [{ type: 'bold' }])), callout('info', null, p(text('nested')))),
  toggle('More', p(text('Hidden')), { type: 'bulletList', content: [{ type: 'listItem', content: [p(text('a'))] }] }),
  p(text('Area is '), mathInline('\\pi r^2'), text(', price $5 and $6.')),
  mathBlock('\\frac{a}{b}\n+ c'),
  { type: 'codeBlock', attrs: { language: 'mermaid' }, content: [text('graph TD\n  A-->B')] },
);

describe('callout, toggle and math: validation', () => {
  it('accepts each block and fills defaults', () => {
    expect(validateDocument(ALL)).toEqual(ALL);
    expect(validateDocument(docOf({ type: 'callout', content: [p(text('x'))] }))).toEqual(docOf(callout('info', null, p(text('x')))));
  });

  it('refuses hostile or malformed attributes', () => {
    expect(refused(docOf(callout('evil', null, p(text('x')))))).toMatch(/must be one of/);
    expect(refused(docOf(callout('info', '<img src=x onerror=alert(1)>', p(text('x')))))).toMatch(/emoji/);
    expect(refused(docOf(callout('info', 'a b', p(text('x')))))).toMatch(/emoji/);
    expect(refused(docOf({ type: 'callout', attrs: { type: 'info', onclick: 'x' }, content: [p(text('x'))] }))).toMatch(/unknown attribute/);
    expect(refused(docOf(p({ type: 'mathInline', attrs: { latex: 42 } })))).toMatch(/must be a string/);
    expect(refused(docOf({ type: 'details', content: [{ type: 'detailsSummary' }] }))).toMatch(/missing required content|not allowed/);
  });

  it('refuses a huge formula with a 422 that says why', () => {
    expect(() => validateDocument(docOf(mathBlock('x'.repeat(10_000))))).not.toThrow();
    expect(refused(docOf(mathBlock('x'.repeat(10_001))))).toMatch(/at most 10000 characters/);
    expect(refused(docOf(p(mathInline('x'.repeat(10_001)))))).toMatch(/at most 10000 characters/);
    expect(() => markdownToDocument(`$$\n${'x'.repeat(10_001)}\n$$`)).toThrow(/at most 10000 characters/);
  });
});

describe('callout, toggle and math: Markdown', () => {
  it('writes the agreed forms and reads them back identical', () => {
    const md = documentToMarkdown(ALL);
    expect(md).toContain(':::warning 🔥\nCareful **now**\n');
    expect(md).toContain(':::info\nnested');
    expect(md).toContain('<details>\n<summary>More</summary>\n\nHidden');
    expect(md).toContain('</details>');
    expect(md).toContain('Area is $\\pi r^2$, price \\$5 and \\$6.');
    expect(md).toContain('$$\n\\frac{a}{b}\n+ c\n$$');
    expect(md).toContain('```mermaid\ngraph TD\n  A-->B\n```');
    expect(markdownToDocument(md)).toEqual(ALL);
    expect(documentToMarkdown(markdownToDocument(md))).toBe(md);
  });

  it('reads the forms other tools write', () => {
    expect(markdownToDocument(':::tip\nDo this\n:::\n')).toEqual(docOf(callout('success', null, p(text('Do this')))));
    expect(markdownToDocument('> [!WARNING]\n> Mind the gap\n')).toEqual(docOf(callout('warning', null, p(text('Mind the gap')))));
    expect(markdownToDocument('> [!note]\n> Read me\n')).toEqual(docOf(callout('note', null, p(text('Read me')))));
    expect(markdownToDocument('> plain quote\n')).toEqual(docOf({ type: 'blockquote', content: [p(text('plain quote'))] }));
    expect(markdownToDocument('<details><summary>Why</summary>\n\nBecause.\n</details>\n')).toEqual(docOf(toggle('Why', p(text('Because.')))));
    expect(markdownToDocument('<details open>\n<summary>Empty</summary>\n</details>\n')).toEqual(
      docOf({
        type: 'details',
        content: [
          { type: 'detailsSummary', content: [text('Empty')] },
          { type: 'detailsContent', content: [{ type: 'paragraph' }] },
        ],
      }),
    );
    expect(markdownToDocument('$$ E = mc^2 $$\n')).toEqual(docOf(mathBlock('E = mc^2')));
    expect(markdownToDocument('costs $5 and $6\n')).toEqual(docOf(p(text('costs $5 and $6'))));
    expect(markdownToDocument('an unclosed :::info\n')).toEqual(docOf(p(text('an unclosed :::info'))));
  });
});

describe('callout, toggle and math: HTML, text, co-editing', () => {
  it('exports HTML that reads back as the same document', () => {
    const [html] = renderExportPages({ format: 'html', pages: [{ id: 'p', title: 'T', createdAt: '', updatedAt: '', authors: [], doc: ALL }] });
    expect(html).toContain('<aside class="callout callout-warning" data-callout="warning" data-icon="🔥">');
    expect(html).toContain('<details class="toggle"><summary>More</summary><div data-details-content="">');
    expect(html).toContain('<span data-math="inline" class="math math-inline">\\pi r^2</span>');
    expect(html).toContain('<div data-math="block" class="math math-block">');
    const body = html.slice(html.indexOf('<body>') + 6, html.indexOf('</body>'));
    expect(htmlToDocument(body, { preserveWhitespace: true }).doc).toEqual(ALL);
  });

  it('reads a plain <details> from HTML', () => {
    expect(htmlToDocument('<details><summary>Q</summary><p>A</p></details>').doc).toEqual(docOf(toggle('Q', p(text('A')))));
  });

  it('keeps TeX source and toggle text for search', () => {
    const t = documentToText(ALL);
    expect(t).toContain('\\pi r^2');
    expect(t).toContain('\\frac{a}{b}');
    expect(t).toContain('More');
    expect(t).toContain('Hidden');
    expect(t).toContain('Careful now');
  });

  it('goes through the co-editing (Yjs) form unchanged', () => {
    const snap = yStateToSnapshot({ state: documentToYState(ALL), stored: ALL });
    expect(snap.json).toEqual(ALL);
    expect(snap.corrected).toBe(false);
    expect(snap.unchanged).toBe(true);
  });
});

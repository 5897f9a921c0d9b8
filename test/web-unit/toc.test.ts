import { describe, expect, it } from 'vitest';
import { markdownToDocument } from '../../src/editor/markdown.js';
import { schema } from '../../src/editor/schema.js';
import { headingsOf, sameHeadings } from '../../web/src/features/pages/toc/toc.model.ts';

const docOf = (markdown: string) => schema.nodeFromJSON(markdownToDocument(markdown));

describe('table of contents: headings of a document', () => {
  it('lists h1–h3 in order with their positions, inside quotes and lists too, and leaves out h4 and empty headings', () => {
    const doc = docOf('# One\n\ntext\n\n## Two\n\n> ### Quoted\n\n#### Four\n\n##\n\n- item\n');
    const found = headingsOf(doc);
    expect(found.map((h) => [h.level, h.text])).toEqual([
      [1, 'One'],
      [2, 'Two'],
      [3, 'Quoted'],
    ]);
    for (const h of found) expect(doc.nodeAt(h.pos)?.type.name).toBe('heading');
  });

  it('tells equal lists apart from changed ones', () => {
    const a = headingsOf(docOf('# A\n\n## B\n'));
    expect(sameHeadings(a, headingsOf(docOf('# A\n\n## B\n')))).toBe(true);
    expect(sameHeadings(a, headingsOf(docOf('# A\n\n## C\n')))).toBe(false);
  });

  it('reads a 1 MB page quickly (the figure is printed, not asserted)', () => {
    const section = `## Section\n\n${'A paragraph of some length that fills a line of the page with ordinary words. '.repeat(3)}\n\n- a list item\n- another\n\n`;
    const doc = docOf(section.repeat(Math.ceil(1_000_000 / section.length)));
    expect(doc.textContent.length).toBeGreaterThan(900_000);
    headingsOf(doc);
    const start = performance.now();
    const runs = 10;
    for (let i = 0; i < runs; i++) headingsOf(doc);
    const ms = (performance.now() - start) / runs;
    console.log(`[toc] ${doc.childCount} top-level blocks, ${headingsOf(doc).length} headings: ${ms.toFixed(2)} ms a walk`);
    expect(headingsOf(doc).length).toBeGreaterThan(1000);
  });
});

import { expect } from 'vitest';
import { markdownToDocument } from '../../src/editor/index.js';

/** Document JSON builders for the blocks other tools' callouts, toggles, equations and diagrams become. */
export const text = (t: string, marks?: object[]) => ({ type: 'text', text: t, ...(marks ? { marks } : {}) });
export const bold = (t: string) => text(t, [{ type: 'bold' }]);
export const p = (...content: object[]) => (content.length ? { type: 'paragraph', content } : { type: 'paragraph' });
export const callout = (type: string, icon: string | null, ...content: object[]) => ({ type: 'callout', attrs: { type, icon }, content });
export const toggle = (summary: object[], ...content: object[]) => ({
  type: 'details',
  content: [summary.length ? { type: 'detailsSummary', content: summary } : { type: 'detailsSummary' }, { type: 'detailsContent', content }],
});
export const mathBlock = (latex: string) => ({ type: 'mathBlock', attrs: { latex } });
export const mathInline = (latex: string) => ({ type: 'mathInline', attrs: { latex } });
export const codeBlock = (language: string | null, code: string) => ({ type: 'codeBlock', attrs: { language }, content: [text(code)] });
export const bullets = (...items: string[]) => ({ type: 'bulletList', content: items.map((i) => ({ type: 'listItem', content: [p(text(i))] })) });

/** A page read through the API reads back from its own Markdown (`?format=markdown`) as the same document. */
export function expectMarkdownRoundTrip(page: { content: unknown; markdown: string }) {
  expect(markdownToDocument(page.markdown)).toEqual(page.content);
}

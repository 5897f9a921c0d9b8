import { Node } from '@tiptap/core';
import type { Node as PMNode } from '@tiptap/pm/model';

/**
 * A footnote (`footnote`, attribute `text`: plain text, at most `FOOTNOTE_MAX` characters, no line breaks or other
 * control characters): an inline atom where its reference stands. Its number is its place among the document's
 * footnotes, computed wherever it is shown (never stored), so moving or deleting one renumbers the rest.
 * - Markdown (GFM): `[^1]` in the text and `[^1]: text` at the end of the document (footnotes-markdown.ts);
 * - HTML: `<sup class="footnote-ref"><a href="#fn1" id="fnref1">1</a></sup>` and a
 *   `<section class="footnotes"><ol><li id="fn1">text <a href="#fnref1">↩</a></li></ol></section>` at the end
 *   (footnotes-html.ts), and that shape (markdown-it-footnote's, Pandoc's, GitHub's) reads back as footnotes;
 * - plain text (search): the note in brackets after the word it belongs to.
 * The HTML of the node itself (`<sup data-type="footnote" data-text="…">`) is what the editor's clipboard carries.
 */

export const FOOTNOTE_MAX = 1000;

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Whether `v` is a footnote's text (an empty one is a footnote being written). */
export function isFootnoteText(v: unknown): v is string {
  return typeof v === 'string' && v.length <= FOOTNOTE_MAX && !CONTROL.test(v);
}

const textAttr = (v: unknown) => {
  if (typeof v !== 'string') throw new RangeError('must be a string (the footnote’s text)');
  if (v.length > FOOTNOTE_MAX) throw new RangeError(`must be at most ${FOOTNOTE_MAX} characters`);
  if (CONTROL.test(v)) throw new RangeError('must be one line of plain text (no line breaks or control characters)');
};

/** Text read from elsewhere (HTML, a multi-line Markdown definition) as a footnote's: one line, within the limit. */
export function asFootnoteText(raw: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters become spaces
  const flat = raw.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim();
  return flat.length <= FOOTNOTE_MAX ? flat : `${flat.slice(0, FOOTNOTE_MAX - 1).trimEnd()}…`;
}

/** The texts of a document's footnotes in order (a footnote's number is its place here, from 1). */
export function footnotesOf(doc: PMNode): string[] {
  const notes: string[] = [];
  doc.descendants((node) => {
    if (node.type.name === 'footnote') notes.push(String(node.attrs.text ?? ''));
  });
  return notes;
}

export const FootnoteNode = Node.create({
  name: 'footnote',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,
  addAttributes() {
    return {
      text: { default: '', validate: textAttr, parseHTML: (el: HTMLElement) => asFootnoteText(el.getAttribute('data-text') ?? ''), renderHTML: () => ({}) },
    };
  },
  parseHTML() {
    return [{ tag: 'sup[data-type="footnote"]' }];
  },
  renderHTML({ node }) {
    return ['sup', { class: 'footnote-ref', 'data-type': 'footnote', 'data-text': node.attrs.text }, '*'];
  },
  renderText({ node }) {
    return node.attrs.text ? ` (${node.attrs.text})` : '';
  },
});

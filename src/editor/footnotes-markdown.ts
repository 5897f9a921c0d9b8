import type { Node as PMNode } from '@tiptap/pm/model';
import type MarkdownIt from 'markdown-it';
import type { StateCore, Token } from 'markdown-it';
import markdownItFootnote from 'markdown-it-footnote';
import type { MarkdownSerializerState } from 'prosemirror-markdown';
import { asFootnoteText } from './footnotes.js';

/**
 * Footnotes in Markdown, the GFM way (footnotes.ts): a reference `[^label]` anywhere in the text and its definition
 * `[^label]: text` anywhere in the document, read by markdown-it-footnote (which also reads the inline `^[text]`).
 * Each reference becomes a footnote holding its definition's text, as plain text (the definition's formatting and
 * its blocks are flattened to one line); a label used twice gives two footnotes with the same text. A reference
 * with no definition stays the text it is; a definition no reference uses is dropped (as GitHub shows neither).
 * The writer numbers the footnotes in order, `[^1]`, `[^2]`…, and lists their definitions at the end of the document;
 * one without text yet is left out.
 */

/** What an inline token reads as in a footnote's plain text. */
function tokenText(tok: Token): string {
  switch (tok.type) {
    case 'text':
    case 'text_special': // an escaped character (`\*`), joined into text only after this rule runs
    case 'code_inline':
      return tok.content;
    case 'math_inline':
      return `$${tok.content}$`;
    case 'softbreak':
    case 'hardbreak':
      return ' ';
    case 'image':
      return tok.children?.map(tokenText).join('') ?? '';
    case 'date':
      return String(tok.attrGet('date') ?? '');
    default:
      return '';
  }
}

const idOf = (tok: Token) => Number((tok.meta as { id?: number } | null)?.id ?? -1);

/** The definitions' texts by footnote id, taken out of the tokens; each reference becomes a `footnote` token. */
function footnotesRule(state: StateCore) {
  const texts = new Map<number, string>();
  const kept: Token[] = [];
  let inBlock = false;
  let current: { id: number; parts: string[] } | null = null;
  for (const tok of state.tokens) {
    if (tok.type === 'footnote_block_open') inBlock = true;
    else if (tok.type === 'footnote_block_close') inBlock = false;
    else if (tok.type === 'footnote_open') current = { id: idOf(tok), parts: [] };
    else if (tok.type === 'footnote_close' && current) {
      texts.set(current.id, asFootnoteText(current.parts.join(' ')));
      current = null;
    } else if (current && tok.type === 'inline') current.parts.push(tok.children?.map(tokenText).join('') ?? tok.content);
    else if (!inBlock) kept.push(tok);
  }
  state.tokens = kept;
  for (const block of kept) {
    if (block.type !== 'inline' || !block.children) continue;
    for (const tok of block.children) {
      if (tok.type !== 'footnote_ref') continue;
      tok.type = 'footnote';
      tok.attrSet('text', texts.get(idOf(tok)) ?? '');
    }
  }
}

export function footnotesPlugin(md: ReturnType<typeof MarkdownIt>): void {
  md.use(markdownItFootnote);
  md.core.ruler.after('footnote_tail', 'kb_footnotes', footnotesRule);
}

export const footnoteTokens = {
  footnote: { node: 'footnote', getAttrs: (tok: Token) => ({ text: tok.attrGet('text') ?? '' }), noCloseToken: true },
};

/**
 * The definitions of the document being written (the writer is synchronous: one at a time), in order. A table's
 * cells are written by a serializer of their own (markdown.ts), so the list lives here rather than on its state.
 */
let definitions: string[] | null = null;

/** Writes `write`'s Markdown with the definitions of its footnotes appended at the end. */
export function withFootnoteDefinitions(write: () => string): string {
  const outer = definitions;
  definitions = [];
  try {
    const body = write();
    if (definitions.length === 0) return body;
    return `${body}\n\n${definitions.map((d, i) => `[^${i + 1}]: ${d}`).join('\n')}`;
  } finally {
    definitions = outer;
  }
}

/** A footnote's reference, `[^n]` (its text is escaped so it reads back as the same plain text). */
export function writeFootnote(state: MarkdownSerializerState, node: PMNode) {
  const text = String(node.attrs.text ?? '').trim();
  if (!text || !definitions) return;
  definitions.push(state.esc(text).replace(/\$/g, '\\$'));
  state.write(`[^${definitions.length}]`);
}

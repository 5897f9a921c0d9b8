import type { Node as PMNode } from '@tiptap/pm/model';
import MarkdownIt, { type StateCore, type StateInline, type Token } from 'markdown-it';
import { defaultMarkdownSerializer, MarkdownParser, MarkdownSerializer, type MarkdownSerializerState } from 'prosemirror-markdown';
import { cleanCaption, imageAttrList, readImageAttrList } from './images.js';
import { footnotesPlugin, footnoteTokens, withFootnoteDefinitions, writeFootnote } from './footnotes-markdown.js';
import { LIVE_BLOCKS } from './live-blocks.js';
import { blocksPlugin, blockTokens, mediaDirective } from './markdown-blocks.js';
import { INLINE_ESCAPES, inlinePlugin, inlineTokens } from './markdown-inline.js';
import { schema } from './schema.js';
import { isNode } from './text.js';
import { isTextColour } from './text-colours.js';
import { isAllowedImageUrl, isAllowedLinkUrl } from './urls.js';
import { type DocJson, documentError, parseDocument, readDocument } from './validate.js';

/**
 * Markdown in and out (CommonMark + GFM tables, strikethrough and task lists), over `prosemirror-markdown`.
 *
 * Syntax choices beyond CommonMark:
 * - task lists: `- [ ] todo` / `- [x] done` (a bullet list becomes a task list when every item starts so);
 * - mentions: `[@Label](mention:<id>)`, a link with the `mention:` scheme (readable anywhere Markdown is);
 * - an image alone in its paragraph (or in one of images only) is a block image; one inside a line of text (an
 *   icon in a sentence) stays there, an `inlineImage`; images in a heading without text move after it;
 * - a block image's title slot is its caption, and its layout an attribute list right after it:
 *   `![alt](src "caption"){width=50% align=center}` (images.ts);
 * - tables: GFM pipe tables; the first row is the header; column alignment kept; a cell holds one line of inline
 *   content (several blocks in a cell are joined with spaces; colspan/rowspan are not expressible);
 * - highlight: `==text==` (as Obsidian, Typora and markdown-it-mark write it); a `==` in plain text is written `\==`;
 * - text colour: `<span data-color="red">text</span>`, background colour `<mark data-color="red">text</mark>`, the
 *   only HTML read (a palette name only; see markdown-inline.ts); dates `:date[2026-12-07]`;
 * - columns: `::::columns`, then each column as `:::column` … `:::`, then `::::` (see markdown-columns.ts);
 * - footnotes: GFM's `[^1]` and `[^1]: text` (definitions written at the end; see footnotes-markdown.ts);
 * - raw HTML is not interpreted (kept as text);
 * - a paragraph that is a lone `\\` is an empty paragraph (Outline writes empty paragraphs so). The writer uses it
 *   where an empty paragraph carries structure: the empty first paragraph of a list item with more blocks after it
 *   (`- ` followed by a blank line would end the item, and its blocks would fall out of the list).
 */

const MENTION = 'mention:';

// ---------- Markdown → document ----------

function mentionsRule(state: StateCore) {
  for (const block of state.tokens) {
    const children = block.children;
    if (block.type !== 'inline' || !children) continue;
    const out: Token[] = [];
    for (let i = 0; i < children.length; i++) {
      const tok = children[i];
      const href = tok.type === 'link_open' ? String(tok.attrGet('href') ?? '') : '';
      const text = children[i + 1];
      const close = children[i + 2];
      // `mention:` with no id points nowhere: left a link, which the next rule drops (its text kept).
      if (href.startsWith(MENTION) && href.length > MENTION.length && text?.type === 'text' && close?.type === 'link_close') {
        const mention = new state.Token('mention', '', 0);
        let id = href.slice(MENTION.length);
        try {
          id = decodeURIComponent(id);
        } catch {
          // keep it as written
        }
        mention.attrSet('id', id);
        mention.attrSet('label', text.content.replace(/^@/, ''));
        out.push(mention);
        i += 2;
      } else out.push(tok);
    }
    block.children = out;
  }
}

/** An empty destination (`[x]()`, `[x](<>)`, `[x]( )`, `[r]: <>`): valid CommonMark, and Outline writes it, but it points nowhere. */
const isEmptyUrl = (url: string) => url.trim() === '';

/**
 * markdown-it lets a URL through when it suits a link or an image (see `validateLink` below); here the one that
 * suits only the other kind, or is empty, loses its markup: a link keeps its text, an image becomes its alt text
 * (nothing when it has none). So Markdown always makes a valid document.
 */
function allowedUrlsRule(state: StateCore) {
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const out: Token[] = [];
    // A stack, not a count: links cannot nest in CommonMark, but each close must match its own open.
    const links: boolean[] = [];
    for (const tok of block.children) {
      if (tok.type === 'link_open') {
        const href = String(tok.attrGet('href') ?? '');
        const kept = !isEmptyUrl(href) && isAllowedLinkUrl(href);
        links.push(kept);
        if (kept) out.push(tok);
      } else if (tok.type === 'link_close') {
        if (links.pop() !== false) out.push(tok);
      } else if (tok.type === 'image' && (isEmptyUrl(String(tok.attrGet('src') ?? '')) || !isAllowedImageUrl(String(tok.attrGet('src') ?? '')))) {
        const alt = new state.Token('text', '', 0);
        alt.content = tok.children?.map((c) => c.content).join('') ?? '';
        if (alt.content) out.push(alt);
      } else out.push(tok);
    }
    block.children = out;
  }
}

/** GFM cells hold inline content directly; our cells hold blocks: wrap it in a paragraph. */
function tableCellsRule(state: StateCore) {
  const out: Token[] = [];
  for (const tok of state.tokens) {
    const prev = out[out.length - 1];
    if (tok.type === 'inline' && (prev?.type === 'th_open' || prev?.type === 'td_open')) {
      out.push(new state.Token('paragraph_open', 'p', 1), tok, new state.Token('paragraph_close', 'p', -1));
    } else if ((tok.type === 'th_close' || tok.type === 'td_close') && (prev?.type === 'th_open' || prev?.type === 'td_open')) {
      out.push(new state.Token('paragraph_open', 'p', 1), new state.Token('paragraph_close', 'p', -1), tok);
    } else out.push(tok);
  }
  state.tokens = out;
}

const TASK = /^\[([ xX])\](?:[ \t]+|$)/;

/** A bullet list whose every item starts with `[ ]` or `[x]` becomes a task list. */
function taskListsRule(state: StateCore) {
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i].type !== 'bullet_list_open') continue;
    const level = tokens[i].level;
    const items: number[] = [];
    let end = i + 1;
    for (; end < tokens.length; end++) {
      const t = tokens[end];
      if (t.type === 'bullet_list_close' && t.level === level) break;
      if (t.type === 'list_item_open' && t.level === level + 1) items.push(end);
    }
    const allTasks =
      items.length > 0 && items.every((j) => tokens[j + 1]?.type === 'paragraph_open' && tokens[j + 2]?.type === 'inline' && TASK.test(tokens[j + 2].content));
    if (!allTasks) continue;
    tokens[i].type = 'task_list_open';
    tokens[end].type = 'task_list_close';
    for (const j of items) {
      const inline = tokens[j + 2];
      const match = TASK.exec(inline.content)!;
      tokens[j].type = 'task_item_open';
      tokens[j].attrSet('checked', match[1] === ' ' ? 'false' : 'true');
      inline.content = inline.content.slice(match[0].length);
      const first = inline.children?.[0];
      if (first?.type === 'text') {
        const m = /^\[([ xX])\][ \t]*/.exec(first.content);
        if (m) first.content = first.content.slice(m[0].length);
        if (first.content === '') inline.children!.shift();
      }
      // its close is the next list_item_close at the same level
      for (let k = j + 1; k < end; k++)
        if (tokens[k].type === 'list_item_close' && tokens[k].level === tokens[j].level) {
          tokens[k].type = 'task_item_close';
          break;
        }
    }
  }
}

/** A paragraph that is only `\` is an empty paragraph (see above). */
function emptyParagraphsRule(state: StateCore) {
  const tokens = state.tokens;
  for (let i = 1; i < tokens.length - 1; i++) {
    const inline = tokens[i];
    if (inline.type === 'inline' && tokens[i - 1].type === 'paragraph_open' && inline.content.trim() === '\\') {
      inline.content = '';
      inline.children = [];
    }
  }
}

const isBlank = (t: Token) =>
  (t.type === 'text' && t.content.trim() === '') || t.type === 'softbreak' || t.type === 'hardbreak' || t.type === 'colour_open' || t.type === 'colour_close';
/** What makes a line of text around an image: words, code, a mention, a date. */
const isText = (t: Token) =>
  (t.type === 'text' && t.content.trim() !== '') || t.type === 'code_inline' || t.type === 'mention' || t.type === 'date' || t.type === 'footnote';

/**
 * An image in a line of text stays inline (`inline_image`); the images of a paragraph without text are blocks,
 * lifted out of it (with any blank text around them), and those of a heading without text move after it.
 */
function blockImagesRule(state: StateCore) {
  const tokens = state.tokens;
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const open = tokens[i];
    const inline = tokens[i + 1];
    const close = tokens[i + 2];
    const images = inline?.type === 'inline' && inline.children?.some((c) => c.type === 'image');
    if (!images || !(open.type === 'paragraph_open' || open.type === 'heading_open')) {
      out.push(open);
      continue;
    }
    const children = inline.children!;
    if (children.some(isText)) {
      for (const c of children) if (c.type === 'image') c.type = 'inline_image';
      out.push(open);
      continue;
    }
    const wrap = (segment: Token[]) => {
      if (segment.every(isBlank)) return;
      // The text around a lifted image loses the spaces that separated it from the image.
      while (segment.length && isBlank(segment[0])) segment.shift();
      while (segment.length && isBlank(segment[segment.length - 1])) segment.pop();
      const first = segment[0];
      const last = segment[segment.length - 1];
      if (first.type === 'text') first.content = first.content.replace(/^\s+/, '');
      if (last.type === 'text') last.content = last.content.replace(/\s+$/, '');
      const part = new state.Token('inline', '', 0);
      part.children = segment;
      part.content = segment.map((c) => c.content).join('');
      out.push(open, part, close);
    };
    if (open.type === 'heading_open') {
      wrap(children.filter((c) => c.type !== 'image'));
      for (const c of children) if (c.type === 'image') out.push(c);
    } else {
      let segment: Token[] = [];
      for (const c of children) {
        if (c.type !== 'image') segment.push(c);
        else {
          wrap(segment);
          segment = [];
          out.push(c);
        }
      }
      wrap(segment);
    }
    i += 2;
  }
  state.tokens = out;
}

/**
 * `{width=50% align=center}` right after an image is its layout (images.ts): taken off the text that follows and kept
 * on the image's token. Runs before `blockImagesRule`, so the list is no text that would keep the image inline.
 */
function imageAttrListsRule(state: StateCore) {
  for (const block of state.tokens) {
    const children = block.children;
    if (block.type !== 'inline' || !children) continue;
    let emptied = false;
    for (let i = 0; i < children.length - 1; i++) {
      const next = children[i + 1];
      if (children[i].type !== 'image' || next.type !== 'text') continue;
      const list = readImageAttrList(next.content);
      if (!list) continue;
      if (list.width !== null) children[i].attrSet('data-width', String(list.width));
      if (list.align !== null) children[i].attrSet('data-align', list.align);
      next.content = next.content.slice(list.length);
      emptied ||= next.content === '';
    }
    if (emptied) block.children = children.filter((c) => c.type !== 'text' || c.content !== '');
  }
}

const EQUALS = 0x3d;

/**
 * `==text==` as highlight: markdown-it's own strikethrough rule with `=` for `~` (the same delimiter runs and flanking
 * rules, so `a == b == c` stays text and `==**bold**==` nests).
 */
function highlightTokenize(state: StateInline, silent: boolean): boolean {
  if (silent || state.src.charCodeAt(state.pos) !== EQUALS) return false;
  const scanned = state.scanDelims(state.pos, true);
  let len = scanned.length;
  if (len < 2) return false;
  if (len % 2) {
    state.push('text', '', 0).content = '=';
    len--;
  }
  for (let i = 0; i < len; i += 2) {
    state.push('text', '', 0).content = '==';
    state.delimiters.push({ marker: EQUALS, length: 0, token: state.tokens.length - 1, end: -1, open: scanned.can_open, close: scanned.can_close });
  }
  state.pos += scanned.length;
  return true;
}

function highlightPairs(state: StateInline, delimiters: StateInline['delimiters']) {
  const lone: number[] = [];
  for (const start of delimiters) {
    if (start.marker !== EQUALS || start.end === -1) continue;
    const end = delimiters[start.end];
    Object.assign(state.tokens[start.token], { type: 'mark_open', tag: 'mark', nesting: 1, markup: '==', content: '' });
    Object.assign(state.tokens[end.token], { type: 'mark_close', tag: 'mark', nesting: -1, markup: '==', content: '' });
    const before = state.tokens[end.token - 1];
    if (before.type === 'text' && before.content === '=') lone.push(end.token - 1);
  }
  // A lone `=` left before a close moves after it (`===a===` is `=` + highlighted `a` + `=`, as strikethrough does).
  while (lone.length) {
    const i = lone.pop()!;
    let j = i + 1;
    while (j < state.tokens.length && state.tokens[j].type === 'mark_close') j++;
    j--;
    if (i !== j) [state.tokens[i], state.tokens[j]] = [state.tokens[j], state.tokens[i]];
  }
}

function highlightPostProcess(state: StateInline): boolean {
  highlightPairs(state, state.delimiters);
  for (const meta of state.tokens_meta) if (meta?.delimiters) highlightPairs(state, meta.delimiters);
  return false;
}

const tokenizer = MarkdownIt('default', { html: false, linkify: false, typographer: false });
// Refuse what neither a link nor an image may carry (the unrefused stays text, as markdown-it writes it).
tokenizer.validateLink = (url) => url.startsWith(MENTION) || isAllowedLinkUrl(url) || isAllowedImageUrl(url);
tokenizer.inline.ruler.before('emphasis', 'kb_highlight', highlightTokenize);
tokenizer.inline.ruler2.before('emphasis', 'kb_highlight', highlightPostProcess);
tokenizer.use(blocksPlugin);
tokenizer.use(inlinePlugin);
tokenizer.use(footnotesPlugin);
tokenizer.core.ruler.push('kb_mentions', mentionsRule);
tokenizer.core.ruler.push('kb_allowed_urls', allowedUrlsRule);
tokenizer.core.ruler.push('kb_table_cells', tableCellsRule);
tokenizer.core.ruler.push('kb_task_lists', taskListsRule);
tokenizer.core.ruler.push('kb_image_attr_lists', imageAttrListsRule);
tokenizer.core.ruler.push('kb_block_images', blockImagesRule);
tokenizer.core.ruler.push('kb_empty_paragraphs', emptyParagraphsRule);

const alignOf = (tok: Token) => /text-align:\s*(left|center|right)/.exec(String(tok.attrGet('style') ?? ''))?.[1] ?? null;

const imageAttrs = (tok: Token) => ({
  src: tok.attrGet('src'),
  title: tok.attrGet('title') || null,
  alt: tok.children?.map((c) => c.content).join('') || null,
});
/** A block image: its title slot is its caption; its layout came from its attribute list (`imageAttrListsRule`). */
const blockImageAttrs = (tok: Token) => ({
  ...imageAttrs(tok),
  title: null,
  caption: cleanCaption(tok.attrGet('title')),
  width: Number(tok.attrGet('data-width')) || null,
  align: tok.attrGet('data-align') || null,
});

const parser = new MarkdownParser(schema, tokenizer, {
  blockquote: { block: 'blockquote' },
  paragraph: { block: 'paragraph' },
  list_item: { block: 'listItem' },
  bullet_list: { block: 'bulletList' },
  ordered_list: { block: 'orderedList', getAttrs: (tok) => ({ start: Math.min(Number(tok.attrGet('start') ?? 1) || 1, 1_000_000_000) }) },
  task_list: { block: 'taskList' },
  task_item: { block: 'taskItem', getAttrs: (tok) => ({ checked: tok.attrGet('checked') === 'true' }) },
  heading: { block: 'heading', getAttrs: (tok) => ({ level: Number(tok.tag.slice(1)) }) },
  code_block: { block: 'codeBlock', noCloseToken: true },
  fence: { block: 'codeBlock', getAttrs: (tok) => ({ language: tok.info.trim().split(/\s+/)[0].slice(0, 64).replace(/`/g, '') || null }), noCloseToken: true },
  hr: { node: 'horizontalRule' },
  image: { node: 'image', getAttrs: blockImageAttrs },
  inline_image: { node: 'inlineImage', getAttrs: imageAttrs },
  hardbreak: { node: 'hardBreak' },
  mention: { node: 'mention', getAttrs: (tok) => ({ id: tok.attrGet('id'), label: tok.attrGet('label') || null }) },
  table: { block: 'table' },
  thead: { ignore: true },
  tbody: { ignore: true },
  tr: { block: 'tableRow' },
  th: { block: 'tableHeader', getAttrs: (tok) => ({ align: alignOf(tok) }) },
  td: { block: 'tableCell', getAttrs: (tok) => ({ align: alignOf(tok) }) },
  em: { mark: 'italic' },
  strong: { mark: 'bold' },
  s: { mark: 'strike' },
  mark: { mark: 'highlight' },
  link: { mark: 'link', getAttrs: (tok) => ({ href: tok.attrGet('href'), title: tok.attrGet('title') || null }) },
  code_inline: { mark: 'code', noCloseToken: true },
  ...blockTokens,
  ...inlineTokens,
  ...footnoteTokens,
});

/**
 * Markdown → document JSON (always a valid document; an unsafe link or image URL, which markdown-it already
 * refuses, stays text). The result is checked like any content.
 */
export function markdownToDocument(markdown: string): DocJson {
  let doc: PMNode;
  try {
    doc = parser.parse(markdown);
  } catch (err) {
    // The schema's attribute checks throw RangeError while the parser builds nodes: bad input, answered as such.
    if (err instanceof RangeError) throw documentError({ path: '', reason: err.message }, 'markdown');
    throw err;
  }
  return parseDocument(doc.toJSON(), 'markdown').toJSON() as DocJson;
}

// ---------- document → Markdown ----------

const base = defaultMarkdownSerializer.nodes;
type NodeSerializer = (state: MarkdownSerializerState, node: PMNode, parent: PMNode, index: number) => void;

const LISTS = new Set(['bulletList', 'taskList']);
const LIST_TYPES = new Set(['bulletList', 'taskList', 'orderedList']);
/** Adjacent bullet-style lists would merge in Markdown; alternate their markers (`-`, `*`) to keep them apart. */
function bulletFor(parent: PMNode, index: number): string {
  let n = 0;
  for (let i = index - 1; i >= 0 && LISTS.has(parent.child(i).type.name); i--) n++;
  return n % 2 ? '*' : '-';
}

/** One table cell as a single line of inline Markdown. */
function cellMarkdown(cell: PMNode): string {
  return serializer
    .serialize(cell, { tightLists: true })
    .replace(/\\\n/g, ' ')
    .replace(/\s*\n+\s*/g, ' ')
    .trim()
    .replace(/\|/g, '\\|');
}

const table: NodeSerializer = (state, node) => {
  const rows: string[][] = [];
  let aligns: (string | null)[] = [];
  node.forEach((row, _, r) => {
    const cells: string[] = [];
    row.forEach((cell) => {
      cells.push(cellMarkdown(cell));
      if (r === 0) aligns.push(cell.attrs.align ?? null);
    });
    rows.push(cells);
  });
  const width = Math.max(1, ...rows.map((r) => r.length));
  aligns = Array.from({ length: width }, (_, i) => aligns[i] ?? null);
  const line = (cells: string[]) => `| ${Array.from({ length: width }, (_, i) => cells[i] || ' ').join(' | ')} |`;
  const rule = `| ${aligns.map((a) => (a === 'left' ? ':--' : a === 'center' ? ':-:' : a === 'right' ? '--:' : '---')).join(' | ')} |`;
  const lines = [line(rows[0] ?? []), rule, ...rows.slice(1).map(line)];
  for (const l of lines) {
    state.write(l);
    state.ensureNewLine();
  }
  state.closeBlock(node);
};

/**
 * A line that is a live block's directive (`::toc`), a leaf directive with a label (`::embed[…]`, `::link[…]`,
 * `::file[…](…)`, `::video[…](…)`), or a callout's fence (`:::info`, `:::`).
 */
const BLOCK_LINE = new RegExp(`^(?:::(?:${LIVE_BLOCKS.map((b) => b.directive).join('|')})[ \\t]*|::[A-Za-z]+\\[.*|:::.*)$`);

/**
 * Whether the text node at `index` of `parent` makes a whole line of Markdown (its block's start or after a hard
 * break, up to its end or a hard break, no marks around it) that a block rule would read as a block.
 */
function readsAsBlock(text: string, node: PMNode, parent: PMNode, index: number): boolean {
  if (!text.startsWith('::') || node.marks.length > 0) return false;
  const isBreak = (i: number) => parent.child(i).type.name === 'hardBreak';
  const startsLine = index === 0 || isBreak(index - 1);
  const endsLine = index === parent.childCount - 1 || isBreak(index + 1);
  return startsLine && endsLine && BLOCK_LINE.test(text);
}

/**
 * An image as Markdown: a block image's title slot carries its caption (a title without a caption is written there too,
 * and reads back as the caption), followed by its layout's attribute list when it has one.
 */
function imageMarkdown(state: MarkdownSerializerState, node: PMNode): string {
  const { src, alt } = node.attrs;
  const block = node.type.name === 'image';
  const title: string | null = (block ? node.attrs.caption : null) ?? node.attrs.title;
  const slot = title ? ` "${title.replace(/[\\"&]/g, (c) => `\\${c}`)}"` : '';
  return `![${state.esc(alt ?? '')}](${String(src).replace(/[()\s]/g, (c) => encodeURIComponent(c))}${slot})${block ? imageAttrList(node.attrs) : ''}`;
}

const serializer: MarkdownSerializer = new MarkdownSerializer(
  {
    doc: (state, node) => state.renderContent(node),
    paragraph: base.paragraph,
    // `$` is escaped in text, so a price never reads back as math; so is the first `:` of a line of text that a block
    // rule would read as a block (`::toc`, `:::info`: see `readsAsBlock`; `\:` reads as `:` anywhere).
    text: (state, node, parent, index) => {
      let text = node.text ?? '';
      // Up to three spaces before a block's line are no text to a Markdown reader (and more make code).
      const indent = /^[ \t]*/.exec(text)?.[0] ?? '';
      if (readsAsBlock(text.slice(indent.length), node, parent, index)) {
        state.write(`${indent}\\:`);
        text = text.slice(indent.length + 1);
      }
      const parts = text.split('$');
      parts.forEach((part, i) => {
        if (i > 0) state.write('\\$');
        if (part) state.text(part, !(state as { inAutolink?: boolean }).inAutolink);
      });
    },
    callout: (state, node) => {
      state.write(`:::${node.attrs.type}${node.attrs.icon ? ` ${node.attrs.icon}` : ''}`);
      state.ensureNewLine();
      state.renderContent(node);
      state.write(':::');
      state.closeBlock(node);
    },
    columns: (state, node) => {
      state.write('::::columns');
      state.ensureNewLine();
      state.renderContent(node);
      state.write('::::');
      state.closeBlock(node);
    },
    column: (state, node) => {
      state.write(':::column');
      state.ensureNewLine();
      state.renderContent(node);
      state.write(':::');
      state.closeBlock(node);
    },
    details: (state, node) => {
      state.write('<details>');
      state.ensureNewLine();
      state.renderContent(node);
      state.write('</details>');
      state.closeBlock(node);
    },
    detailsSummary: (state, node) => {
      state.write('<summary>');
      state.renderInline(node);
      state.write('</summary>');
      state.closeBlock(node);
    },
    detailsContent: (state, node) => state.renderContent(node),
    mathBlock: (state, node) => {
      state.write('$$');
      state.ensureNewLine();
      state.text(node.attrs.latex, false);
      state.ensureNewLine();
      state.write('$$');
      state.closeBlock(node);
    },
    mathInline: (state, node) => state.write(`$${String(node.attrs.latex).replace(/\$/g, '\\$')}$`),
    embed: (state, node) => {
      state.write(`::embed[${node.attrs.src}]`);
      state.closeBlock(node);
    },
    date: (state, node) => state.write(`:date[${node.attrs.date}]`),
    footnote: writeFootnote,
    linkCard: (state, node) => {
      state.write(`::link[${node.attrs.url}]`);
      state.closeBlock(node);
    },
    fileAttachment: (state, node) => {
      const { url, name, size, mime } = node.attrs;
      state.write(mediaDirective('file', url, name, { size, type: mime }));
      state.closeBlock(node);
    },
    video: (state, node) => {
      state.write(mediaDirective('video', node.attrs.src, node.attrs.title));
      state.closeBlock(node);
    },
    audio: (state, node) => {
      state.write(mediaDirective('audio', node.attrs.src, node.attrs.title));
      state.closeBlock(node);
    },
    ...Object.fromEntries(
      LIVE_BLOCKS.map((block): [string, NodeSerializer] => [
        block.name,
        (state, node) => {
          state.write(`::${block.directive}`);
          state.closeBlock(node);
        },
      ]),
    ),
    blockquote: base.blockquote,
    heading: base.heading,
    horizontalRule: (state, node) => {
      state.write('---');
      state.closeBlock(node);
    },
    codeBlock: (state, node) => {
      const runs = node.textContent.match(/`{3,}/gm);
      const fence = runs ? `${runs.sort((a, b) => a.length - b.length).slice(-1)[0]}\`` : '```';
      state.write(fence + (node.attrs.language ?? '') + '\n');
      state.text(node.textContent, false);
      state.ensureNewLine();
      state.write(fence);
      state.closeBlock(node);
    },
    bulletList: (state, node, parent, index) => state.renderList(node, '  ', () => `${bulletFor(parent, index)} `),
    taskList: (state, node, parent, index) => state.renderList(node, '  ', () => `${bulletFor(parent, index)} `),
    orderedList: (state, node, parent, index) => {
      const start: number = node.attrs.start ?? 1;
      const width = String(start + node.childCount - 1).length;
      const space = state.repeat(' ', width + 2);
      const sep = index > 0 && parent.child(index - 1).type === node.type ? ')' : '.';
      state.renderList(node, space, (i) => {
        const n = String(start + i);
        return state.repeat(' ', width - n.length) + n + sep + ' ';
      });
    },
    listItem: (state, node) => {
      // `- ` then a blank line would end the item: an empty first paragraph with blocks after it is written as `\`
      // (a nested list can follow `- ` directly).
      const first = node.firstChild;
      const next = node.childCount > 1 ? node.child(1) : null;
      if (first?.type.name === 'paragraph' && first.childCount === 0 && next && !LIST_TYPES.has(next.type.name)) state.write('\\');
      state.renderContent(node);
    },
    taskItem: (state, node) => {
      state.write(node.attrs.checked ? '[x] ' : '[ ] ');
      state.renderContent(node);
    },
    hardBreak: base.hard_break,
    image: (state, node) => {
      state.write(imageMarkdown(state, node));
      state.closeBlock(node);
    },
    inlineImage: (state, node) => state.write(imageMarkdown(state, node)),
    mention: (state, node) => {
      const label = node.attrs.label ?? node.attrs.id;
      state.write(`[@${state.esc(String(label))}](${MENTION}${encodeURIComponent(node.attrs.id)})`);
    },
    table,
    tableRow: () => {},
    tableCell: (state, node) => state.renderContent(node),
    tableHeader: (state, node) => state.renderContent(node),
  },
  {
    italic: { open: '*', close: '*', mixable: true, expelEnclosingWhitespace: true },
    bold: { open: '**', close: '**', mixable: true, expelEnclosingWhitespace: true },
    strike: { open: '~~', close: '~~', mixable: true, expelEnclosingWhitespace: true },
    highlight: { open: '==', close: '==', mixable: true, expelEnclosingWhitespace: true },
    // A stored name outside the palette (none is written) would not read back: its text is written uncoloured.
    textColor: {
      open: (_state, mark) => (isTextColour(mark.attrs.color) ? `<span data-color="${mark.attrs.color}">` : ''),
      close: (_state, mark) => (isTextColour(mark.attrs.color) ? '</span>' : ''),
      // Spaces inside a span are kept as they are (unlike `** a**`, which is no emphasis).
      mixable: true,
    },
    backgroundColor: {
      open: (_state, mark) => (isTextColour(mark.attrs.color) ? `<mark data-color="${mark.attrs.color}">` : ''),
      close: (_state, mark) => (isTextColour(mark.attrs.color) ? '</mark>' : ''),
      mixable: true,
    },
    link: defaultMarkdownSerializer.marks.link,
    code: defaultMarkdownSerializer.marks.code,
  },
  // A `==` in text would read back as a highlight's edge: its first `=` is escaped (`\==`); so is a colour tag's `<`.
  { hardBreakNodeName: 'hardBreak', escapeExtraCharacters: new RegExp(`=(?==)|${INLINE_ESCAPES.source}`, 'g') },
);

/** Document (stored JSON, see `readDocument`, or a node) → Markdown, ending in one newline (empty for an empty document). */
export function documentToMarkdown(doc: PMNode | unknown): string {
  const node = isNode(doc) ? doc : readDocument(doc);
  const out = withFootnoteDefinitions(() => serializer.serialize(node, { tightLists: true }).replace(/\s+$/, ''));
  return out ? `${out}\n` : '';
}

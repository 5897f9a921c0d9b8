import type MarkdownIt from 'markdown-it';
import type { StateBlock, StateCore, StateInline, Token } from 'markdown-it';
import { calloutTypeOf } from './blocks.js';
import { checkEmbedUrl, MAX_EMBED_URL } from './embeds.js';
import { checkMediaUrl, cleanMime, MAX_FILE_NAME, MAX_MEDIA_TITLE } from './file-blocks.js';
import { checkLinkCardUrl } from './link-cards.js';
import { LIVE_BLOCKS } from './live-blocks.js';
import { columnsBlock, columnTokens } from './markdown-columns.js';
import { isAllowedLinkUrl } from './urls.js';

/**
 * markdown-it rules for the blocks of blocks.ts:
 * - `:::info [icon]` … `:::` → callout (nested containers count their own `:::word` / `:::` lines);
 * - `> [!note] Title` (Obsidian, GitHub alerts) → callout, the title kept as its first line;
 * - `<details>` / `<summary>…</summary>` … `</details>` (each tag at the start of its line) → toggle;
 * - `$$` … `$$` (or `$$ x $$` on one line) → math block; `$x$` → inline math, as Pandoc reads it: no space just
 *   inside either `$`, and no digit right after the closing one (so "$5 and $6" stays text);
 * - `::embed[<link>]` on a line of its own (the generic directives proposal's leaf form, as remark-directive reads
 *   it) → embed, when the allow-list takes the link; otherwise a paragraph linking to it (an http(s) link), or the line
 *   as text.
 * - `::link[<link>]` (or `::bookmark[<link>]`) on a line of its own → link card (any http(s) link, link-cards.ts);
 *   a link a card does not take stays the line as text.
 * - `::file[name](url){size=1234 type="text/plain"}`, `::video[title](url)`, `::audio[title](url)` on a line of their
 *   own → file, video, audio (file-blocks.ts); `\`, `[` and `]` in the name are escaped with `\`; `(`, `)` and spaces
 *   in the address percent-encoded. A plain Markdown reader shows a link named as the file. An address the blocks do not
 *   take (`javascript:`, `data:`…) leaves the line as text.
 * - `::subpages` and `::toc` on a line of their own → the live blocks of live-blocks.ts (nothing else on the line: a
 *   label or attributes after the name leave the line as text).
 * - `::::columns` with its `:::column`s → columns (markdown-columns.ts).
 */

const lineOf = (state: StateBlock, line: number) => state.src.slice(state.bMarks[line] + state.tShift[line], state.eMarks[line]);

const CONTAINER_OPEN = /^:::\s*([A-Za-z]+)\s*(\S*)\s*$/;
const CONTAINER_CLOSE = /^:::\s*$/;

function calloutBlock(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine] - state.blkIndent >= 4) return false;
  const open = CONTAINER_OPEN.exec(lineOf(state, startLine));
  if (!open) return false;
  if (silent) return true;
  let depth = 1;
  let line = startLine + 1;
  for (; line < endLine; line++) {
    if (state.sCount[line] < state.blkIndent && !state.isEmpty(line)) break;
    const text = lineOf(state, line);
    if (CONTAINER_OPEN.test(text)) depth++;
    else if (CONTAINER_CLOSE.test(text) && --depth === 0) break;
  }
  const closed = depth === 0;
  const oldParent = state.parentType;
  const oldMax = state.lineMax;
  state.parentType = 'container' as never;
  state.lineMax = line;
  const tok = state.push('callout_open', 'aside', 1);
  tok.attrSet('type', calloutTypeOf(open[1]));
  if (open[2]) tok.attrSet('icon', open[2]);
  tok.map = [startLine, line];
  state.md.block.tokenize(state, startLine + 1, line);
  state.push('callout_close', 'aside', -1);
  state.parentType = oldParent;
  state.lineMax = oldMax;
  state.line = closed ? line + 1 : line;
  return true;
}

const DETAILS_OPEN = /^<details(?:\s+open(?:=(?:"[^"]*"|'[^']*'|\S*))?)?\s*>\s*(.*)$/i;
const DETAILS_CLOSE = /^<\/details>\s*$/i;
const SUMMARY = /^<summary>(.*?)<\/summary>\s*$/i;

function detailsBlock(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine] - state.blkIndent >= 4) return false;
  const open = DETAILS_OPEN.exec(lineOf(state, startLine));
  if (!open) return false;
  let summary = '';
  let bodyStart = startLine + 1;
  const rest = open[1].trim();
  if (rest) {
    const m = SUMMARY.exec(rest);
    if (!m) return false;
    summary = m[1];
  } else if (bodyStart < endLine) {
    const m = SUMMARY.exec(lineOf(state, bodyStart));
    if (m) {
      summary = m[1];
      bodyStart++;
    }
  }
  if (silent) return true;
  let depth = 1;
  let line = bodyStart;
  for (; line < endLine; line++) {
    if (state.sCount[line] < state.blkIndent && !state.isEmpty(line)) break;
    const text = lineOf(state, line);
    if (DETAILS_OPEN.test(text)) depth++;
    else if (DETAILS_CLOSE.test(text) && --depth === 0) break;
  }
  const closed = depth === 0;
  const oldParent = state.parentType;
  const oldMax = state.lineMax;
  state.parentType = 'container' as never;
  state.lineMax = line;
  state.push('details_open', 'details', 1).map = [startLine, line];
  state.push('details_summary_open', 'summary', 1);
  const inline = state.push('inline', '', 0);
  inline.content = summary.trim();
  inline.children = [];
  state.push('details_summary_close', 'summary', -1);
  state.push('details_content_open', 'div', 1);
  state.md.block.tokenize(state, bodyStart, line);
  state.push('details_content_close', 'div', -1);
  state.push('details_close', 'details', -1);
  state.parentType = oldParent;
  state.lineMax = oldMax;
  state.line = closed ? line + 1 : line;
  return true;
}

function mathBlock(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine] - state.blkIndent >= 4) return false;
  const first = lineOf(state, startLine).trim();
  if (!first.startsWith('$$')) return false;
  let latex: string;
  let next: number;
  const oneLine = /^\$\$(.+)\$\$$/.exec(first);
  if (oneLine) {
    latex = oneLine[1].trim();
    next = startLine + 1;
  } else {
    const after = first.slice(2).trim();
    if (after.includes('$')) return false;
    const lines: string[] = after ? [after] : [];
    let line = startLine + 1;
    let closed = false;
    for (; line < endLine; line++) {
      const text = state.src.slice(state.bMarks[line] + Math.min(state.tShift[line], state.blkIndent), state.eMarks[line]);
      const t = text.trim();
      if (t.endsWith('$$')) {
        const before = t.slice(0, -2).trim();
        if (before) lines.push(before);
        closed = true;
        break;
      }
      lines.push(text);
    }
    if (!closed) return false;
    latex = lines.join('\n').trim();
    next = line + 1;
  }
  if (silent) return true;
  const tok = state.push('math_block', 'div', 0);
  tok.content = latex;
  tok.map = [startLine, next];
  state.line = next;
  return true;
}

const EMBED_LINE = /^::embed\[(.*)\][ \t]*$/;
/** An address an autolink (`<…>`) carries as written. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: an autolink holds no control characters
const AUTOLINKABLE = /^https?:\/\/[^\s<>\u0000-\u001f\u007f]+$/i;

function embedBlock(state: StateBlock, startLine: number, _endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine] - state.blkIndent >= 4) return false;
  const m = EMBED_LINE.exec(lineOf(state, startLine));
  if (!m) return false;
  const src = m[1].trim();
  const check = checkEmbedUrl(src);
  const asLink = !check.ok && src.length <= MAX_EMBED_URL && AUTOLINKABLE.test(src) && isAllowedLinkUrl(src);
  // Anything else stays the text it is, read as an ordinary paragraph.
  if (!check.ok && !asLink) return false;
  if (silent) return true;
  if (check.ok) {
    const tok = state.push('embed', 'figure', 0);
    tok.attrSet('src', check.src);
    tok.attrSet('provider', check.provider.id);
    tok.map = [startLine, startLine + 1];
  } else {
    state.push('paragraph_open', 'p', 1).map = [startLine, startLine + 1];
    const inline = state.push('inline', '', 0);
    inline.content = `<${src}>`;
    inline.map = [startLine, startLine + 1];
    inline.children = [];
    state.push('paragraph_close', 'p', -1);
  }
  state.line = startLine + 1;
  return true;
}

const LINK_CARD_LINE = /^::(?:link|bookmark)\[(.*)\][ \t]*$/;

function linkCardBlock(state: StateBlock, startLine: number, _endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine] - state.blkIndent >= 4) return false;
  const m = LINK_CARD_LINE.exec(lineOf(state, startLine));
  if (!m) return false;
  const check = checkLinkCardUrl(m[1].trim());
  if (!check.ok) return false;
  if (silent) return true;
  const tok = state.push('link_card', 'a', 0);
  tok.attrSet('url', check.url);
  tok.map = [startLine, startLine + 1];
  state.line = startLine + 1;
  return true;
}

const MEDIA_LINE = /^::(file|video|audio)\[((?:[^\\\]]|\\.)*)\]\(([^()\s]*)\)(?:\{([^{}]*)\})?[ \t]*$/;
const DIRECTIVE_ATTR = /([A-Za-z]+)=(?:"([^"]*)"|([^\s"]+))/g;
const unescapeLabel = (label: string) => label.replace(/\\(.)/g, '$1');
const escapeLabel = (label: string) => label.replace(/[\\[\]]/g, (c) => `\\${c}`);

function mediaBlock(state: StateBlock, startLine: number, _endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine] - state.blkIndent >= 4) return false;
  const m = MEDIA_LINE.exec(lineOf(state, startLine));
  if (!m) return false;
  const [, kind, rawLabel, url, rawAttrs] = m;
  const check = checkMediaUrl(url);
  if (!check.ok) return false;
  const label = unescapeLabel(rawLabel).replace(/\s+/g, ' ').trim();
  if (label.length > (kind === 'file' ? MAX_FILE_NAME : MAX_MEDIA_TITLE)) return false;
  if (silent) return true;
  const tok = state.push(`media_${kind}`, kind === 'file' ? 'a' : kind, 0);
  tok.attrSet('url', check.url);
  tok.attrSet('label', label);
  for (const [, name, quoted, bare] of (rawAttrs ?? '').matchAll(DIRECTIVE_ATTR)) tok.attrSet(`data-${name.toLowerCase()}`, quoted ?? bare);
  tok.map = [startLine, startLine + 1];
  state.line = startLine + 1;
  return true;
}

/** `::<directive>` of a live block, alone on its line. */
const LIVE_BLOCK_LINE = new RegExp(`^::(${LIVE_BLOCKS.map((b) => b.directive).join('|')})[ \\t]*$`);

function liveBlock(state: StateBlock, startLine: number, _endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine] - state.blkIndent >= 4) return false;
  const m = LIVE_BLOCK_LINE.exec(lineOf(state, startLine));
  if (!m) return false;
  if (silent) return true;
  const tok = state.push(`live_block_${m[1]}`, 'nav', 0);
  tok.map = [startLine, startLine + 1];
  state.line = startLine + 1;
  return true;
}

/** A file, video or audio as its Markdown directive (the reverse of `mediaBlock`). */
export function mediaDirective(
  kind: 'file' | 'video' | 'audio',
  url: string,
  label: string | null,
  attrs: Record<string, string | number | null> = {},
): string {
  const address = url.replace(/[()\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  const extras = Object.entries(attrs)
    .filter(([, v]) => v !== null && v !== '')
    .map(([k, v]) => (typeof v === 'number' ? `${k}=${v}` : `${k}="${String(v).replace(/"/g, '')}"`));
  return `::${kind}[${escapeLabel(label ?? '')}](${address})${extras.length ? `{${extras.join(' ')}}` : ''}`;
}

const sizeOf = (tok: Token) => {
  const size = Number(tok.attrGet('data-size') ?? Number.NaN);
  return Number.isSafeInteger(size) && size >= 0 ? size : null;
};

function mathInline(state: StateInline, silent: boolean): boolean {
  const { src, pos } = state;
  if (src.charCodeAt(pos) !== 0x24 /* $ */ || src.charCodeAt(pos + 1) === 0x24) return false;
  const first = src[pos + 1];
  if (first === undefined || /\s/.test(first)) return false;
  // The first unescaped `$` after the opening one closes it, or nothing does ("$5 and $6" stays text).
  let end = pos + 1;
  for (;;) {
    end = src.indexOf('$', end);
    if (end < 0) return false;
    if (src[end - 1] !== '\\') break;
    end++;
  }
  if (/\s/.test(src[end - 1]) || /\d/.test(src[end + 1] ?? '')) return false;
  if (end === pos + 1) return false;
  if (!silent) {
    const tok = state.push('math_inline', 'span', 0);
    tok.content = src.slice(pos + 1, end).replace(/\\\$/g, '$');
  }
  state.pos = end + 1;
  return true;
}

const ALERT = /^\[!([A-Za-z]+)\][+-]?[ \t]*/;

/** A quote whose first line is `[!type]` becomes a callout of that type (the rest of that line stays as its first line). */
function alertsRule(state: StateCore) {
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i].type !== 'blockquote_open') continue;
    const inline = tokens[i + 2];
    if (tokens[i + 1]?.type !== 'paragraph_open' || inline?.type !== 'inline') continue;
    const m = ALERT.exec(inline.content);
    if (!m) continue;
    let close = i + 1;
    for (let depth = 1; close < tokens.length; close++) {
      if (tokens[close].type === 'blockquote_open') depth++;
      else if (tokens[close].type === 'blockquote_close' && --depth === 0) break;
    }
    tokens[i].type = 'callout_open';
    tokens[i].attrSet('type', calloutTypeOf(m[1]));
    if (tokens[close]) tokens[close].type = 'callout_close';
    inline.content = inline.content.slice(m[0].length);
    const children = inline.children ?? [];
    const head = children[0];
    if (head?.type === 'text') {
      head.content = head.content.replace(ALERT, '');
      if (head.content === '') {
        children.shift();
        if (children[0]?.type === 'softbreak') children.shift();
      }
    }
    if (children.length === 0) tokens.splice(i + 1, 3); // a marker alone: no empty first line
  }
}

export function blocksPlugin(md: ReturnType<typeof MarkdownIt>): void {
  const alt = ['paragraph', 'reference', 'blockquote', 'list'];
  md.block.ruler.before('fence', 'kb_columns', columnsBlock, { alt });
  md.block.ruler.before('fence', 'kb_callout', calloutBlock, { alt });
  md.block.ruler.before('fence', 'kb_details', detailsBlock, { alt });
  md.block.ruler.before('fence', 'kb_math_block', mathBlock, { alt });
  md.block.ruler.before('fence', 'kb_embed', embedBlock, { alt });
  md.block.ruler.before('fence', 'kb_link_card', linkCardBlock, { alt });
  md.block.ruler.before('fence', 'kb_media', mediaBlock, { alt });
  md.block.ruler.before('fence', 'kb_live_block', liveBlock, { alt });
  md.inline.ruler.after('escape', 'kb_math_inline', mathInline);
  md.core.ruler.push('kb_alerts', alertsRule);
}

export const blockTokens = {
  callout: { block: 'callout', getAttrs: (tok: Token) => ({ type: tok.attrGet('type') ?? 'info', icon: tok.attrGet('icon') || null }) },
  details: { block: 'details' },
  details_summary: { block: 'detailsSummary' },
  details_content: { block: 'detailsContent' },
  math_block: { node: 'mathBlock', getAttrs: (tok: Token) => ({ latex: tok.content }), noCloseToken: true },
  math_inline: { node: 'mathInline', getAttrs: (tok: Token) => ({ latex: tok.content }), noCloseToken: true },
  embed: { node: 'embed', getAttrs: (tok: Token) => ({ src: tok.attrGet('src'), provider: tok.attrGet('provider') }), noCloseToken: true },
  media_file: {
    node: 'fileAttachment',
    getAttrs: (tok: Token) => ({ url: tok.attrGet('url'), name: tok.attrGet('label') || 'file', size: sizeOf(tok), mime: cleanMime(tok.attrGet('data-type')) }),
    noCloseToken: true,
  },
  media_video: { node: 'video', getAttrs: (tok: Token) => ({ src: tok.attrGet('url'), title: tok.attrGet('label') || null }), noCloseToken: true },
  media_audio: { node: 'audio', getAttrs: (tok: Token) => ({ src: tok.attrGet('url'), title: tok.attrGet('label') || null }), noCloseToken: true },
  ...Object.fromEntries(LIVE_BLOCKS.map((b) => [`live_block_${b.directive}`, { node: b.name, noCloseToken: true }])),
  ...columnTokens,
  link_card: { node: 'linkCard', getAttrs: (tok: Token) => ({ url: tok.attrGet('url'), title: null }), noCloseToken: true },
};

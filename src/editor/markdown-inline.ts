import type MarkdownIt from 'markdown-it';
import type { StateCore, StateInline, Token } from 'markdown-it';
import { isIsoDay } from './dates.js';
import { isTextColour } from './text-colours.js';

/**
 * markdown-it rules for coloured text and dates (text-colours.ts, dates.ts):
 * - `<span data-color="red">…</span>` → the text between, coloured; `<mark data-color="red">…</mark>` → the text
 *   between on that colour's background: exactly these tags (one of the palette's names,
 *   in double quotes, nothing else in them), each closed in the same paragraph; any other HTML stays text, as all raw
 *   HTML does here. Markdown inside is read as usual. A tag without its partner stays text.
 * - `:date[2026-12-07]` → a date, when the day is a real one; anything else stays text.
 * The writer's side is markdown.ts (which escapes text that would read back as either).
 */

const COLOUR_OPEN = /^<(span|mark) data-color="([a-z]{1,16})">/;
const COLOUR_CLOSE = /^<\/(span|mark)>/;
const DATE = /^:date\[(\d{4}-\d{2}-\d{2})\]/;
/** Longest look-ahead the rules above need. */
const AHEAD = 40;

/** A colour tag, left as a candidate until `colourPairsRule` finds its partner. */
function colourTag(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x3c /* < */) return false;
  const ahead = state.src.slice(state.pos, state.pos + AHEAD);
  const open = COLOUR_OPEN.exec(ahead);
  const close = open ? null : COLOUR_CLOSE.exec(ahead);
  if (!(open && isTextColour(open[2])) && !close) return false;
  const [raw, tag] = (open ?? close)!;
  if (!silent) {
    const tok = state.push(open ? 'kb_colour_open' : 'kb_colour_close', tag, 0);
    tok.content = raw;
    if (open) tok.attrSet('color', open[2]);
  }
  state.pos += raw.length;
  return true;
}

/** The parser's token for each tag: a span is a text colour, a mark a background colour. */
const TOKEN_OF: Record<string, string> = { span: 'colour', mark: 'background' };

/**
 * Each `</span>` (`</mark>`) closes the nearest open colour span (mark) before it; the tags left without a partner
 * are text again.
 */
function colourPairsRule(state: StateCore) {
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const open: Record<string, Token[]> = { span: [], mark: [] };
    for (const tok of block.children) {
      if (tok.type === 'kb_colour_open') open[tok.tag].push(tok);
      else if (tok.type === 'kb_colour_close') {
        const partner = open[tok.tag].pop();
        if (!partner) tok.type = 'text';
        else {
          partner.type = `${TOKEN_OF[tok.tag]}_open`;
          partner.nesting = 1;
          tok.type = `${TOKEN_OF[tok.tag]}_close`;
          tok.nesting = -1;
        }
      }
    }
    for (const tok of [...open.span, ...open.mark]) tok.type = 'text';
  }
}

function dateTag(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x3a /* : */) return false;
  const m = DATE.exec(state.src.slice(state.pos, state.pos + AHEAD));
  if (!m || !isIsoDay(m[1])) return false;
  if (!silent) state.push('date', 'time', 0).attrSet('date', m[1]);
  state.pos += m[0].length;
  return true;
}

export function inlinePlugin(md: ReturnType<typeof MarkdownIt>): void {
  md.inline.ruler.before('autolink', 'kb_colour', colourTag);
  md.inline.ruler.before('autolink', 'kb_date', dateTag);
  md.core.ruler.push('kb_colour_pairs', colourPairsRule);
}

export const inlineTokens = {
  colour: { mark: 'textColor', getAttrs: (tok: Token) => ({ color: tok.attrGet('color') }) },
  background: { mark: 'backgroundColor', getAttrs: (tok: Token) => ({ color: tok.attrGet('color') }) },
  date: { node: 'date', getAttrs: (tok: Token) => ({ date: tok.attrGet('date') }), noCloseToken: true },
};

/**
 * Text the writer escapes (its first character gets a `\`) so it reads back as the text it is: the colour tags
 * above (and their closing tags). A date's `[` is escaped already, as every `[` in text is.
 */
export const INLINE_ESCAPES = /<(?=(?:span|mark) data-color="[a-z]{1,16}">|\/(?:span|mark)>)/g;

/**
 * Obsidian's own Markdown made plain, before the shared Markdown parser reads it:
 * - `[[Note]]`, `[[Note|label]]`, `[[Note#Heading]]`, `[[#Heading]]`, `[[Note#^block]]` become Markdown links whose
 *   target is the link as written, percent-encoded (`[label](Note#Heading)`): a relative URL, which the parser
 *   keeps, and which the source's `resolve` looks up the way Obsidian does (beside the note, then anywhere in the
 *   vault by name, the shortest path winning);
 * - `![[image.png]]` (optionally `|alt` or `|300` for a width, which is not kept) becomes an image;
 * - `![[Other note]]` (a note embedded in place) and `![[file.pdf]]` become links, with a warning, since a page
 *   cannot show another page or a file inline;
 * - a callout's `> [!note] Title` line becomes a bold title line of the quote;
 * - `%%comments%%` are dropped, as Obsidian never shows them.
 * Code blocks and code spans are left alone (a `[[` in code is code).
 */

const IMAGE = /\.(png|jpe?g|gif|webp|avif|bmp|svg)$/i;
const NOTE = /\.md$/i;
const WIKILINK = /(!?)\[\[([^[\]\n]+?)\]\]/g;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const CALLOUT = /^(\s*>\s*)\[!([\w-]+)\][+-]?[ \t]*(.*)$/;
/** `|300` or `|300x200`: an embed's size, not its text. */
const SIZE = /^\d+(x\d+)?$/;

/** A path or heading as a relative URL: each part percent-encoded, parentheses too (they would end the link). */
function encodePart(text: string): string {
  return encodeURIComponent(text).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

const encodePath = (path: string) => path.split('/').map(encodePart).join('/');

/** Link text as Markdown shows it literally. */
const escapeText = (text: string) => text.replace(/([\\[\]*_`<>!#|~])/g, '\\$1');

const basename = (path: string) => path.split('/').pop() ?? path;

function wikilinkToMarkdown(embed: boolean, inner: string, warnings: Set<string>): string {
  // In a table Obsidian writes the separator as `\|`.
  const [target, ...rest] = inner.split(/\\?\|/);
  const alias = rest.join('|').trim();
  const hash = target.indexOf('#');
  const path = (hash >= 0 ? target.slice(0, hash) : target).trim();
  const fragment = hash >= 0 ? target.slice(hash + 1).trim() : '';
  const block = fragment.startsWith('^');
  const href = `${encodePath(path)}${fragment && !block ? `#${encodePart(fragment)}` : ''}`;
  if (!href) return escapeText(alias || fragment);
  const shown = alias || (path && fragment ? `${path} > ${fragment}` : path || fragment);
  if (embed && IMAGE.test(path)) {
    const alt = alias && !SIZE.test(alias) ? alias : basename(path);
    return `![${escapeText(alt)}](${href})`;
  }
  if (embed) {
    const what = NOTE.test(path) || !/\.[a-z0-9]+$/i.test(path) ? 'note' : 'file';
    warnings.add(`the embedded ${what} "${target.trim()}" became a link to it`);
  }
  return `[${escapeText(embed && SIZE.test(alias) ? path : shown)}](${href})`;
}

interface Rewrite {
  warnings: Set<string>;
  /** Wikilinks seen, outside code. */
  links: number;
  /** Inside a `%%comment%%` that began on an earlier line. */
  inComment: boolean;
}

/** The line without Obsidian's `%%comments%%`, which Obsidian never shows (they may run over several lines). */
function withoutComments(line: string, state: Rewrite): string {
  let out = '';
  let at = 0;
  for (;;) {
    const mark = line.indexOf('%%', at);
    if (mark < 0) return state.inComment ? out : out + line.slice(at);
    if (!state.inComment) out += line.slice(at, mark);
    state.inComment = !state.inComment;
    at = mark + 2;
  }
}

/** One line outside code blocks: wikilinks rewritten outside its code spans. */
function rewriteLine(line: string, state: Rewrite): string {
  const callout = CALLOUT.exec(line);
  if (callout) {
    const [, quote, kind, title] = callout;
    // Its own paragraph of the quote (an empty quote line after it), not run into the first line of its text.
    line = `${quote}**${title.trim() || kind[0].toUpperCase() + kind.slice(1).toLowerCase()}**\n${quote.trimEnd()}`;
  }
  let out = '';
  let at = 0;
  while (at < line.length) {
    const tick = line.indexOf('`', at);
    const text = tick < 0 ? line.slice(at) : line.slice(at, tick);
    out += text.replace(WIKILINK, (_, bang: string, inner: string) => {
      state.links++;
      return wikilinkToMarkdown(bang === '!', inner, state.warnings);
    });
    if (tick < 0) break;
    // A code span runs to the next run of as many backticks; without one the backticks are literal.
    const run = /^`+/.exec(line.slice(tick))![0];
    const close = new RegExp(`(?<!\`)${run}(?!\`)`, 'g');
    close.lastIndex = tick + run.length;
    const end = close.exec(line);
    const stop = end ? end.index + run.length : tick + run.length;
    out += line.slice(tick, stop);
    at = stop;
  }
  return out;
}

export function rewriteObsidianMarkdown(markdown: string): { markdown: string; warnings: string[]; links: number } {
  const state: Rewrite = { warnings: new Set(), links: 0, inComment: false };
  const lines = markdown.split('\n');
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    if (!fence && (state.inComment || lines[i].includes('%%'))) lines[i] = withoutComments(lines[i], state);
    const opener = FENCE.exec(lines[i])?.[1];
    if (fence) {
      if (opener && opener[0] === fence[0] && opener.length >= fence.length && lines[i].trim() === opener) fence = null;
      continue;
    }
    if (opener) {
      fence = opener;
      continue;
    }
    lines[i] = rewriteLine(lines[i], state);
  }
  return { markdown: lines.join('\n'), warnings: [...state.warnings], links: state.links };
}

/** Whether a note has a wikilink outside code: what tells a vault without its `.obsidian/` folder from plain Markdown. */
export function hasWikilinks(markdown: string): boolean {
  return markdown.includes('[[') && rewriteObsidianMarkdown(markdown).links > 0;
}

import MarkdownIt from 'markdown-it';
import { calloutTypeOf } from '../../../editor/blocks.js';

/**
 * Obsidian's own Markdown made plain, before the shared Markdown parser reads it:
 * - `[[Note]]`, `[[Note|label]]`, `[[Note#Heading]]`, `[[#Heading]]`, `[[Note#^block]]` become Markdown links whose
 *   target is the link as written, percent-encoded (`[label](Note#Heading)`): a relative URL, which the parser
 *   keeps, and which the source's `resolve` looks up the way Obsidian does (beside the note, then anywhere in the
 *   vault by name, the shortest path winning);
 * - `![[image.png]]` (optionally `|alt` or `|300` for a width, which is not kept) becomes an image;
 * - `![[Other note]]` (a note embedded in place) and `![[file.pdf]]` become links, with a warning, since a page
 *   cannot show another page or a file inline;
 * - a callout `> [!note] Title` (foldable `[!note]-`/`[!note]+` too) becomes a callout of the mapped type, its
 *   title a bold first line (the Markdown parser reads `> [!type]` quotes as callouts);
 * - `%%comments%%` are dropped, as Obsidian never shows them.
 * Code blocks (fenced or indented) and code spans are left alone: a `[[` or `%%` in code is code, as markdown-it
 * reads the note (`runsOf`). Math (`$…$`, `$$…$$`) and Mermaid diagrams (```` ```mermaid ````) are Markdown the
 * shared parser reads as they are.
 */

const IMAGE = /\.(png|jpe?g|gif|webp|avif|bmp|svg)$/i;
const NOTE = /\.md$/i;
const WIKILINK = /(!?)\[\[([^[\]\n]+?)\]\]/g;
/** A callout's first line, in a quote (or a quote in a quote): `> [!note]- Title` (`-`/`+`: folded or not). */
const CALLOUT = /^((?:[ \t]*>)+[ \t]*)\[!([\w-]+)\][+-]?[ \t]*(.*)$/;
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
  /** Inside a `%%comment%%` (which may run over several lines and blocks). */
  inComment: boolean;
}

/** Code blocks and code spans found by markdown-it as the page is later read (same preset, HTML off). */
const blocks = new MarkdownIt('default', { html: false, linkify: false, typographer: false });

/**
 * The note's lines in runs read together: a code block's lines (fenced or indented, in lists and quotes too) are
 * code; the lines of one paragraph, heading or list item's text are one run (a code span may cross their line
 * breaks); every other line is a run of its own.
 */
function runsOf(markdown: string, lineCount: number): { from: number; to: number; code: boolean }[] {
  const runOf: ({ from: number; to: number; code: boolean } | undefined)[] = new Array(lineCount);
  for (const token of blocks.parse(markdown, {})) {
    if (!token.map) continue;
    const code = token.type === 'fence' || token.type === 'code_block';
    if (!code && token.type !== 'inline') continue;
    const [from, to] = token.map;
    const run = { from, to: Math.min(to, lineCount), code };
    for (let i = from; i < run.to; i++) runOf[i] ??= run;
  }
  const runs: { from: number; to: number; code: boolean }[] = [];
  for (let i = 0; i < lineCount; ) {
    const run = runOf[i] && runOf[i]!.from === i ? runOf[i]! : { from: i, to: i + 1, code: false };
    runs.push(run);
    i = Math.max(run.to, i + 1);
  }
  return runs;
}

/** Text outside code: `%%comments%%` dropped (the state carries over to the next text), wikilinks rewritten. */
function rewriteText(text: string, state: Rewrite): string {
  let out = '';
  let at = 0;
  for (;;) {
    const mark = text.indexOf('%%', at);
    const part = text.slice(at, mark < 0 ? undefined : mark);
    if (!state.inComment)
      out += part.replace(WIKILINK, (_, bang: string, inner: string) => {
        state.links++;
        return wikilinkToMarkdown(bang === '!', inner, state.warnings);
      });
    if (mark < 0) return out;
    state.inComment = !state.inComment;
    at = mark + 2;
  }
}

/**
 * A run of text lines: its code spans (CommonMark's: a run of backticks up to the next run of as many, not
 * escaped by a backslash) kept as written, the rest rewritten; all of it dropped inside a comment.
 */
function rewriteRun(text: string, state: Rewrite): string {
  let out = '';
  let plain = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') {
      i++;
      continue;
    }
    if (text[i] !== '`') continue;
    const run = /^`+/.exec(text.slice(i))![0];
    const close = new RegExp(`(?<!\`)${run}(?!\`)`, 'g');
    close.lastIndex = i + run.length;
    const end = close.exec(text);
    if (!end) {
      i += run.length - 1;
      continue;
    }
    out += rewriteText(text.slice(plain, i), state);
    const stop = end.index + run.length;
    if (!state.inComment) out += text.slice(i, stop);
    plain = stop;
    i = stop - 1;
  }
  return out + rewriteText(text.slice(plain), state);
}

/**
 * A callout's `> [!type] Title` line as the Markdown parser reads a callout: its `[!type]` in kb's words (Obsidian's
 * own and custom types, `[!faq]`, `[!my-box]`, mapped by `calloutTypeOf`), the fold sign dropped (a callout is never
 * folded in kb), and its title, when it has one, kept as its first line, in bold.
 */
function rewriteCallout(line: string): string {
  const callout = CALLOUT.exec(line);
  if (!callout) return line;
  const [, quote, kind, title] = callout;
  const marker = `${quote}[!${calloutTypeOf(kind)}]`;
  // The title its own paragraph (an empty quote line after it), not run into the first line of the callout's text.
  return title.trim() ? `${marker}\n${quote}**${title.trim()}**\n${quote.trimEnd()}` : marker;
}

export function rewriteObsidianMarkdown(markdown: string): { markdown: string; warnings: string[]; links: number } {
  const state: Rewrite = { warnings: new Set(), links: 0, inComment: false };
  const lines = markdown.split('\n');
  const out: string[] = [];
  for (const run of runsOf(markdown, lines.length)) {
    const text = lines.slice(run.from, run.to).join('\n');
    // Code is code (a `%%` or `[[` in it too), unless a comment around it hides it.
    if (run.code) out.push(state.inComment ? '' : text);
    else out.push(rewriteRun(text, state).split('\n').map(rewriteCallout).join('\n'));
  }
  return { markdown: out.join('\n'), warnings: [...state.warnings], links: state.links };
}

/** Whether a note has a wikilink outside code: what tells a vault without its `.obsidian/` folder from plain Markdown. */
export function hasWikilinks(markdown: string): boolean {
  return markdown.includes('[[') && rewriteObsidianMarkdown(markdown).links > 0;
}

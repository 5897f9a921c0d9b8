import { markdownToDocument } from '../../../editor/index.js';
import type { Converted } from './source.js';

/**
 * A page of Notion's "Markdown & CSV" export. Notion starts each file with `# Title` (the page's title, which the
 * page takes instead), writes a database row's properties right under it as `Key: value` lines, and writes callouts
 * as raw `<aside>` HTML, which our Markdown reader (HTML off, as for any Markdown we take) would show as tags.
 */

const TITLE = /^\s*# +(.+?)(?:\s+#+)?[ \t]*(?:\r?\n|$)/;
const PROPERTY = /^[^\s:#>*\-|`[][^:\n]{0,99}:(?: .*)?$/;
const ASIDE = /^<aside>[ \t]*\r?\n([\s\S]*?)\r?\n?<\/aside>[ \t]*$/gm;
/** A Markdown link's or image's target as Notion writes it (percent-encoded, so without spaces). */
const LINK_TARGET = /\]\(<?([^()\s<>]+)>?(?:\s+"[^"]*")?\)/g;

/** The `# Title` Notion puts first, or null. */
export function markdownTitle(text: string): string | null {
  return TITLE.exec(text)?.[1] ?? null;
}

/** Every link and image target in the order the page names them (to order the children the page links to). */
export function markdownLinkTargets(text: string): string[] {
  return [...text.matchAll(LINK_TARGET)].map((m) => m[1]);
}

/**
 * A row's `Key: value` lines are one block in the file (Notion writes no blank line between them), which Markdown
 * would run together into one paragraph: each becomes a paragraph of its own, as text.
 */
function separateProperties(body: string): string {
  const lines = body.replace(/^\s*\n/, '').split('\n');
  let end = 0;
  while (end < lines.length && PROPERTY.test(lines[end].trimEnd())) end++;
  if (end === 0) return body;
  return `${lines.slice(0, end).join('\n\n')}\n${lines.slice(end).join('\n')}`;
}

/** Callouts as quotes (the icon, an emoji, stays as text; a colour the export does not carry anyway). */
function asidesAsQuotes(body: string): { body: string; found: boolean } {
  let found = false;
  const out = body.replace(ASIDE, (_, inner: string) => {
    found = true;
    return inner
      .split('\n')
      .map((line) => `> ${line}`.trimEnd())
      .join('\n');
  });
  return { body: out, found };
}

export function convertNotionMarkdown(text: string, opts: { row: boolean }): Converted {
  const untitled = text.replace(TITLE, '');
  const { body, found } = asidesAsQuotes(opts.row ? separateProperties(untitled) : untitled);
  const warnings = found ? ['callouts (<aside>) became quotes'] : [];
  return { doc: markdownToDocument(body), warnings };
}

import { markdownToDocument } from '../../../editor/index.js';
import { leadingEmoji, pictureIconWarning } from './callout-icons.js';
import type { Converted } from './source.js';

/**
 * A page of Notion's "Markdown & CSV" export. Notion starts each file with `# Title` (the page's title, which the
 * page takes instead), writes a database row's properties right under it as `Key: value` lines, and writes callouts
 * as raw `<aside>` HTML, which our Markdown reader (HTML off, as for any Markdown we take) would show as tags: they
 * become kb's callouts. Toggles (`<details>`/`<summary>` lines), equations (`$…$`, `$$…$$`) and Mermaid code blocks
 * are Markdown the shared reader takes as they are.
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

/** The icon Notion writes for a callout whose icon is a picture (one of its own, or an upload): `<img src="…" … />`. */
const PICTURE_ICON = /^<img\b[^>]*?\bsrc="([^"]*)"[^>]*>[ \t]*/i;

/**
 * Callouts as kb's `:::info 💡` … `:::` (read by the Markdown parser): the first emoji is the icon; a picture icon
 * cannot be one (reported); the type is `info`, as this export does not carry a callout's colour.
 */
function asidesAsCallouts(body: string, warnings: Set<string>): string {
  return body.replace(ASIDE, (_, inner: string) => {
    let text = inner.replace(/^\s*\n/, '');
    const picture = PICTURE_ICON.exec(text);
    if (picture) {
      warnings.add(pictureIconWarning(picture[1]));
      text = text.slice(picture[0].length);
    }
    const icon = picture ? null : leadingEmoji(text);
    if (icon) text = text.slice(icon.length).replace(/^[ \t]+/, '');
    return `:::info${icon ? ` ${icon}` : ''}\n${text.replace(/^\s*\n/, '').trimEnd()}\n:::`;
  });
}

export function convertNotionMarkdown(text: string, opts: { row: boolean }): Converted {
  const untitled = text.replace(TITLE, '');
  const warnings = new Set<string>();
  const body = asidesAsCallouts(opts.row ? separateProperties(untitled) : untitled, warnings);
  return { doc: markdownToDocument(body), warnings: [...warnings] };
}

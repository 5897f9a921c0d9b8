import { convertNotionDatabase } from './notion.csv.js';
import { convertNotionHtml } from './notion.html.js';
import { convertNotionMarkdown } from './notion.markdown.js';
import { isNotionFile, notionUrlAlias } from './notion.names.js';
import { planNotion } from './notion.plan.js';
import { relativeTarget } from './paths.js';
import type { Converted, ImportSource, PageBody } from './source.js';

/**
 * Notion's two workspace exports, "Markdown & CSV" and "HTML": the same tree of `Title <id>` files and folders (see
 * notion.plan.ts), pages as Markdown or HTML, databases as CSV (Markdown export) or as a table in their page (HTML).
 * Body kinds: `notion-md`, `notion-md-row` (a database row: its `Key: value` properties lead the file),
 * `notion-html`, `notion-csv` (a database, handed over parsed with its row links: see notion.csv.ts).
 */
export const notionSource: ImportSource = {
  name: 'notion',
  detect: (files) => files.paths.some(isNotionFile),
  plan: planNotion,
  convert(body: PageBody): Converted {
    const text = body.text ?? '';
    if (body.kind === 'notion-csv') return convertNotionDatabase(text);
    if (body.kind === 'notion-html') return convertNotionHtml(text);
    return convertNotionMarkdown(text, { row: body.kind === 'notion-md-row' });
  },
  // A page's file, folder and CSVs are all aliases of it (see plan), so a relative target needs no more mapping
  // here; a Notion address (`https://www.notion.so/…-<id>`) means the page with that id when the import holds it.
  resolve(fromPath, ref) {
    return notionUrlAlias(ref) ?? relativeTarget(fromPath, ref);
  },
};

import { Window } from 'happy-dom';
import type { DocJson } from '../../db/tables/pages.js';
import { documentToHtml, HAPPY_DOM_SETTINGS } from '../../editor/html.js';
import { subpagesLists } from '../../editor/html-contents.js';
import { documentToMarkdown } from '../../editor/index.js';

/** A page ready to be written as a file: its content (links already relative) and what the front matter says. */
export interface PageToRender {
  id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  authors: string[];
  doc: DocJson;
  /** The pages under it in this export, linked relative to its file: what its subpages block lists in HTML. */
  children?: { title: string; href: string }[];
}

export type RenderFormat = 'markdown' | 'html';

/**
 * YAML front matter. Every value is written as a JSON string or list, which YAML 1.2 reads as the same
 * double-quoted scalar, so no title can break out of it.
 */
function frontMatter(page: PageToRender): string {
  const q = (s: string) => JSON.stringify(s);
  return [
    '---',
    `title: ${q(page.title)}`,
    `id: ${q(page.id)}`,
    `created: ${q(page.createdAt)}`,
    `updated: ${q(page.updatedAt)}`,
    `authors: [${page.authors.map(q).join(', ')}]`,
    '---',
    '',
  ].join('\n');
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The body as HTML, with one happy-dom document for the whole batch (see `documentToHtml`). */
function bodyHtml(window: Window, page: PageToRender): string {
  const document = window.document as unknown as Document;
  const body = document.createElement('div');
  documentToHtml(page.doc, { document, into: body });
  subpagesLists(body, page.children ?? []);
  return body.innerHTML;
}

function htmlPage(window: Window, page: PageToRender): string {
  const meta = (name: string, content: string) => `<meta name="${name}" content="${escapeHtml(content)}">`;
  return [
    '<!doctype html>',
    '<html>',
    '<head>',
    '<meta charset="utf-8">',
    `<title>${escapeHtml(page.title)}</title>`,
    meta('kb:id', page.id),
    meta('kb:created', page.createdAt),
    meta('kb:updated', page.updatedAt),
    ...page.authors.map((a) => meta('author', a)),
    '</head>',
    '<body>',
    bodyHtml(window, page),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** Each page as the text of its file: Markdown with YAML front matter, or a standalone HTML document. */
export function renderExportPages(input: { format: RenderFormat; pages: PageToRender[] }): string[] {
  if (input.format === 'markdown') return input.pages.map((page) => `${frontMatter(page)}${documentToMarkdown(page.doc)}`);
  const window = new Window({ settings: HAPPY_DOM_SETTINGS });
  try {
    return input.pages.map((page) => htmlPage(window, page));
  } finally {
    window.happyDOM.abort();
    void window.happyDOM.close();
  }
}

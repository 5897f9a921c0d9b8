import { READER_CSS, READER_JS } from './reader.assets.js';
import type { ReaderContent } from './reader.content.js';

/** The text of an element or an attribute value, with nothing a browser would read as markup. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface ReaderTreeItem {
  id: string;
  parentId: string | null;
  title: string;
  icon: string | null;
}

export interface ReaderPageInput {
  /** The public address of this page (PUBLIC_URL and the reader's path): canonical and `og:url`. */
  url: string;
  /** The reader's path of the share's root, `/s/<token>`: links to the other shared pages start there. */
  base: string;
  /** PUBLIC_URL, to make the first image's address absolute for link previews. */
  origin: string;
  page: { id: string; title: string; icon: string | null; updatedAt: string };
  content: ReaderContent;
  tree: ReaderTreeItem[];
  rootId: string;
  indexable: boolean;
}

const named = (item: { title: string; icon: string | null }) => `${item.icon ? `${item.icon} ` : ''}${item.title || 'Untitled'}`;
const pageHref = (input: ReaderPageInput, id: string) => (id === input.rootId ? input.base : `${input.base}/${encodeURIComponent(id)}`);

/** The shared pages as nested lists, the page being read marked as current. */
function treeList(input: ReaderPageInput, parentId: string | null): string {
  const items = input.tree.filter((p) => p.parentId === parentId);
  if (!items.length) return '';
  const li = items.map((p) => {
    const current = p.id === input.page.id ? ' aria-current="page"' : '';
    return `<li><a href="${escapeHtml(pageHref(input, p.id))}"${current}>${escapeHtml(named(p))}</a>${treeList(input, p.id)}</li>`;
  });
  return `<ul>${li.join('')}</ul>`;
}

const DATE = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' });

function head(title: string, lines: string[]): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    ...lines,
    '<meta name="color-scheme" content="light dark">',
    // No favicon request (a 404 in the console); the page names none of the app's files.
    '<link rel="icon" href="data:,">',
    `<style>${READER_CSS}</style>`,
    '</head>',
  ].join('\n');
}

/**
 * A shared page as a whole HTML document: title, description, Open Graph and Twitter tags, canonical link, the
 * shared pages as a side list (when there are several), the content, the pages right under this one, and the one
 * small script. Every piece of text from the page is escaped here or was sanitized by `readerContent`.
 */
export function readerPage(input: ReaderPageInput): string {
  const title = input.page.title || 'Untitled';
  const description = input.content.description;
  const meta = (attr: 'name' | 'property', key: string, value: string) => `<meta ${attr}="${key}" content="${escapeHtml(value)}">`;
  const image = input.content.firstImage;
  const imageUrl = image ? (/^https?:\/\//i.test(image) ? image : image.startsWith('/') ? `${input.origin}${image}` : null) : null;
  const lines = [
    meta('name', 'description', description),
    ...(input.indexable ? [] : [meta('name', 'robots', 'noindex')]),
    `<link rel="canonical" href="${escapeHtml(input.url)}">`,
    meta('property', 'og:type', 'article'),
    meta('property', 'og:title', title),
    meta('property', 'og:description', description),
    meta('property', 'og:url', input.url),
    meta('property', 'article:modified_time', input.page.updatedAt),
    ...(imageUrl ? [meta('property', 'og:image', imageUrl)] : []),
    meta('name', 'twitter:card', imageUrl ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', title),
    meta('name', 'twitter:description', description),
  ];
  const children = input.tree.filter((p) => p.parentId === input.page.id);
  const nav =
    input.tree.length > 1 ? `<nav class="pages" aria-label="Shared pages"><details open><summary>Pages</summary>${treeList(input, null)}</details></nav>` : '';
  const childList = children.length
    ? `<section class="children" aria-labelledby="children"><h2 id="children">Pages under this one</h2><ul>${children
        .map((p) => `<li><a href="${escapeHtml(pageHref(input, p.id))}">${escapeHtml(named(p))}</a></li>`)
        .join('')}</ul></section>`
    : '';
  const updated = new Date(input.page.updatedAt);
  return [
    head(title, lines),
    '<body>',
    '<a class="skip" href="#content">Skip to content</a>',
    '<div class="layout">',
    nav,
    '<main id="content">',
    '<article>',
    `<h1 class="title">${escapeHtml(named(input.page))}</h1>`,
    `<p class="updated">Updated <time datetime="${escapeHtml(input.page.updatedAt)}">${DATE.format(updated)}</time></p>`,
    `<div class="content">${input.content.html}</div>`,
    '</article>',
    childList,
    '</main>',
    '</div>',
    '<footer>Published with kb</footer>',
    `<script>${READER_JS}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** A link that opens nothing (unknown, revoked, switched off, or a page outside the share): one page for all. */
export function readerGonePage(): string {
  return [
    head('This link is no longer available', [
      '<meta name="robots" content="noindex">',
      '<meta name="description" content="This link is no longer available.">',
    ]),
    '<body>',
    '<main class="gone">',
    '<h1>This link is no longer available</h1>',
    '<p>The page may have been unpublished, or the link replaced by a new one. Ask whoever sent it for a new link.</p>',
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

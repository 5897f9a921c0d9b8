import { elementToDocument, withHtmlDocument } from '../../../editor/html.js';
import type { Converted } from './source.js';

/**
 * A page of Notion's "HTML" export: `<article class="page">` with a `<header>` (icon, cover, `<h1 class="page-title">`,
 * a description, and for a database row a `<table class="properties">`) and the content in `<div class="page-body">`.
 * The header's chrome goes (the title becomes the page's title); its description and properties stay as text. Notion
 * marks up a few blocks in its own way, rewritten here to what the shared schema reads: to-do lists become task
 * lists, callouts quotes, equations their TeX source; the icons beside property names (inline SVG) are decoration.
 */

const PAGE_TITLE = /<h1\b[^>]*class="[^"]*\bpage-title\b[^"]*"[^>]*>([\s\S]*?)<\/h1>/i;
const DOCUMENT_TITLE = /<title>([\s\S]*?)<\/title>/i;
const HREF = /\bhref="([^"]*)"/gi;
const ENTITY = /&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|nbsp);/gi;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeEntities(text: string): string {
  return text.replace(ENTITY, (whole, name: string) => {
    if (name[0] !== '#') return NAMED[name.toLowerCase()] ?? whole;
    const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** The page's title from its header (or `<title>`), read without building a DOM: plan reads every page. */
export function htmlTitle(html: string): string | null {
  const raw = PAGE_TITLE.exec(html)?.[1] ?? DOCUMENT_TITLE.exec(html)?.[1];
  if (raw === undefined) return null;
  const title = decodeEntities(raw.replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
  return title || null;
}

const HEADER_ICON = /<div\b[^>]*class="[^"]*\bpage-header-icon\b[^"]*"[^>]*>([\s\S]*?)<\/div>/i;
const ICON_TEXT = /<span\b[^>]*class="[^"]*\bicon\b[^"]*"[^>]*>([\s\S]*?)<\/span>/i;
const ICON_IMAGE = /<img\b[^>]*\bsrc="([^"]*)"/i;

/**
 * The page's icon from its header, read without building a DOM: an emoji (`<span class="icon">🎯</span>`), or an
 * image (`<img class="icon" src>`: an uploaded or linked picture, or a custom emoji), which a page's icon cannot be.
 */
export function htmlIcon(html: string): { emoji: string } | { image: string } | null {
  const header = HEADER_ICON.exec(html)?.[1];
  if (header === undefined) return null;
  const text = ICON_TEXT.exec(header)?.[1];
  const emoji = text === undefined ? '' : decodeEntities(text.replace(/<[^>]*>/g, '')).trim();
  if (emoji) return { emoji };
  const image = ICON_IMAGE.exec(header)?.[1];
  return image === undefined ? null : { image: decodeEntities(image) };
}

/** Every `href` in the order the page names them (to order the children the page links to). */
export function htmlLinkTargets(html: string): string[] {
  return [...html.matchAll(HREF)].map((m) => decodeEntities(m[1]));
}

/** The header's description and properties (`Status: Done`), as paragraphs to put before the body. */
function headerText(document: Document): Element[] {
  const out: Element[] = [];
  const description = document.querySelector('header .page-description');
  if (description?.textContent?.trim()) out.push(description);
  for (const row of document.querySelectorAll('header table.properties tr')) {
    const name = row.querySelector('th')?.textContent?.trim();
    const value = row.querySelector('td');
    if (!name || !value?.textContent?.trim()) continue;
    const p = document.createElement('p');
    p.append(`${name}: `, ...value.childNodes);
    out.push(p);
  }
  return out;
}

function toTaskLists(root: Element) {
  for (const list of root.querySelectorAll('ul.to-do-list')) {
    list.setAttribute('data-type', 'taskList');
    for (const item of list.querySelectorAll(':scope > li')) {
      item.setAttribute('data-type', 'taskItem');
      item.setAttribute('data-checked', String(!!item.querySelector(':scope > .checkbox-on')));
      for (const box of item.querySelectorAll(':scope > .checkbox')) box.remove();
    }
  }
  // A checkbox property in a database table: a tick as text, not an empty cell.
  for (const box of root.querySelectorAll('.checkbox')) box.replaceWith(box.classList.contains('checkbox-on') ? '☑' : '☐');
}

function calloutsToQuotes(root: Element, document: Document): boolean {
  const callouts = root.querySelectorAll('figure.callout');
  for (const callout of callouts) {
    const [icon, content] = [...callout.children];
    const quote = document.createElement('blockquote');
    const emoji = icon?.querySelector('img') ? '' : (icon?.textContent?.trim() ?? '');
    const body = content ?? icon;
    if (body && body !== icon) {
      const first = body.firstElementChild?.tagName === 'P' ? body.firstElementChild : body;
      if (emoji) first.prepend(`${emoji} `);
      quote.append(...body.childNodes);
    }
    callout.replaceWith(quote);
  }
  return callouts.length > 0;
}

/** KaTeX markup (MathML plus a visual copy) as its TeX source in code: the schema has no math. */
function equationsToTex(root: Element, document: Document): boolean {
  let found = false;
  const texOf = (el: Element) => el.querySelector('annotation[encoding="application/x-tex"]')?.textContent?.trim() ?? '';
  for (const figure of root.querySelectorAll('figure.equation')) {
    const pre = document.createElement('pre');
    pre.append(Object.assign(document.createElement('code'), { textContent: texOf(figure) }));
    figure.replaceWith(pre);
    found = true;
  }
  for (const katex of root.querySelectorAll('.katex')) {
    katex.replaceWith(Object.assign(document.createElement('code'), { textContent: texOf(katex) }));
    found = true;
  }
  return found;
}

export function convertNotionHtml(html: string): Converted {
  return withHtmlDocument(html, (document) => {
    const warnings: string[] = [];
    const root = document.createElement('div');
    const body = document.querySelector('.page-body');
    root.append(...headerText(document), ...(body ? body.childNodes : (document.querySelector('article')?.childNodes ?? document.body.childNodes)));
    // Notion spaces blocks with bare `<br>`s between them (after a database's table, say): layout, not content.
    for (const el of root.querySelectorAll(':scope > br, header, .property-icon, .link-to-page .icon, svg.typesIcon')) el.remove();
    toTaskLists(root);
    if (calloutsToQuotes(root, document)) warnings.push('callouts became quotes');
    if (equationsToTex(root, document)) warnings.push('equations were kept as their TeX source, in code');
    const { doc, dropped } = elementToDocument(root);
    return { doc, warnings: [...warnings, ...dropped] };
  });
}

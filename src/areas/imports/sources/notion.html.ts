import { type CalloutType, MAX_MATH } from '../../../editor/blocks.js';
import { MAX_COLUMNS, MIN_COLUMNS } from '../../../editor/columns.js';
import { elementToDocument, withHtmlDocument } from '../../../editor/html.js';
import { isEmoji, pictureIconWarning } from './callout-icons.js';
import type { Converted } from './source.js';

/**
 * A page of Notion's "HTML" export: `<article class="page">` with a `<header>` (icon, cover, `<h1 class="page-title">`,
 * a description, and for a database row a `<table class="properties">`) and the content in `<div class="page-body">`.
 * The header's chrome goes (the title becomes the page's title); its description and properties stay as text. Notion
 * marks up a few blocks in its own way, rewritten here to what the shared schema reads: to-do lists become task
 * lists, callouts (`figure.callout`) callouts (an emoji icon kept, the type from the colour), toggles (`ul.toggle`,
 * and toggle headings) details, equations (KaTeX) math blocks and inline math with their TeX source, and a Mermaid
 * code block kb's `mermaid` one, column lists columns; the icons beside property names (inline SVG) are decoration.
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

/** Notion's block colours (a callout's text or background) as callout types, by the colour each shows in kb. */
const CALLOUT_COLOURS: Record<string, CalloutType> = {
  default: 'info',
  blue: 'info',
  purple: 'info',
  gray: 'note',
  brown: 'note',
  green: 'success',
  teal: 'success',
  yellow: 'warning',
  orange: 'warning',
  red: 'danger',
  pink: 'danger',
};

/**
 * `<figure class="block-color-… callout"><div><span class="icon">💡</span></div><div>…</div></figure>` as a callout:
 * the icon kept when it is an emoji (a picture cannot be a callout's icon: reported), the type from the colour.
 */
function calloutsToCallouts(root: Element, document: Document, warnings: Set<string>) {
  for (const callout of root.querySelectorAll('figure.callout')) {
    const children = [...callout.children];
    // Notion writes the icon's box (empty when there is no icon) and then the content's.
    const box = children.length > 1 ? children[0] : null;
    const body = children.length > 1 ? children.slice(1) : children;
    const aside = document.createElement('aside');
    const colour = /\bblock-color-([a-z]+?)(?:_background)?\b/.exec(callout.className)?.[1] ?? 'default';
    aside.setAttribute('data-callout', CALLOUT_COLOURS[colour] ?? 'info');
    const picture = box?.querySelector('img');
    const icon = (box?.textContent ?? '').trim();
    if (picture) warnings.add(pictureIconWarning(picture.getAttribute('src') ?? ''));
    else if (isEmoji(icon)) aside.setAttribute('data-icon', icon);
    else if (icon) aside.append(icon, ' '); // not an icon kb can show: kept as the callout's first words
    for (const part of body) aside.append(...(part.tagName === 'DIV' ? part.childNodes : [part]));
    callout.replaceWith(aside);
  }
}

/**
 * Toggles: `<ul class="toggle"><li><details open=""><summary>…</summary>…</details></li></ul>` (a toggle heading is a
 * bare `<details>` whose summary holds the heading and whose blocks sit in a `div.indented`) as the schema's
 * `<details><summary>…</summary><div data-details-content>…</div></details>`; the summary is one line of text.
 */
function togglesToDetails(root: Element, document: Document) {
  for (const list of root.querySelectorAll('ul.toggle')) {
    const items = [...list.children];
    if (items.every((li) => li.tagName === 'LI' && li.querySelector(':scope > details'))) list.replaceWith(...items.flatMap((li) => [...li.childNodes]));
  }
  for (const details of root.querySelectorAll('details')) {
    const summary = document.createElement('summary');
    const content = document.createElement('div');
    content.setAttribute('data-details-content', '');
    let summed = false;
    for (const child of [...details.childNodes]) {
      if (child.nodeName === 'SUMMARY' && !summed) summary.append(...child.childNodes);
      else content.append(child);
      summed ||= child.nodeName === 'SUMMARY';
    }
    for (const block of summary.querySelectorAll('h1, h2, h3, h4, h5, h6, p, div')) block.replaceWith(...block.childNodes);
    details.removeAttribute('open');
    details.replaceChildren(summary, content);
  }
}

/** An equation's TeX source: the annotation KaTeX keeps beside its MathML, else its text. */
const texOf = (el: Element) => (el.querySelector('annotation[encoding="application/x-tex"]')?.textContent ?? el.textContent ?? '').trim();

/**
 * KaTeX markup (MathML plus a visual copy) as math with its TeX source: an equation block (`figure.equation`) as a
 * math block, an inline equation (`span.notion-text-equation-token`, or KaTeX elsewhere) as inline math. A formula
 * longer than the schema takes stays as TeX in code, reported.
 */
function equationsToMath(root: Element, document: Document, warnings: Set<string>) {
  const replace = (el: Element, block: boolean) => {
    const tex = texOf(el);
    if (tex.length > MAX_MATH) {
      warnings.add(`an equation longer than ${MAX_MATH} characters was kept as its TeX source, in code`);
      const code = Object.assign(document.createElement('code'), { textContent: tex });
      const pre = document.createElement('pre');
      pre.append(code);
      el.replaceWith(block ? pre : code);
      return;
    }
    const math = Object.assign(document.createElement(block ? 'div' : 'span'), { textContent: tex });
    math.setAttribute('data-math', block ? 'block' : 'inline');
    el.replaceWith(math);
  };
  for (const figure of root.querySelectorAll('figure.equation')) replace(figure, true);
  for (const token of root.querySelectorAll('.notion-text-equation-token')) replace(token, false);
  for (const katex of root.querySelectorAll('.katex-display, .katex')) if (katex.isConnected) replace(katex, katex.matches('.katex-display'));
}

/**
 * Column lists: `<div class="column-list"><div class="column" style="width:…">…</div>…</div>` as the schema's columns
 * (`<div data-type="columns"><div data-type="column">…</div></div>`). kb's columns hold two or three: a list of one
 * column, or of four and more, is kept as its blocks one after another (reported when columns were given up).
 */
function columnListsToColumns(root: Element, warnings: Set<string>) {
  for (const list of [...root.querySelectorAll('div.column-list')].reverse()) {
    const columns = [...list.children].filter((c) => c.matches('div.column'));
    if (columns.length >= MIN_COLUMNS && columns.length <= MAX_COLUMNS && columns.length === list.children.length) {
      list.setAttribute('data-type', 'columns');
      for (const column of columns) column.setAttribute('data-type', 'column');
      continue;
    }
    if (columns.length > MAX_COLUMNS)
      warnings.add(`a row of ${columns.length} columns was kept as its blocks one after another (kb's columns hold at most ${MAX_COLUMNS})`);
    list.replaceWith(...[...list.children].flatMap((c) => (c.matches('div.column') ? [...c.childNodes] : [c])));
  }
}

/** Notion names its code languages in capitals (`language-Mermaid`): a diagram is kb's `mermaid` code block. */
function mermaidCode(root: Element) {
  for (const code of root.querySelectorAll('pre code.language-Mermaid')) code.className = 'language-mermaid';
}

export function convertNotionHtml(html: string): Converted {
  return withHtmlDocument(html, (document) => {
    const warnings = new Set<string>();
    const root = document.createElement('div');
    const body = document.querySelector('.page-body');
    root.append(...headerText(document), ...(body ? body.childNodes : (document.querySelector('article')?.childNodes ?? document.body.childNodes)));
    // Notion spaces blocks with bare `<br>`s between them (after a database's table, say): layout, not content; and it
    // puts KaTeX's stylesheet before each equation, which is no part of the formula's text.
    for (const el of root.querySelectorAll(':scope > br, header, style, .property-icon, .link-to-page .icon, svg.typesIcon')) el.remove();
    toTaskLists(root);
    equationsToMath(root, document, warnings);
    calloutsToCallouts(root, document, warnings);
    togglesToDetails(root, document);
    mermaidCode(root);
    columnListsToColumns(root, warnings);
    const { doc, dropped } = elementToDocument(root);
    return { doc, warnings: [...warnings, ...dropped] };
  });
}

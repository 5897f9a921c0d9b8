import { Window } from 'happy-dom';
import type { DocJson } from '../../../db/tables/pages.js';
import { checkEmbedUrl } from '../../../editor/embeds.js';
import { documentToHtml, HAPPY_DOM_SETTINGS } from '../../../editor/html.js';
import { headingIds } from '../../../editor/html-contents.js';
import { cleanImageAlign, styleWidth } from '../../../editor/images.js';
import { SUBPAGES } from '../../../editor/live-blocks.js';
import { isAllowedImageUrl, isAllowedLinkUrl } from '../../../editor/urls.js';

/**
 * A shared page's content as the HTML the public reader serves: the shared schema's own HTML form (`documentToHtml`,
 * the one exports write), then an allow-list pass over the elements, so whatever a stored document holds, the page
 * carries no script, no handler, no frame, no style attribute (the reader's CSP allows none) and no URL outside the
 * allowed schemes. Elements the list does not know are unwrapped (their text stays); elements that only run or embed
 * something are removed, and a frame becomes a link to what it showed. An embed (`<figure data-embed>`) becomes a link
 * card: its provider's name and its link, opened in a new tab (no frame loads another site into a public page).
 */

/** Semantic elements a page's content may be made of (new blocks rendering to these need no change here). */
const ELEMENTS = new Set(
  (
    'p h1 h2 h3 h4 h5 h6 strong b em i s del u mark code pre kbd sub sup small a img br hr ul ol li blockquote ' +
    'table thead tbody tfoot tr th td caption colgroup col div span label input details summary aside figure ' +
    'figcaption section time abbr dl dt dd'
  ).split(' '),
);
/** Removed with everything inside: they run, embed or style something, and carry no page text. */
const REMOVED = new Set(
  'script style noscript template object embed applet link meta base form textarea select button svg math canvas audio video source track frame frameset'.split(
    ' ',
  ),
);
const ATTRIBUTES = new Set(
  'href src alt title width height colspan rowspan start reversed type checked open datetime class lang dir data-type data-checked data-language data-callout data-color data-align data-width'.split(
    ' ',
  ),
);

let window: Window | undefined;

/** One inert happy-dom window for every page this thread renders (making one per page costs ten times the render). */
function sharedDocument(): Document {
  window ??= new Window({ settings: HAPPY_DOM_SETTINGS });
  return window.document as unknown as Document;
}

export interface ReaderContent {
  html: string;
  /** The first text of the page (for `<meta name="description">`), whitespace collapsed, at most about 160 characters. */
  description: string;
  /** The first image's address, as written (relative addresses are the share's own attachment URLs). */
  firstImage: string | null;
}

/** Up to about `max` characters, cut at a word, with an ellipsis when cut. */
export function summaryOf(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s.,;:!?-]+$/, '')}…`;
}

function unwrap(el: Element) {
  el.replaceWith(...Array.from(el.childNodes));
}

/** The ids footnotes link by (`fn1`, `fnref1`: footnotes-html.ts); other ids are dropped (headings get theirs after). */
const FOOTNOTE_ID = /^fn(?:ref)?\d{1,5}$/;

function cleanAttributes(el: Element) {
  for (const attr of Array.from(el.attributes))
    if (!ATTRIBUTES.has(attr.name) && !(attr.name === 'id' && FOOTNOTE_ID.test(attr.value))) el.removeAttribute(attr.name);
}

/** Sanitizes the elements under `root` in place (see the file's comment). */
function sanitize(root: Element) {
  const document = root.ownerDocument;
  // Deepest first, so an unwrapped element's children have been checked already and an ancestor's removal costs no work below it.
  const elements = Array.from(root.querySelectorAll('*')).reverse();
  for (const el of elements) {
    const tag = el.tagName.toLowerCase();
    if (tag === 'iframe') {
      const src = el.getAttribute('src') ?? '';
      if (/^https?:/i.test(src) && isAllowedLinkUrl(src)) {
        const a = document.createElement('a');
        a.setAttribute('href', src);
        a.textContent = src;
        const p = document.createElement('p');
        p.append(a);
        el.replaceWith(p);
      } else el.remove();
      continue;
    }
    if (REMOVED.has(tag)) {
      el.remove();
      continue;
    }
    if (!ELEMENTS.has(tag)) {
      unwrap(el);
      continue;
    }
    cleanAttributes(el);
    if (tag === 'input' && el.getAttribute('type') !== 'checkbox') el.remove();
  }
  for (const a of Array.from(root.querySelectorAll('a'))) {
    const href = a.getAttribute('href');
    if (!href?.trim() || !isAllowedLinkUrl(href)) {
      unwrap(a);
      continue;
    }
    // A page of the share or a place on this page opens here; another site in a new tab, told nothing of where from.
    if (/^https?:/i.test(href) || /^\/\//.test(href)) {
      a.setAttribute('target', '_blank');
      a.setAttribute('rel', 'noopener noreferrer nofollow');
    }
  }
  for (const img of Array.from(root.querySelectorAll('img'))) {
    const src = img.getAttribute('src');
    if (!src || !isAllowedImageUrl(src)) {
      // Its alt text instead, in a paragraph of its own when the image was a block.
      const alt = document.createTextNode(img.getAttribute('alt') ?? '');
      if (img.parentElement === root) {
        const p = document.createElement('p');
        p.append(alt);
        img.replaceWith(p);
      } else img.replaceWith(alt);
      continue;
    }
    if (!img.hasAttribute('alt')) img.setAttribute('alt', '');
    img.setAttribute('loading', 'lazy');
    img.setAttribute('decoding', 'async');
  }
}

/** Each embed as a link card (before `sanitize`, which would make its frame a second link and drop its data attributes). */
function embedCards(root: Element) {
  const document = root.ownerDocument;
  for (const figure of Array.from(root.querySelectorAll('figure[data-embed]'))) {
    const src = figure.getAttribute('data-src') ?? figure.querySelector('a[href]')?.getAttribute('href') ?? '';
    const check = checkEmbedUrl(src);
    if (!/^https:/i.test(src) || !isAllowedLinkUrl(src)) {
      // Not a link a visitor may follow (content stored under other rules): its address as text.
      const p = document.createElement('p');
      p.textContent = src;
      figure.replaceWith(p);
      continue;
    }
    const card = document.createElement('figure');
    card.setAttribute('class', 'embed-card');
    const a = document.createElement('a');
    a.setAttribute('href', src);
    const name = document.createElement('strong');
    name.textContent = check.ok ? check.provider.name : 'Embedded page';
    const address = document.createElement('span');
    address.textContent = src;
    a.append(name, address);
    card.append(a);
    figure.replaceWith(card);
  }
}

/** Each player as a link to its file (before `sanitize`, which removes players with what they hold). */
function mediaLinks(root: Element) {
  const document = root.ownerDocument;
  for (const media of Array.from(root.querySelectorAll('video, audio'))) {
    const src = media.getAttribute('src') ?? '';
    const p = document.createElement('p');
    const a = document.createElement('a');
    a.setAttribute('href', src);
    a.textContent = media.getAttribute('title') || (media.tagName.toUpperCase() === 'VIDEO' ? 'Video' : 'Audio');
    p.append(a);
    media.replaceWith(p);
  }
}

/**
 * A block image's figure keeps its layout without a style attribute (before `sanitize`, which removes it): its width as
 * `data-width`, sized by the reader's stylesheet; anything but a known alignment is dropped.
 */
function imageFigures(root: Element) {
  for (const figure of Array.from(root.querySelectorAll('figure.image'))) {
    const width = styleWidth(figure);
    if (width !== null) figure.setAttribute('data-width', String(width));
    else figure.removeAttribute('data-width');
    const align = cleanImageAlign(figure.getAttribute('data-align'));
    if (align) figure.setAttribute('data-align', align);
    else figure.removeAttribute('data-align');
  }
}

/** Task items: a checkbox that shows the state, cannot be changed, and is named by its task. */
function taskItems(root: Element) {
  for (const input of Array.from(root.querySelectorAll('input[type=checkbox]'))) {
    input.setAttribute('disabled', '');
    const item = input.closest('li');
    const label = item ? summaryOf(Array.from(item.children).find((c) => c.tagName !== 'LABEL')?.textContent ?? '', 80) : '';
    input.setAttribute('aria-label', label || 'Task');
    const wrapper = input.closest('label');
    if (wrapper) {
      wrapper.replaceWith(input);
    }
  }
}

/** Wide tables scroll sideways in their own box instead of widening the page on a phone. */
function scrollableTables(root: Element) {
  for (const table of Array.from(root.querySelectorAll('table'))) {
    const box = root.ownerDocument.createElement('div');
    box.setAttribute('class', 'table');
    table.replaceWith(box);
    box.append(table);
  }
}

/** The public content (links already made public by `publicContent`) as safe HTML, with its description and first image. */
export function readerContent(doc: DocJson): ReaderContent {
  const document = sharedDocument();
  const root = document.createElement('div');
  documentToHtml(doc, { document, into: root as unknown as HTMLElement });
  embedCards(root);
  mediaLinks(root);
  imageFigures(root);
  // The page's children are listed under it (reader.page.ts): the subpages block's placeholder would say so twice.
  for (const nav of Array.from(root.querySelectorAll(`nav[data-type="${SUBPAGES.htmlType}"]`))) nav.remove();
  sanitize(root);
  taskItems(root);
  headingIds(root);
  scrollableTables(root);
  const firstImage = root.querySelector('img')?.getAttribute('src') ?? null;
  // The first text a reader sees, block after block until there is enough for a search result's two lines.
  const texts: string[] = [];
  let length = 0;
  for (const block of Array.from(root.querySelectorAll('p, h1, h2, h3, h4, h5, h6, summary'))) {
    const text = block.textContent?.trim();
    if (!text) continue;
    texts.push(text);
    length += text.length + 1;
    if (length >= 160) break;
  }
  const description = summaryOf(texts.join(' '));
  return { html: root.innerHTML, description, firstImage };
}

import { SUBPAGES, TABLE_OF_CONTENTS } from './live-blocks.js';

/**
 * The live blocks' HTML filled in: headings get ids from their text, so `#fragment` links reach them (the share
 * reader's and an export's), and the table of contents block (`<nav data-type="toc">`) lists links to the h1–h3
 * headings, as the app lists them; the subpages block lists the pages its caller knows to be under the page (an export).
 */

const slugOf = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'section';

/** Gives every heading under `root` an id from its text (`setup`, `setup-2`, …), in document order. */
export function headingIds(root: Element) {
  const used = new Set<string>();
  for (const h of Array.from(root.querySelectorAll('h1, h2, h3, h4, h5, h6'))) {
    const base = slugOf(h.textContent ?? '');
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    h.setAttribute('id', id);
  }
}

/** Fills each table of contents under `root` with a list of links to its h1–h3 headings (headings get ids first). */
export function tablesOfContents(root: Element) {
  const navs = Array.from(root.querySelectorAll(`nav[data-type="${TABLE_OF_CONTENTS.htmlType}"]`));
  if (navs.length === 0) return;
  headingIds(root);
  const document = root.ownerDocument;
  const headings = Array.from(root.querySelectorAll('h1, h2, h3')).filter((h) => h.textContent?.trim());
  if (headings.length === 0) return;
  const links = headings.map((h) => ({ text: h.textContent?.trim() ?? '', href: `#${h.getAttribute('id')}`, className: `toc-${h.tagName.toLowerCase()}` }));
  for (const nav of navs) nav.replaceChildren(linkList(document, links));
}

/** A list of links, each its `text` to its `href`. */
function linkList(document: Document, links: { text: string; href: string; className?: string }[]): HTMLUListElement {
  const list = document.createElement('ul');
  for (const link of links) {
    const li = document.createElement('li');
    if (link.className) li.setAttribute('class', link.className);
    const a = document.createElement('a');
    a.setAttribute('href', link.href);
    a.textContent = link.text;
    li.append(a);
    list.append(li);
  }
  return list;
}

/** Fills each subpages block under `root` with links to `children` (kept as its label when there are none). */
export function subpagesLists(root: Element, children: { title: string; href: string }[]) {
  if (children.length === 0) return;
  for (const nav of Array.from(root.querySelectorAll(`nav[data-type="${SUBPAGES.htmlType}"]`)))
    nav.replaceChildren(
      linkList(
        root.ownerDocument,
        children.map((c) => ({ text: c.title || 'Untitled', href: c.href })),
      ),
    );
}

import { TABLE_OF_CONTENTS } from './live-blocks.js';

/**
 * Headings in HTML: ids from their text, so `#fragment` links reach them (the share reader's and an export's), and the
 * table of contents block (`<nav data-type="toc">`) filled with links to the h1–h3 headings, as the app lists them.
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
  for (const nav of navs) {
    if (headings.length === 0) continue;
    const list = document.createElement('ul');
    for (const h of headings) {
      const li = document.createElement('li');
      li.setAttribute('class', `toc-${h.tagName.toLowerCase()}`);
      const a = document.createElement('a');
      a.setAttribute('href', `#${h.getAttribute('id')}`);
      a.textContent = h.textContent?.trim() ?? '';
      li.append(a);
      list.append(li);
    }
    nav.replaceChildren(list);
  }
}

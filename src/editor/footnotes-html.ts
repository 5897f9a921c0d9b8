import { asFootnoteText } from './footnotes.js';

/**
 * Footnotes in HTML (footnotes.ts). Out: each `<sup data-type="footnote">` the schema writes becomes
 * `<sup class="footnote-ref"><a href="#fn1" id="fnref1">1</a></sup>`, numbered in document order, and their texts a
 * `<section class="footnotes">` list at the end, each with a link back. In: a reference (a link to `#id` inside a
 * `<sup>`, or marked `footnote-ref`, `doc-noteref` or `data-footnote-ref`) whose target is an item of a footnotes
 * list (`.footnotes`, `[role=doc-endnotes]`, `[data-footnotes]`) becomes the node with that item's text; the lists
 * themselves are removed (an item no reference points to goes with them, and is reported).
 */

const LISTS = '.footnotes, [role="doc-endnotes"], [data-footnotes]';
const BACKLINKS = 'a[href^="#fnref"], .footnote-backref, .footnote-back, [role="doc-backlink"], [data-footnote-backref]';
const BLOCKS = 'p, div, li, blockquote, br';

/** Numbers the footnotes under `root` and lists their texts at its end (empty ones, notes still unwritten, are left out). */
export function footnotesToHtml(root: Element) {
  const refs = Array.from(root.querySelectorAll('sup[data-type="footnote"]'));
  if (refs.length === 0) return;
  const document = root.ownerDocument;
  const list = document.createElement('ol');
  for (const sup of refs) {
    const text = sup.getAttribute('data-text') ?? '';
    if (!text) {
      sup.remove();
      continue;
    }
    const n = list.children.length + 1;
    const ref = document.createElement('a');
    ref.setAttribute('href', `#fn${n}`);
    ref.setAttribute('id', `fnref${n}`);
    ref.textContent = String(n);
    sup.removeAttribute('data-type');
    sup.removeAttribute('data-text');
    sup.replaceChildren(ref);
    const item = document.createElement('li');
    item.setAttribute('id', `fn${n}`);
    const back = document.createElement('a');
    back.setAttribute('href', `#fnref${n}`);
    back.textContent = '↩';
    item.append(`${text} `, back);
    list.append(item);
  }
  if (list.children.length === 0) return;
  const section = document.createElement('section');
  section.setAttribute('class', 'footnotes');
  section.append(list);
  root.append(section);
}

/** The text of a footnote list's item, without its links back. */
function noteText(item: Element): string {
  const copy = item.cloneNode(true) as Element;
  for (const back of Array.from(copy.querySelectorAll(BACKLINKS))) back.remove();
  for (const block of Array.from(copy.querySelectorAll(BLOCKS))) block.after(' ');
  return asFootnoteText((copy.textContent ?? '').replace(/[↩↑]\uFE0E?\uFE0F?/g, ''));
}

/** The element a reference link stands for: its `<sup>` (kb, markdown-it) or itself (Pandoc's `<a><sup>1</sup></a>`). */
function referenceOf(a: Element): Element | null {
  const sup = a.parentElement?.tagName.toUpperCase() === 'SUP' && a.parentElement.textContent?.trim() === a.textContent?.trim() ? a.parentElement : null;
  const marked = a.matches('.footnote-ref, [role="doc-noteref"], [data-footnote-ref]') || a.closest('sup.footnote-ref') !== null;
  if (sup) return sup;
  return marked || a.querySelector('sup') ? a : null;
}

/** Turns footnote references under `root` into the schema's footnotes and removes the lists; returns what was lost. */
export function footnotesFromHtml(root: Element): string[] {
  const lists = Array.from(root.querySelectorAll(LISTS)).filter((l) => l.querySelector('li[id]'));
  if (lists.length === 0) return [];
  const items = new Map<string, Element>();
  for (const list of lists) for (const li of Array.from(list.querySelectorAll('li[id]'))) items.set(li.getAttribute('id') ?? '', li);
  const used = new Set<Element>();
  const document = root.ownerDocument;
  for (const a of Array.from(root.querySelectorAll('a[href^="#"]'))) {
    if (lists.some((l) => l.contains(a))) continue;
    let id = a.getAttribute('href')!.slice(1);
    try {
      id = decodeURIComponent(id);
    } catch {
      // as written
    }
    const item = items.get(id);
    const ref = item ? referenceOf(a) : null;
    if (!item || !ref) continue;
    used.add(item);
    const note = document.createElement('sup');
    note.setAttribute('data-type', 'footnote');
    note.setAttribute('data-text', noteText(item));
    ref.replaceWith(note);
  }
  const unused = Array.from(items.values()).filter((li) => !used.has(li)).length;
  for (const list of lists) {
    const rule = list.previousElementSibling;
    if (rule?.matches('hr.footnotes-sep')) rule.remove();
    list.remove();
  }
  return unused ? [`${unused} footnote${unused === 1 ? '' : 's'} without a reference in the text ${unused === 1 ? 'was' : 'were'} dropped`] : [];
}

import { withHtmlDocument } from '../../../editor/html.js';

/**
 * The page tree of a Confluence space export, read from its `index.html`. Confluence writes the space's details
 * (a table) and then a section headed "Available Pages:" holding the whole tree as nested lists: each `<li>` starts
 * with a link to its page (`Title_123456.html`, link text the page's title) and holds its children in one or more
 * `<ul>` of its own, in the space's order.
 */

export interface IndexEntry {
  href: string;
  title: string;
  children: IndexEntry[];
}

const HEADING = /^\s*available pages\s*:?\s*$/i;

/** The `<ul>`s under `scope` that no other list or item under `scope` holds. */
function outermostLists(scope: Element, within: Element): Element[] {
  return [...scope.querySelectorAll('ul, ol')].filter((list) => {
    for (let at = list.parentElement; at && at !== within; at = at.parentElement) if (/^(UL|OL|LI)$/.test(at.tagName)) return false;
    return true;
  });
}

function entriesOf(list: Element): IndexEntry[] {
  const entries: IndexEntry[] = [];
  for (const item of list.children) {
    if (item.tagName !== 'LI') continue;
    // Confluence puts the link and the child lists right in the item; anything else is looked for deeper.
    const direct = [...item.children];
    const link = direct.find((c) => c.tagName === 'A' && c.hasAttribute('href')) ?? [...item.querySelectorAll('a[href]')].find((a) => a.closest('li') === item);
    const lists = direct.filter((c) => c.tagName === 'UL' || c.tagName === 'OL');
    const children = (lists.length ? lists : outermostLists(item, item)).flatMap(entriesOf);
    if (!link) {
      entries.push(...children); // an item without a page of its own: its children move up
      continue;
    }
    entries.push({ href: link.getAttribute('href') ?? '', title: (link.textContent ?? '').replace(/\s+/g, ' ').trim(), children });
  }
  return entries;
}

/** The tree of "Available Pages:", or null when the file has no such section (not a space export's index). */
export function readSpaceIndex(html: string): IndexEntry[] | null {
  return withHtmlDocument(html, (document) => {
    const heading = [...document.querySelectorAll('h1, h2, h3, h4, .pageSectionTitle')].find((h) => HEADING.test(h.textContent ?? ''));
    if (!heading) return null;
    // The lists follow the heading inside its `.pageSection` (or, in older exports, after it in the same parent).
    const section = heading.closest('.pageSection') ?? heading.parentElement;
    if (!section) return null;
    return outermostLists(section, section).flatMap(entriesOf);
  });
}

import { Node } from '@tiptap/core';

/**
 * A date in a line of text (`date`, attribute `date`: a calendar day `YYYY-MM-DD`, no time and no time zone, so it
 * is the same day for every reader). Markdown `:date[2026-12-07]` (a text directive of the generic directives
 * proposal, as `::embed[…]` is a leaf one: no clash with mentions, which are links; markdown-blocks.ts); HTML
 * `<time datetime="2026-12-07">7 Dec 2026</time>`, and any `<time>` whose `datetime` starts with a day reads back
 * (Confluence's dates), as does Notion's `<time>@December 7, 2026</time>`. Search and plain text read it written out
 * ("7 December 2026"); the web app shows it in the reader's own language.
 */

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Whether `v` is a real calendar day written `YYYY-MM-DD` (year 0001 to 9999; no 30 February). */
export function isIsoDay(v: unknown): v is string {
  const m = typeof v === 'string' ? ISO_DAY.exec(v) : null;
  if (!m) return false;
  const [year, month, day] = m.slice(1).map(Number);
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const days = new Date(Date.UTC(2000, month, 0)).getUTCDate(); // 29 for February: leap years are checked next
  if (month === 2 && day === 29) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= days;
}

const dayAttr = (v: unknown) => {
  if (!isIsoDay(v)) throw new RangeError('must be a calendar date written YYYY-MM-DD');
};

const parts = (iso: string) => iso.split('-').map(Number) as [number, number, number];

/** "7 December 2026": the words search finds it by. */
export function dayInWords(iso: string): string {
  if (!isIsoDay(iso)) return iso;
  const [year, month, day] = parts(iso);
  return `${day} ${MONTHS[month - 1]} ${year}`;
}

/** "7 Dec 2026": the date in an export (no reader's language is known there). */
export function shortDay(iso: string): string {
  if (!isIsoDay(iso)) return iso;
  const [year, month, day] = parts(iso);
  return `${day} ${MONTHS[month - 1].slice(0, 3)} ${year}`;
}

const NOTION_DAY = /^@?([A-Za-z]+)\s+(\d{1,2}),\s*(\d{4})$/;

/** The day a `<time>` names: its `datetime` (a day, or a moment whose day is taken), else Notion's "@December 7, 2026". */
export function dayOfTimeElement(el: HTMLElement): string | null {
  const stamp = el.getAttribute('datetime')?.trim().slice(0, 10);
  if (stamp) return isIsoDay(stamp) ? stamp : null;
  const m = NOTION_DAY.exec((el.textContent ?? '').trim());
  const month = m ? MONTHS.findIndex((name) => name.toLowerCase().startsWith(m[1].toLowerCase()) && m[1].length >= 3) + 1 : 0;
  if (!m || month === 0) return null;
  const iso = `${m[3]}-${String(month).padStart(2, '0')}-${m[2].padStart(2, '0')}`;
  return isIsoDay(iso) ? iso : null;
}

export const DateNode = Node.create({
  name: 'date',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,
  addAttributes() {
    return { date: { default: null, validate: dayAttr, parseHTML: (el: HTMLElement) => dayOfTimeElement(el), renderHTML: () => ({}) } };
  },
  parseHTML() {
    return [{ tag: 'time', getAttrs: (el: HTMLElement) => (dayOfTimeElement(el) ? null : false) }];
  },
  renderHTML({ node }) {
    return ['time', { datetime: node.attrs.date, 'data-type': 'date' }, shortDay(String(node.attrs.date ?? ''))];
  },
});

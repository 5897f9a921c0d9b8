/**
 * Reading a title out of an HTML file while planning, on the request thread: a regular expression over the text
 * rather than a DOM (a plan may look at thousands of files), and entities decoded by hand.
 */

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ndash: '–', mdash: '—', hellip: '…' };

/** Character references decoded (numeric ones and the common named ones; an unknown name is kept as written). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref.toLowerCase()] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** The text of the first element matched by `pattern` (its inner HTML in group 1), tags dropped and spaces folded. */
export function firstElementText(html: string, pattern: RegExp): string | null {
  const match = pattern.exec(html);
  if (!match) return null;
  const text = decodeEntities(match[1].replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
  return text || null;
}

export const TITLE_ELEMENT = /<title[^>]*>([\s\S]*?)<\/title>/i;
export const FIRST_H1 = /<h1[^>]*>([\s\S]*?)<\/h1>/i;

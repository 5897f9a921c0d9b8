/**
 * The query language people and agents actually type: free words (a question is fine), "quoted phrases" that
 * must appear, -exclusions (a word or a "-quoted phrase"), and a last word still being typed, which matches as a
 * prefix. No operator can make the query fail: everything that is not one of these is just text.
 */
export interface ParsedQuery {
  /** Free text: analysed by PostgreSQL (`english`: stop words dropped, words stemmed); any word matches. */
  free: string;
  /** The last free word, when it may be unfinished (no space after it, at least 3 letters): matched as a prefix. */
  prefix: string | null;
  /** Phrases every result must contain (their words also count as query words for ranking). */
  phrases: string[];
  /** Words or phrases no result may contain. */
  excluded: string[];
}

/** Most words a query reads (a pasted paragraph); of these, the `MAX_TERMS` rarest rank (search.plan.ts). */
export const MAX_WORDS = 128;
export const MIN_PREFIX = 3;
/**
 * Free words (outside quotes, not exclusions) from which a query reads as prose rather than keywords: a question or a
 * pasted paragraph that quotes a title or a term in passing ("what does "type correct" mean for message passing …").
 * Its quoted words then rank like its other words instead of being required: one quoted title no page contains would
 * otherwise leave the whole question without results. Exclusions still apply.
 */
export const PROSE_WORDS = 8;
const QUOTED = /(^|\s)(-?)"([^"]*)"/g;

// Control characters (NUL included) and the sentinels the snippet marks use never reach the database.
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/g;
const WORD = /[\p{L}\p{N}]+/gu;

export function parseQuery(input: string): ParsedQuery {
  let text = input.normalize('NFKC').replace(CONTROL, ' ');
  const phrases: string[] = [];
  const excluded: string[] = [];
  // Prose (a question, a pasted paragraph) quotes a title or a term in passing: its quoted words are then free words.
  const prose = freeWordCount(text.replace(QUOTED, ' ')) >= PROSE_WORDS;
  // "a phrase" and -"an excluded phrase"; a lone unbalanced quote is just dropped below.
  text = text.replace(QUOTED, (_m, lead: string, minus: string, body: string) => {
    if (!minus && prose) return `${lead}${body} `;
    if (hasWord(body)) (minus ? excluded : phrases).push(body.trim());
    return `${lead} `;
  });
  text = text.replace(/"/g, ' ');
  const words: string[] = [];
  let lastIsFree = false;
  for (const token of text.split(/\s+/)) {
    if (!token) continue;
    lastIsFree = false;
    if (token.startsWith('-')) {
      const rest = token.replace(/^-+/, '');
      if (hasWord(rest)) excluded.push(rest);
      continue;
    }
    if (hasWord(token)) {
      words.push(token);
      lastIsFree = true;
    }
  }
  const kept = words.slice(0, MAX_WORDS);
  const free = kept.join(' ');
  // Still typing: the input ends inside a free word (no trailing space, quote or punctuation).
  let prefix: string | null = null;
  const last = kept.length === words.length ? kept.at(-1) : undefined;
  if (last && lastIsFree && /[\p{L}\p{N}]$/u.test(input)) {
    const tail = last.match(/[\p{L}\p{N}]+$/u)?.[0] ?? '';
    if (tail.length >= MIN_PREFIX) prefix = tail.toLowerCase();
  }
  return { free, prefix, phrases: phrases.slice(0, 8), excluded: excluded.slice(0, 16) };
}

/** Words of `text` that are not exclusions (`-word`). */
function freeWordCount(text: string): number {
  return text.split(/\s+/).filter((token) => !token.startsWith('-') && hasWord(token)).length;
}

function hasWord(s: string): boolean {
  WORD.lastIndex = 0;
  return WORD.test(s);
}

/** A lexeme as a tsquery operand: quoted, with quotes and backslashes escaped. */
export function tsLexeme(lexeme: string, prefix = false): string {
  return `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'${prefix ? ':*' : ''}`;
}

/**
 * The tsquery of an unfinished word: its stem or its raw form as a prefix, plus the shorter forms its stem may
 * have once complete (typing "configurat" should find "configuration", indexed as "configur"). Also the same
 * alternatives as lexemes (whole) and prefixes, for the term statistics.
 */
export function prefixQuery(raw: string, stem: string | null): { query: string; lexemes: string[]; prefixes: string[] } {
  const prefixes = [...new Set([...(stem ? [stem] : []), raw])];
  const lexemes = new Set<string>();
  if (/^\p{L}+$/u.test(raw)) for (let n = raw.length - 1; n >= Math.max(4, raw.length - 4); n--) lexemes.add(raw.slice(0, n));
  const query = [...new Set([...prefixes.map((p) => tsLexeme(p, true)), ...[...lexemes].map((l) => tsLexeme(l))])].join(' | ');
  // For statistics, a whole form that one of the prefixes already covers adds nothing.
  const covered = (x: string, self?: string) => prefixes.some((p) => p !== self && x.startsWith(p));
  return { query, lexemes: [...lexemes].filter((l) => !covered(l)), prefixes: prefixes.filter((p) => !covered(p, p)) };
}

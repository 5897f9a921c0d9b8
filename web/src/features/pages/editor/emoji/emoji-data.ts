import type { CompactEmoji, ShortcodesDataset } from 'emojibase';
import { versionsNotDrawn } from './emoji-support';

/** One emoji as the editor offers it: the character put into the text, and what finds it. */
export interface Emoji {
  char: string;
  /** CLDR's name ("grinning face with smiling eyes"): the picker's tooltip and accessible name. */
  name: string;
  /** GitHub's shortcodes (`smile`), the first the usual one; empty for the few GitHub has none for. */
  codes: string[];
  /** Index into GROUPS. */
  group: number;
  /** Name and tags, lower case, for the picker's search. */
  words: string;
}

export interface EmojiData {
  /** In the order an emoji keyboard shows them (Unicode's order), grouped. */
  all: Emoji[];
  byCode: Map<string, Emoji>;
}

/** Emojibase's groups by number, as the picker titles them (group 2, skin tone and hair components, is left out). */
export const GROUPS = [
  'Smileys & emotion',
  'People & body',
  null,
  'Animals & nature',
  'Food & drink',
  'Travel & places',
  'Activities',
  'Objects',
  'Symbols',
  'Flags',
] as const;

function build(compact: CompactEmoji[], shortcodes: ShortcodesDataset, versions: Record<string, string[]>): EmojiData {
  const all: Emoji[] = [];
  const byCode = new Map<string, Emoji>();
  const notDrawn = new Set(versionsNotDrawn().flatMap((v) => versions[v] ?? []));
  const sorted = compact
    .filter((e) => e.group !== undefined && GROUPS[e.group] && e.order !== undefined && !notDrawn.has(e.hexcode))
    .sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  for (const e of sorted) {
    const codes = shortcodes[e.hexcode] ?? [];
    const emoji: Emoji = {
      char: e.unicode,
      name: e.label,
      codes: Array.isArray(codes) ? codes : [codes],
      group: e.group as number,
      words: [e.label, ...(e.tags ?? [])].join(' ').toLowerCase(),
    };
    all.push(emoji);
    for (const code of emoji.codes) if (!byCode.has(code)) byCode.set(code, emoji);
  }
  return { all, byCode };
}

let loading: Promise<EmojiData> | null = null;
let loaded: EmojiData | null = null;

/**
 * Emojibase's data (1,900 emoji, ~100 KB gzipped, less those this browser cannot draw: emoji-support.ts), fetched as chunks of their own on first use (the first ":sm"
 * typed, or the picker opened), never with the shell or the page screen. Once: later calls share the promise.
 */
export function loadEmojis(): Promise<EmojiData> {
  if (!loading) {
    loading = Promise.all([
      import('emojibase-data/en/compact.json'),
      import('emojibase-data/en/shortcodes/github.json'),
      import('emojibase-data/versions/emoji.json'),
    ]).then(([compact, codes, versions]) => (loaded = build(compact.default, codes.default, versions.default)));
    loading.catch(() => {
      loading = null; // a failed fetch (offline) is tried again on the next use
    });
  }
  return loading;
}

/** The data if it has arrived (for the `:smile:` input rule, which cannot wait). */
export const emojisIfLoaded = () => loaded;

export interface EmojiMatch {
  emoji: Emoji;
  /** The shortcode that matched (or the usual one). */
  code?: string;
}

/**
 * Emoji for a query, best first: a shortcode equal to it, then starting with it, then containing it; with `byWords`
 * (the picker), also those whose name or tags hold it. Ties keep Unicode's order.
 */
export function searchEmojis(data: EmojiData, query: string, limit: number, byWords = false): EmojiMatch[] {
  const q = query.trim().toLowerCase().replace(/^:|:$/g, '');
  if (!q) return [];
  const ranked: { rank: number; i: number; match: EmojiMatch }[] = [];
  data.all.forEach((emoji, i) => {
    let rank = 9;
    let code: string | undefined;
    for (const c of emoji.codes) {
      const r = c === q ? 0 : c.startsWith(q) ? 1 : c.includes(q) ? 2 : 9;
      if (r < rank) [rank, code] = [r, c];
    }
    if (rank === 9 && byWords && emoji.words.includes(q)) rank = 3;
    if (rank < 9) ranked.push({ rank, i, match: { emoji, code: code ?? emoji.codes[0] } });
  });
  return ranked
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .slice(0, limit)
    .map((r) => r.match);
}

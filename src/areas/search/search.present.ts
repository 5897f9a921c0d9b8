import type { RankedRow } from './search.repo.js';

export interface SearchResult {
  type: 'page' | 'task';
  id: string;
  title: string;
  snippet: string;
  score: number;
  spaceId: string | null;
  updatedAt: string;
  icon: string | null;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * The snippet as safe HTML: the text escaped, the matches wrapped in `<mark>…</mark>`. ts_headline marks matches
 * with control characters (removed from the text beforehand), so no text can forge a mark; `<` and `>` travel
 * as two more control characters, since ts_headline would drop anything that looks like a tag.
 */
export function snippetHtml(headline: string | null): string {
  if (!headline) return '';
  const escaped = headline
    .replace(/[&<>"']/g, (c) => ESCAPES[c])
    .replace(/\s+/g, ' ')
    .trim();
  return escaped.replaceAll('\u0001', '<mark>').replaceAll('\u0002', '</mark>').replaceAll('\u0003', '&lt;').replaceAll('\u0004', '&gt;');
}

export function presentResult(row: RankedRow): SearchResult {
  return {
    type: row.type,
    id: row.id,
    title: row.title,
    snippet: snippetHtml(row.snippet),
    score: Math.round(row.score * 1e4) / 1e4,
    spaceId: row.spaceId,
    updatedAt: row.updatedAt.toISOString(),
    icon: row.icon ?? null,
  };
}

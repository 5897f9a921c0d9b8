import type { ParsedQuery } from './search.parse.js';
import { prefixQuery, tsLexeme } from './search.parse.js';
import type { Analysis, CollectionStats, RankPlan, RankTerm } from './search.repo.js';

/**
 * Turns the parsed and analysed query into ranked terms: one per distinct lexeme (weighted by how often the query uses
 * it), the unfinished word as a prefix.
 */
export function buildPlan(parsed: ParsedQuery, a: Analysis): RankPlan {
  const terms: RankTerm[] = [];
  let prefixUsed = false;
  const usePrefix = parsed.prefix !== null && !a.prefixIsStopWord;
  a.lexemes.forEach((lexeme, i) => {
    const uses = a.counts[i] ?? 1;
    if (usePrefix && !prefixUsed && lexeme === a.prefixStem) {
      terms.push(prefixTerm(parsed.prefix as string, lexeme, uses));
      prefixUsed = true;
    } else terms.push({ query: tsLexeme(lexeme), operands: 1, uses, lexemes: [lexeme], prefixes: [] });
  });
  if (usePrefix && !prefixUsed) terms.push(prefixTerm(parsed.prefix as string, a.prefixStem, 1));
  return { terms, phrases: a.phrases, excluded: a.excluded };
}

function prefixTerm(raw: string, stem: string | null, uses: number): RankTerm {
  const { query, lexemes, prefixes } = prefixQuery(raw, stem);
  return { query, operands: query.split(' | ').length, uses, lexemes, prefixes };
}

/** Most terms a query ranks with: each adds to the cost of scoring every candidate. */
export const MAX_TERMS = 32;

/**
 * A long query (a pasted paragraph, a long question) ranks with its `MAX_TERMS` rarest terms, in query order: the
 * words found in fewest documents tell most about what is wanted; "the first 32 words" would keep the ones that
 * happen to come first, often the setting of a question rather than its point. A word in no document can change no
 * score: it goes last.
 */
export function keepRarest(plan: RankPlan, stats: CollectionStats): { plan: RankPlan; stats: CollectionStats } {
  if (plan.terms.length <= MAX_TERMS) return { plan, stats };
  const kept = plan.terms
    .map((_, i) => i)
    .sort((x, y) => rarity(stats.df[x]) - rarity(stats.df[y]) || x - y)
    .slice(0, MAX_TERMS)
    .sort((x, y) => x - y);
  return { plan: { ...plan, terms: kept.map((i) => plan.terms[i]) }, stats: { ...stats, df: kept.map((i) => stats.df[i]) } };
}

const rarity = (df: number) => (df > 0 ? df : Number.POSITIVE_INFINITY);

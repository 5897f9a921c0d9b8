import type { ParsedQuery } from './search.parse.js';
import { prefixQuery, tsLexeme } from './search.parse.js';
import type { Analysis, RankPlan, RankTerm } from './search.repo.js';

/** Turns the parsed and analysed query into ranked terms: one per distinct lexeme, the unfinished word as a prefix. */
export function buildPlan(parsed: ParsedQuery, a: Analysis): RankPlan {
  const terms: RankTerm[] = [];
  let prefixUsed = false;
  const usePrefix = parsed.prefix !== null && !a.prefixIsStopWord;
  for (const lexeme of a.lexemes) {
    if (usePrefix && !prefixUsed && lexeme === a.prefixStem) {
      terms.push(prefixTerm(parsed.prefix as string, lexeme));
      prefixUsed = true;
    } else terms.push({ query: tsLexeme(lexeme), operands: 1, lexemes: [lexeme], prefixes: [] });
  }
  if (usePrefix && !prefixUsed) terms.push(prefixTerm(parsed.prefix as string, a.prefixStem));
  return { terms: terms.slice(0, 32), phrases: a.phrases, excluded: a.excluded };
}

function prefixTerm(raw: string, stem: string | null): RankTerm {
  const { query, lexemes, prefixes } = prefixQuery(raw, stem);
  return { query, operands: query.split(' | ').length, lexemes, prefixes };
}

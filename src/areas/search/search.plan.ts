import type { ParsedQuery } from './search.parse.js';
import { prefixQuery, tsLexeme } from './search.parse.js';

/*
 * Query planning, in pure functions: the analysed query's ranked terms (`buildPlan`, `keepRarest`), the ranking
 * constants, and where candidates come from (`candidatePlan`). search.repo runs the SQL these plans describe.
 */

/** The analysed query: lexemes from PostgreSQL's `english` configuration, in query order. */
export interface Analysis {
  /** Free-text and phrase lexemes, first position first, without duplicates. */
  lexemes: string[];
  /** How many times the query uses each of `lexemes` (a question that says "retrieval" three times is about it). */
  counts: number[];
  /** The stem of the unfinished last word (null when it is a stop word or there is none). */
  prefixStem: string | null;
  /** True when the unfinished word is a stop word ("the"): it is then left out entirely. */
  prefixIsStopWord: boolean;
  /** Each required phrase as a tsquery text (`'point' <-> 'time' <-> 'recoveri'`). */
  phrases: string[];
  /** Excluded words and phrases as tsquery texts. */
  excluded: string[];
}

/** One ranked term: a tsquery text (one lexeme, or alternatives for an unfinished word). */
export interface RankTerm {
  query: string;
  /** Number of operands in `query` (ts_rank divides by it; we multiply back). */
  operands: number;
  /** How many times the query uses the term: its weight in the score (query term frequency, as BM25 sums it). */
  uses: number;
  /** The lexemes it matches whole, and the prefixes it matches (for the term statistics). */
  lexemes: string[];
  prefixes: string[];
}

export interface RankPlan {
  terms: RankTerm[];
  phrases: string[];
  excluded: string[];
}

export interface CollectionStats {
  docs: number;
  avgLength: number;
  df: number[];
}

/** Ranking constants: BM25's k1 and b, and how much a title occurrence counts against a body one (BM25F). */
export const RANKING = {
  k1: 1.2,
  b: 0.75,
  titleWeight: 2.5,
  /** Share of the score that depends on covering the query's (idf-weighted) words: coordination. */
  coverage: 0.3,
  /** Weight of a pair of neighbouring query words found close together (cover density), per pair. */
  proximity: 0.25,
  /**
   * Pseudo-relevance feedback (RM3 re-ranking the candidates, `feedbackSql`): the words most used by the `docs` best
   * documents, `terms` of them, join the query with `weight` of the score, for queries of `minTerms` terms or more (one
   * or two words name what is wanted: feedback would drift from it). It re-ranks the best `depth` × limit candidates
   * (at least 30). A feedback document of more than `maxLexemes` distinct words (a glossary, a log dump) lends it none:
   * reading all its words would cost more than the whole search, and each weighs next to nothing in the model (its
   * share is its count over its length). `weight` 0 turns it off.
   */
  feedback: { docs: 10, terms: 20, weight: 0.3, minTerms: 3, depth: 3, maxLexemes: 5000 },
};

/**
 * Most documents scored per query (per table): bounds the cost of a query made of common words. Below it (all the
 * documents matching any query word, or the rarest words' documents) the ranking is exact.
 */
export const CANDIDATE_BUDGET = 200;

/**
 * The budgets in force: `budget` for the exact and rarest-words plans, `tier` for the documents read beyond them
 * (see `candidatePlan`). Benches lift them to measure exact ranking: `Object.assign(CANDIDATES, { budget: Infinity, tier: Infinity })`.
 */
export const CANDIDATES = { budget: CANDIDATE_BUDGET, tier: 120 };

/** How many of the most recently edited pages title suggestions look at first. */
export const RECENT_TITLES = 500;

export interface CandidateTier {
  /** tsquery text the documents must match. */
  query: string;
  /** Match the title only (through the title index). */
  title: boolean;
  limit: number;
}

/** The candidate tiers of a query and how many documents they may give in all. */
export interface CandidatePlan {
  tiers: CandidateTier[];
  limit: number;
}

/** How many of the rarest whole words the coordination tiers look at (at most 10 conjunctions a tier). */
const COORDINATED_WORDS = 5;

/**
 * Where candidates come from (the "common terms" idea, then coordination levels), read in order until the limit:
 * - every document matching any query word, when their document frequencies add up to `CANDIDATES.budget` at most
 *   (exact);
 * - else the documents of the rarest words whose frequencies add up to the budget (the drivers), then documents
 *   without any of them that contain most of the other words: all of the (up to 5) rarest other words, then all but
 *   one, down to two of them (`CANDIDATES.tier` at most in all). A relevant document often lacks the one rare word
 *   of a question ("dielectric") but has most of its other words ("measurement", "liquids", "microwave").
 * - else (even the rarest word is that common): documents with the rarest word in the title, then the same
 *   coordination levels over the (up to 5) rarest words, then documents with the rarest word, `CANDIDATES.tier` in
 *   all. An unfinished word (prefix) then only scores: expanding a common prefix through the index costs more than
 *   the rest of the query.
 * Each level excludes the levels above it, so no document is read twice.
 */
export function candidatePlan(plan: RankPlan, df: number[]): CandidatePlan {
  // The smallest query matching the same documents: prefixes that another prefix covers add nothing.
  const q = (i: number) => {
    const t = plan.terms[i];
    return `(${[...t.prefixes.map((p) => tsLexeme(p, true)), ...t.lexemes.map((l) => tsLexeme(l))].join(' | ')})`;
  };
  const tier = finiteLimit(CANDIDATES.tier);
  const order = plan.terms.map((_, i) => i).sort((x, y) => df[x] - df[y] || x - y);
  const drivers: number[] = [];
  let budget = 0;
  for (const i of order) {
    if (budget + df[i] > CANDIDATES.budget) break;
    drivers.push(i);
    budget += df[i];
  }
  const whole = order.filter((i) => !plan.terms[i].prefixes.length);
  if (drivers.length) {
    const driversQuery = drivers.map(q).join(' | ');
    const tiers: CandidateTier[] = [{ query: driversQuery, title: false, limit: finiteLimit(CANDIDATES.budget) }];
    const rest = whole.filter((i) => !drivers.includes(i)).slice(0, COORDINATED_WORDS);
    for (const level of coordinationLevels(rest.map(q), 2)) tiers.push({ query: `${level} & !(${driversQuery})`, title: false, limit: tier });
    return { tiers, limit: tiers.length > 1 ? finiteLimit(CANDIDATES.budget + CANDIDATES.tier) : finiteLimit(CANDIDATES.budget) };
  }
  const anchors = (whole.length ? whole : order).slice(0, COORDINATED_WORDS);
  const tiers: CandidateTier[] = [{ query: q(anchors[0]), title: true, limit: finiteLimit(CANDIDATES.tier / 2) }];
  for (const level of coordinationLevels(anchors.map(q), 1)) tiers.push({ query: level, title: false, limit: tier });
  // The last level (1) is any of the words: only the rarest one is worth reading.
  tiers[tiers.length - 1].query = `${q(anchors[0])}${anchors.length > 1 ? ` & !(${atLeast(anchors.map(q), 2)})` : ''}`;
  return { tiers, limit: tier };
}

/** A tsquery matching documents with at least `n` of `words` (each a tsquery text). */
function atLeast(words: string[], n: number): string {
  const out: string[] = [];
  const pick = (from: number, chosen: string[]) => {
    if (chosen.length === n) out.push(chosen.length > 1 ? `(${chosen.join(' & ')})` : chosen[0]);
    else for (let i = from; i <= words.length - (n - chosen.length); i++) pick(i + 1, [...chosen, words[i]]);
  };
  pick(0, []);
  return out.join(' | ');
}

/** Coordination levels, most words first: documents with all `words`, then exactly one fewer, down to `lowest`. */
function coordinationLevels(words: string[], lowest: number): string[] {
  const levels: string[] = [];
  for (let n = words.length; n >= lowest && n >= 1; n--)
    levels.push(n === words.length ? `(${atLeast(words, n)})` : `(${atLeast(words, n)}) & !(${atLeast(words, n + 1)})`);
  return levels;
}

/** A SQL limit for a budget (a lifted budget, `Infinity`, reads everything). */
const finiteLimit = (n: number) => (Number.isFinite(n) ? Math.floor(n) : 2 ** 31 - 1);

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

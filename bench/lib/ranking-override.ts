import { RANKING } from '../../src/areas/search/search.plan.js';

/**
 * `SEARCH_BENCH_RANKING='{"feedback":{"docs":10,"terms":20,"weight":0.2,"minTerms":3}}'` tries other ranking constants
 * in the relevance benches (merged into `RANKING`, one level deep). Returns what it changed, for the bench's header.
 */
export function rankingFromEnv(): string | undefined {
  const raw = process.env.SEARCH_BENCH_RANKING;
  if (!raw) return undefined;
  const change = JSON.parse(raw) as Partial<typeof RANKING>;
  for (const [key, value] of Object.entries(change) as [keyof typeof RANKING, unknown][])
    Object.assign(RANKING, { [key]: value && typeof value === 'object' ? { ...(RANKING[key] as object), ...value } : value });
  return JSON.stringify(RANKING);
}

import type { Config } from '../../config.js';
import type { Db } from '../../db/index.js';
import { type Embedder, embedderFor } from '../../embeddings/index.js';
import { fuse } from '../knowledge/knowledge.fusion.js';
import { nearestPages } from '../knowledge/knowledge.service.js';
import type { CollectionStats, RankPlan } from './search.plan.js';
import type { RankedRow, SearchScope } from './search.repo.js';
import { searchRepo } from './search.repo.js';

/**
 * Reciprocal rank fusion of the full-text ranking with the pages nearest in meaning (the knowledge index's
 * vectors). k = 10 lets the first ranks of each list count; the vector list weighs half the full-text one, so meaning
 * reorders and completes the words' ranking rather than replacing it. Chosen on CACM, Cranfield and CISI with the
 * offline encoder, NPL held out (docs/search.md). Only pages at least `floor` times as similar as the nearest one take
 * part: a query whose words few pages share must not be padded with pages merely less far than the rest.
 */
export const HYBRID = { k: 10, vectorWeight: 0.5, depth: 30, floor: 0.8 };

/** What a hybrid search needs: the embedder of the knowledge index, how long to wait for it, where to say it failed. */
export interface HybridSearch {
  embedder: Embedder;
  timeoutMs: number;
  log?: { warn(obj: object, msg?: string): void };
}

/** The hybrid settings for this configuration, or undefined when searches are full text only (`SEARCH_HYBRID`). */
export function hybridSearch(config: Config, log?: HybridSearch['log']): HybridSearch | undefined {
  const on = config.SEARCH_HYBRID === 'on' || (config.SEARCH_HYBRID === 'auto' && Boolean(config.EMBEDDINGS_URL));
  return on ? { embedder: embedderFor(config), timeoutMs: config.SEARCH_HYBRID_TIMEOUT_MS, log } : undefined;
}

/**
 * Free-text queries of two or more words over pages: meaning helps questions. A phrase or an exclusion is a
 * constraint the vectors cannot honour, and one word (or tasks only) is left to full text.
 */
export function hybridApplies(plan: RankPlan, scope: SearchScope): boolean {
  return scope.types.includes('page') && plan.terms.length >= 2 && !plan.phrases.length && !plan.excluded.length;
}

/**
 * The full-text ranking (deeper than asked, without snippets) fused with the nearest pages, then read back with
 * snippets and the access filters again. The query's vector is computed while full text ranks; when it fails or takes
 * longer than `timeoutMs`, or no page has a vector, the answer is full text alone.
 */
export async function hybridRank(
  db: Db,
  scope: SearchScope,
  plan: RankPlan,
  stats: CollectionStats,
  query: string,
  limit: number,
  hybrid: HybridSearch,
): Promise<RankedRow[]> {
  const vector = hybrid.embedder.embed([query], AbortSignal.timeout(hybrid.timeoutMs)).then(
    ([v]) => v,
    (err) => {
      hybrid.log?.warn({ err }, 'embedding the search query failed; full-text results only');
      return null;
    },
  );
  const depth = Math.max(HYBRID.depth, limit);
  const lexical = await searchRepo.rank(db, scope, plan, stats, depth, { snippets: false });
  const v = await vector;
  const found = v ? await nearestPages(db, scope, v, hybrid.embedder.model, depth) : [];
  const nearest = found.filter((p) => p.similarity > 0 && p.similarity >= HYBRID.floor * found[0].similarity);
  const ranked = nearest.length
    ? fuse([lexical, nearest], limit, { k: HYBRID.k, weights: [1, HYBRID.vectorWeight] }).map((f) => ({ type: f.type, id: f.id, score: f.similarity }))
    : lexical.slice(0, limit);
  return searchRepo.resultRows(db, scope, plan, ranked);
}

/** Reciprocal rank fusion's constant: the usual 60 (Cormack et al. 2009). */
export const RRF_K = 60;

/** A ranked item of one list: its kind and id (the score is not used, only the rank). */
export interface Ranked<T extends string> {
  type: T;
  id: string;
}

export interface Fused<T extends string = 'page' | 'memory'> {
  type: T;
  id: string;
  /** The fused score scaled to 0..1: 1 is first in every list that was used. */
  similarity: number;
}

export interface FuseOptions {
  /** The rank constant (default `RRF_K`): smaller lets the first ranks of each list count more. */
  k?: number;
  /** Each list's weight, in order (default 1 each). */
  weights?: number[];
}

/**
 * Reciprocal rank fusion: each list gives a document `weight / (k + rank)`; the sum, divided by what a document first
 * in every list would get, is reported as `similarity` (0..1, best first). Ties keep the order of the first list.
 */
export function fuse<T extends string>(lists: Ranked<T>[][], limit: number, { k = RRF_K, weights = [] }: FuseOptions = {}): Fused<T>[] {
  const used = lists.map((list, i) => ({ list, weight: weights[i] ?? 1 })).filter((l) => l.list.length > 0);
  if (!used.length) return [];
  const best = used.reduce((a, l) => a + l.weight, 0) / (k + 1);
  const scores = new Map<string, { type: T; id: string; score: number; first: number }>();
  let order = 0;
  for (const { list, weight } of used)
    list.forEach((c, i) => {
      const key = `${c.type}:${c.id}`;
      const entry = scores.get(key) ?? { type: c.type, id: c.id, score: 0, first: order++ };
      entry.score += weight / (k + i + 1);
      scores.set(key, entry);
    });
  return [...scores.values()]
    .sort((a, b) => b.score - a.score || a.first - b.first)
    .slice(0, limit)
    .map((e) => ({ type: e.type, id: e.id, similarity: Math.round((e.score / best) * 10_000) / 10_000 }));
}

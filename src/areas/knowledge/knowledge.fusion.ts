import type { Candidate } from './knowledge.repo.js';

/** Reciprocal rank fusion's constant: the usual 60 (Cormack et al. 2009). */
export const RRF_K = 60;

export interface Fused {
  type: 'page' | 'memory';
  id: string;
  /** The fused score scaled to 0..1: 1 is first in every list that was used. */
  similarity: number;
}

/**
 * Reciprocal rank fusion: each list gives a document `1 / (k + rank)`; the sum, divided by what a document first in
 * every list would get, is reported as `similarity` (0..1, best first). Ties keep the order of the first list.
 */
export function fuse(lists: Candidate[][], limit: number): Fused[] {
  const used = lists.filter((l) => l.length > 0);
  if (!used.length) return [];
  const best = used.length / (RRF_K + 1);
  const scores = new Map<string, { type: 'page' | 'memory'; id: string; score: number; first: number }>();
  let order = 0;
  for (const list of used)
    list.forEach((c, i) => {
      const key = `${c.type}:${c.id}`;
      const entry = scores.get(key) ?? { type: c.type, id: c.id, score: 0, first: order++ };
      entry.score += 1 / (RRF_K + i + 1);
      scores.set(key, entry);
    });
  return [...scores.values()]
    .sort((a, b) => b.score - a.score || a.first - b.first)
    .slice(0, limit)
    .map((e) => ({ type: e.type, id: e.id, similarity: Math.round((e.score / best) * 10_000) / 10_000 }));
}

import type { ResearchReportSource } from '../../../db/tables/research.js';
import { bm25, passagesOf, terms } from '../research.text.js';
import type { FoundDocument } from '../sources/source.js';

/** A passage kept for the report, with the number of the source it cites. */
export interface KeptPassage {
  source: number;
  text: string;
  score: number;
}

export interface Selection {
  passages: KeptPassage[];
  /** Numbered from 1 in citation order (the most relevant source first). */
  sources: (ResearchReportSource & { key: string })[];
}

const PASSAGES_PER_DOCUMENT = 200;

/**
 * Splits every document into passages, ranks them all together by BM25 against the topic (a document's title
 * counts for each of its passages), keeps the best `perDocument` of each document and the best `total` overall.
 * Sources are numbered by their best passage. Relevance (0..1) blends the best passage's score against the
 * best of all with the share of the topic's words the document contains.
 */
export function selectPassages(documents: FoundDocument[], topic: string, opts: { perDocument: number; total: number }): Selection {
  const topicTerms = [...new Set(terms(topic))];
  const pool: { doc: number; text: string; terms: string[] }[] = [];
  documents.forEach((d, i) => {
    const titleTerms = terms(d.title);
    for (const text of passagesOf(d.text).slice(0, PASSAGES_PER_DOCUMENT)) pool.push({ doc: i, text, terms: [...titleTerms, ...terms(text)] });
  });
  const scores = bm25(
    pool.map((p) => p.terms),
    topicTerms,
  );
  const byDoc = new Map<number, { text: string; score: number }[]>();
  pool.forEach((p, i) => {
    if (scores[i] <= 0) return;
    const list = byDoc.get(p.doc) ?? [];
    list.push({ text: p.text, score: scores[i] });
    byDoc.set(p.doc, list);
  });
  const kept: { doc: number; text: string; score: number }[] = [];
  for (const [doc, list] of byDoc) for (const p of list.sort((a, b) => b.score - a.score).slice(0, opts.perDocument)) kept.push({ doc, ...p });
  kept.sort((a, b) => b.score - a.score || a.doc - b.doc);
  const top = kept.slice(0, opts.total);
  if (!top.length) return { passages: [], sources: [] };

  const best = new Map<number, number>();
  for (const p of top) best.set(p.doc, Math.max(best.get(p.doc) ?? 0, p.score));
  const max = Math.max(...best.values());
  const order = [...best.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([doc]) => doc);
  const number = new Map(order.map((doc, i) => [doc, i + 1]));
  const sources = order.map((doc) => {
    const d = documents[doc];
    const docTerms = new Set(terms(`${d.title} ${d.text.slice(0, 200_000)}`));
    const coverage = topicTerms.length ? topicTerms.filter((t) => docTerms.has(t)).length / topicTerms.length : 1;
    const relevance = Math.round((0.5 * ((best.get(doc) as number) / max) + 0.5 * coverage) * 100) / 100;
    return { key: d.key, type: d.kind === 'web' ? ('web' as const) : ('doc' as const), kind: d.kind, title: d.title, url: d.url, relevance };
  });
  return { passages: top.map((p) => ({ source: number.get(p.doc) as number, text: p.text, score: p.score })), sources };
}

import { bm25, sentences, terms, words } from '../research.text.js';
import { inline, type WriterInput, type WrittenReport } from './markdown.js';

interface Sentence {
  text: string;
  source: number;
  terms: string[];
  score: number;
}

const SIZES = {
  brief: { summary: 3, findings: 5, themes: 0, perTheme: 0 },
  longform: { summary: 5, findings: 8, themes: 5, perTheme: 4 },
};

const MAX_SENTENCE = 400;

function clip(text: string): string {
  if (text.length <= MAX_SENTENCE) return text;
  const cut = text.slice(0, MAX_SENTENCE);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 200 ? cut.lastIndexOf(' ') : MAX_SENTENCE)}…`;
}

function cosine(a: Map<string, number>, b: Map<string, number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [k, v] of a) {
    na += v * v;
    const w = b.get(k);
    if (w) dot += v * w;
  }
  for (const v of b.values()) nb += v * v;
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

const tf = (list: string[]) => {
  const m = new Map<string, number>();
  for (const t of list) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
};

function jaccard(a: string[], b: string[]): number {
  const A = new Set(a);
  const B = new Set(b);
  let inter = 0;
  for (const x of A) if (B.has(x)) inter++;
  return A.size + B.size ? inter / (A.size + B.size - inter) : 0;
}

/**
 * The service's own report: sentences scored by relevance to the topic (BM25) and centrality (similarity to the
 * centroid of everything kept, as in centroid summarisation); the summary is the best few, key findings the next,
 * and (longform) sections group the passages by their dominant theme word. Every statement cites its source [n].
 */
export function writeExtractive({ topic, mode, selection }: WriterInput): WrittenReport {
  const size = SIZES[mode];
  if (!selection.passages.length) {
    const summary = `No material on “${topic}” was found in the searched sources.`;
    return { summary, body: `## Summary\n\n${summary}` };
  }
  const all: Sentence[] = [];
  for (const p of selection.passages)
    for (const s of sentences(p.text)) {
      const t = terms(s);
      // A heading or a title line is not a statement.
      if (t.length >= 3 && (s.split(/\s+/).length >= 5 || /[.!?]$/.test(s))) all.push({ text: clip(s), source: p.source, terms: t, score: 0 });
    }
  // Passages too short for a sentence still speak: take them whole.
  if (!all.length) for (const p of selection.passages) all.push({ text: clip(p.text.replace(/\s+/g, ' ')), source: p.source, terms: terms(p.text), score: 0 });
  const rel = bm25(
    all.map((s) => s.terms),
    terms(topic),
  );
  const centroid = tf(all.flatMap((s) => s.terms));
  const maxRel = Math.max(...rel, 1e-9);
  all.forEach((s, i) => {
    s.score = 0.6 * (rel[i] / maxRel) + 0.4 * cosine(tf(s.terms), centroid);
  });
  // A statement must say something about the topic: sentences without any of its words are left out.
  const relevant = all.filter((_, i) => rel[i] > 0);
  const ranked = (relevant.length ? relevant : all).sort((a, b) => b.score - a.score || a.source - b.source);
  const used: Sentence[] = [];
  const pick = (from: Sentence[], n: number) => {
    const out: Sentence[] = [];
    for (const s of from) {
      if (out.length >= n) break;
      if (used.some((u) => u.text === s.text || jaccard(u.terms, s.terms) > 0.6)) continue;
      out.push(s);
      used.push(s);
    }
    return out;
  };
  // The citation goes before the sentence's closing punctuation: "… one command [2]."
  const cite = (s: Sentence) => {
    const text = inline(s.text);
    const end = /[.!?…]$/.exec(text)?.[0] ?? '.';
    return `${text.replace(/[.!?…]$/, '')} [${s.source}]${end}`;
  };
  const summarySentences = pick(ranked, size.summary);
  const summary = summarySentences.map(cite).join(' ');
  const findings = pick(ranked, size.findings);
  const parts = [`## Summary\n\n${summary}`];
  if (findings.length) parts.push(`## Key findings\n\n${findings.map((s) => `- ${cite(s)}`).join('\n')}`);

  if (size.themes) {
    const sections = themeSections(topic, selection.passages, size.themes);
    for (const section of sections) {
      const candidates = ranked.filter((s) => section.passages.has(s.source) && section.stems.some((st) => s.terms.includes(st)));
      const chosen = pick(candidates, size.perTheme);
      if (chosen.length) parts.push(`### ${section.title}\n\n${chosen.map(cite).join(' ')}`);
    }
    if (parts.length > 2) parts.splice(2, 0, '## Findings by theme');
  }
  return { summary, body: parts.join('\n\n') };
}

/**
 * Themes: the words (not in the topic) that carry most weight across the kept passages, each passage assigned to
 * the theme word it uses most. Returns at most `max` themes that gather some passage, with the sources they cover.
 */
function themeSections(topic: string, passages: WriterInput['selection']['passages'], max: number) {
  const topicStems = new Set(terms(topic));
  const df = new Map<string, number>();
  const surface = new Map<string, Map<string, number>>();
  const passageTf = passages.map((p) => {
    const counts = new Map<string, number>();
    for (const w of words(p.text)) {
      if (topicStems.has(w.stem) || w.surface.length < 4) continue;
      counts.set(w.stem, (counts.get(w.stem) ?? 0) + 1);
      const s = surface.get(w.stem) ?? new Map<string, number>();
      s.set(w.surface, (s.get(w.surface) ?? 0) + 1);
      surface.set(w.stem, s);
    }
    for (const k of counts.keys()) df.set(k, (df.get(k) ?? 0) + 1);
    return counts;
  });
  // A theme recurs across passages (df ≥ 2) but is not everywhere.
  const candidates = [...df.entries()]
    .filter(([, n]) => n >= 2 && (passages.length < 4 || n < passages.length))
    .map(([stem, n]) => ({ stem, weight: n * Math.log(1 + passages.length / n) }))
    .sort((a, b) => b.weight - a.weight || a.stem.localeCompare(b.stem))
    .slice(0, max * 2)
    .map((c) => c.stem);
  const groups = new Map<string, Set<number>>();
  passageTf.forEach((counts, i) => {
    let bestStem: string | null = null;
    let bestCount = 0;
    for (const stem of candidates) {
      const c = counts.get(stem) ?? 0;
      if (c > bestCount) {
        bestStem = stem;
        bestCount = c;
      }
    }
    if (!bestStem) return;
    const g = groups.get(bestStem) ?? new Set<number>();
    g.add(passages[i].source);
    groups.set(bestStem, g);
  });
  return candidates
    .filter((stem) => groups.has(stem))
    .slice(0, max)
    .map((stem) => {
      const word = [...(surface.get(stem) as Map<string, number>).entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0][0];
      return { title: word.charAt(0).toUpperCase() + word.slice(1), stems: [stem], passages: groups.get(stem) as Set<number> };
    });
}

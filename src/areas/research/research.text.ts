/**
 * Text handling shared by the sources and the report writer: words, passages, sentences, and BM25 relevance of
 * passages to the topic. Plain and deterministic: the same input ranks the same way.
 */

const STOP = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between both but by can could ' +
    'did do does doing down during each few for from further had has have having he her here hers him his how i if in into is it its itself ' +
    'just me more most my no nor not now of off on once only or other our ours out over own same she should so some such than that the their ' +
    'theirs them then there these they this those through to too under until up very was we were what when where which while who whom why will ' +
    'with would you your yours via per use used using one two new may might must shall e g ie eg etc'
  ).split(' '),
);

/** A light English stem: enough to match "databases" with "database" and "caching" with "cache". */
export function stem(word: string): string {
  if (word.length <= 4) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ing') && word.length > 6) return word.slice(0, -3);
  if (word.endsWith('ed') && word.length > 5) return word.slice(0, -2);
  if (word.endsWith('es') && /(ch|sh|x|z)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is')) return word.slice(0, -1);
  return word;
}

/** Words of a text, lower-cased, without stop words, as [surface, stem] pairs. */
export function words(text: string): { surface: string; stem: string }[] {
  const out: { surface: string; stem: string }[] = [];
  for (const m of text
    .normalize('NFKC')
    .toLowerCase()
    .matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu)) {
    const w = m[0].replace(/['’].*$/, '');
    if (w.length < 2 || w.length > 40 || STOP.has(w) || /^\d+$/.test(w)) continue;
    out.push({ surface: w, stem: stem(w) });
  }
  return out;
}

export const terms = (text: string) => words(text).map((w) => w.stem);

/** Sentences of a passage (a sentence ends at . ! ? followed by space and a capital or digit, or at a line end). */
export function sentences(text: string): string[] {
  return text
    .split(/\n+/)
    .flatMap((line) => line.split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"“(])/u))
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => s.length >= 20 && /\p{L}/u.test(s));
}

/** Splits a document into passages of about `target` characters at paragraph, then sentence, boundaries. */
export function passagesOf(text: string, target = 600): string[] {
  const paragraphs = text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n|\n(?=\s*[-*#>]|\s*\d+\.)/)
    .map((p) => p.replace(/[ \t]+/g, ' ').trim())
    .filter(Boolean);
  const out: string[] = [];
  let current = '';
  const push = () => {
    if (current.trim()) out.push(current.trim());
    current = '';
  };
  for (const p of paragraphs) {
    if (p.length > target * 1.5) {
      push();
      let chunk = '';
      for (const s of p.split(/(?<=[.!?])\s+/)) {
        if (chunk && chunk.length + s.length > target) {
          out.push(chunk.trim());
          chunk = '';
        }
        chunk += (chunk ? ' ' : '') + s.slice(0, target * 2);
      }
      if (chunk.trim()) out.push(chunk.trim());
      continue;
    }
    if (current && current.length + p.length > target) push();
    current += (current ? '\n' : '') + p;
  }
  push();
  return out;
}

/**
 * BM25 scores of each passage for the query terms, computed over this collection of passages (k1 1.2, b 0.75).
 * Query terms repeated count once; a passage with none of them scores 0.
 */
export function bm25(passageTerms: string[][], queryTerms: string[]): number[] {
  const q = [...new Set(queryTerms)];
  const n = passageTerms.length;
  if (!n || !q.length) return passageTerms.map(() => 0);
  const avg = passageTerms.reduce((s, t) => s + t.length, 0) / n || 1;
  const df = new Map<string, number>();
  const tfs = passageTerms.map((t) => {
    const tf = new Map<string, number>();
    for (const w of t) tf.set(w, (tf.get(w) ?? 0) + 1);
    for (const w of q) if (tf.has(w)) df.set(w, (df.get(w) ?? 0) + 1);
    return tf;
  });
  return tfs.map((tf, i) => {
    let score = 0;
    for (const w of q) {
      const f = tf.get(w);
      if (!f) continue;
      const idf = Math.log(1 + (n - (df.get(w) ?? 0) + 0.5) / ((df.get(w) ?? 0) + 0.5));
      score += (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * passageTerms[i].length) / avg));
    }
    return score;
  });
}

/**
 * Terms that recur in the best first hits but are not in the topic: the expansion of the query (pseudo-relevance
 * feedback). Returns surface forms, the most telling first.
 */
export function expansionTerms(topic: string, hitTexts: string[], max = 3): string[] {
  const topicStems = new Set(terms(topic));
  const df = new Map<string, { n: number; tf: number; surface: Map<string, number> }>();
  for (const text of hitTexts) {
    const seen = new Set<string>();
    for (const w of words(text)) {
      if (topicStems.has(w.stem) || w.surface.length < 4) continue;
      const e = df.get(w.stem) ?? { n: 0, tf: 0, surface: new Map() };
      e.tf++;
      e.surface.set(w.surface, (e.surface.get(w.surface) ?? 0) + 1);
      if (!seen.has(w.stem)) {
        e.n++;
        seen.add(w.stem);
      }
      df.set(w.stem, e);
    }
  }
  const need = hitTexts.length >= 2 ? 2 : 1;
  return [...df.entries()]
    .filter(([, e]) => e.n >= need && e.tf >= 2)
    .sort((a, b) => b[1].n - a[1].n || b[1].tf - a[1].tf || a[0].localeCompare(b[0]))
    .slice(0, max)
    .map(([, e]) => [...e.surface.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0][0]);
}

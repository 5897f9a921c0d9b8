/**
 * Relevance check: nDCG@10 of our ranker against plain BM25 rankers computed in this script, over a judged corpus.
 *   npx tsx bench/search-relevance/run.ts [--verbose]
 * Baselines (k1 = 1.2, b = 0.75, Lucene idf, over title + body tokens, any-word match):
 *   - "BM25 raw": lower-cased word tokens, no stemming, no stop words;
 *   - "BM25 en":  the same `english` analyser our index uses (stemmed, stop words dropped), token counts as length.
 * Baselines get the query with its syntax removed (quotes dropped, excluded words left out); they cannot do
 * prefixes, so the summary also shows the figures over questions and keyword queries only.
 */
import { sql } from 'kysely';
import { RANKING } from '../../src/areas/search/search.plan.js';
import { rankedSearch } from '../../src/areas/search/search.service.js';
import { migrateToLatest, openDatabase } from '../../src/db/index.js';
import { rankingFromEnv } from '../lib/ranking-override.js';
import { bm25Index, englishTf, ndcg10, seedCorpus } from './bm25.js';
import { buildCorpus } from './corpus.js';
import { type Category, QUERIES } from './queries.js';

const verbose = process.argv.includes('--verbose');
const overridden = rankingFromEnv();

const rawTokens = (text: string) => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) as string[];

/** The query as a plain ranker sees it: words only, excluded words left out. */
function plainQuery(q: string): string {
  return q
    .replace(/(^|\s)-"[^"]*"/g, ' ')
    .replace(/(^|\s)-\S+/g, ' ')
    .replace(/"/g, ' ');
}

async function main() {
  const database = await openDatabase({});
  await migrateToLatest(database.db);
  const docs = buildCorpus();
  const seeded = await seedCorpus(database, docs);
  const db = database.db;
  await sql`analyze`.execute(db);

  // Baseline indexes.
  const raw = bm25Index(docs.map((d) => ({ key: d.key, tokens: rawTokens(`${d.title} ${d.body}`) })));
  const en = bm25Index(await englishTf(database, docs));

  const scope = { workspaceId: seeded.workspaceId, userId: seeded.userId, types: ['page', 'task'] as ('page' | 'task')[] };
  const rows: { q: string; cat: Category; ours: number; raw: number; en: number }[] = [];
  for (const jq of QUERIES) {
    const plain = plainQuery(jq.query);
    const { rows: qlex } = await sql<{ lexeme: string }>`select lexeme from unnest(to_tsvector('english', ${plain}))`.execute(db);
    const results = await rankedSearch(db, scope, jq.query, 10);
    const ours = results.map((r) => seeded.keyOf(r.id));
    const row = {
      q: jq.query,
      cat: jq.category,
      ours: ndcg10(ours, jq.judgments),
      raw: ndcg10(raw(rawTokens(plain)), jq.judgments),
      en: ndcg10(en(qlex.map((r) => r.lexeme)), jq.judgments),
    };
    rows.push(row);
    if (verbose)
      console.log(
        `${row.q}\n  ${results
          .slice(0, 6)
          .map((r) => `${seeded.keyOf(r.id)} ${r.score.toFixed(2)}`)
          .join(', ')}`,
      );
  }
  // Ablations: our ranker with one ingredient removed at a time (same queries, same data).
  const base = { ...RANKING };
  const variants: [string, Partial<typeof RANKING>][] = [
    ['no title weight (titleWeight 1)', { titleWeight: 1 }],
    ['no coverage bonus', { coverage: 0 }],
    ['no proximity bonus', { proximity: 0 }],
    ['no pseudo-relevance feedback', { feedback: { ...RANKING.feedback, weight: 0 } }],
    ['plain BM25 core (all four off)', { titleWeight: 1, coverage: 0, proximity: 0, feedback: { ...RANKING.feedback, weight: 0 } }],
  ];
  const ablations: [string, number, number][] = [];
  for (const [label, change] of variants) {
    Object.assign(RANKING, base, change);
    const scores: number[] = [];
    for (const jq of QUERIES.filter((q) => q.category === 'question' || q.category === 'keywords')) {
      const results = await rankedSearch(db, scope, jq.query, 10);
      scores.push(
        ndcg10(
          results.map((r) => seeded.keyOf(r.id)),
          jq.judgments,
        ),
      );
    }
    ablations.push([label, scores.reduce((a, x) => a + x, 0) / scores.length, scores.length]);
  }
  Object.assign(RANKING, base);
  await database.close();

  const f = (x: number) => x.toFixed(3);
  if (overridden) console.log(`ranking (SEARCH_BENCH_RANKING): ${overridden}`);
  console.log(`corpus: ${docs.length} documents (${docs.filter((d) => d.type === 'page').length} pages), ${QUERIES.length} judged queries\n`);
  console.log(`${'query'.padEnd(62)} ${'ours'.padStart(6)} ${'bm25en'.padStart(6)} ${'bm25raw'.padStart(7)}`);
  for (const r of rows) console.log(`${r.q.slice(0, 62).padEnd(62)} ${f(r.ours).padStart(6)} ${f(r.en).padStart(6)} ${f(r.raw).padStart(7)}`);
  const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / (xs.length || 1);
  const summary = (label: string, rs: typeof rows) =>
    console.log(
      `${label.padEnd(40)} n=${String(rs.length).padStart(2)}  ours ${f(mean(rs.map((r) => r.ours)))}  bm25-en ${f(mean(rs.map((r) => r.en)))}  bm25-raw ${f(mean(rs.map((r) => r.raw)))}`,
    );
  console.log('\nnDCG@10');
  for (const c of ['question', 'keywords', 'prefix', 'phrase', 'exclusion'] as Category[])
    summary(
      c,
      rows.filter((r) => r.cat === c),
    );
  summary(
    'questions + keywords (no syntax)',
    rows.filter((r) => r.cat === 'question' || r.cat === 'keywords'),
  );
  summary('all', rows);
  console.log('\nablations (questions + keywords), ours with one ingredient removed:');
  for (const [label, v, n] of ablations) console.log(`  ${label.padEnd(38)} n=${n}  ${f(v)}`);
}

await main();

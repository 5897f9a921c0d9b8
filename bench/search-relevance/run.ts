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
import { type Database, migrateToLatest, openDatabase } from '../../src/db/index.js';
import { newId } from '../../src/ids.js';
import { RANKING } from '../../src/areas/search/search.repo.js';
import { rankedSearch } from '../../src/areas/search/search.service.js';
import { buildCorpus, type CorpusDoc } from './corpus.js';
import { type Category, QUERIES } from './queries.js';

const K1 = 1.2;
const B = 0.75;
const verbose = process.argv.includes('--verbose');

type Tf = Map<string, number>;
interface Indexed {
  key: string;
  tf: Tf;
  len: number;
}

function bm25Index(docs: { key: string; tokens: string[] | Tf }[]) {
  const indexed: Indexed[] = docs.map((d) => {
    let tf: Tf;
    if (d.tokens instanceof Map) tf = d.tokens;
    else {
      tf = new Map();
      for (const t of d.tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    }
    let len = 0;
    for (const n of tf.values()) len += n;
    return { key: d.key, tf, len };
  });
  const df = new Map<string, number>();
  for (const d of indexed) for (const t of d.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const N = indexed.length;
  const avgdl = indexed.reduce((a, d) => a + d.len, 0) / N;
  return (queryTerms: string[]): string[] => {
    const terms = [...new Set(queryTerms)];
    const scored: { key: string; s: number }[] = [];
    for (const d of indexed) {
      let s = 0;
      for (const t of terms) {
        const f = d.tf.get(t);
        if (!f) continue;
        const n = df.get(t) ?? 0;
        const idf = Math.log(1 + (N - n + 0.5) / (n + 0.5));
        s += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * d.len) / avgdl));
      }
      if (s > 0) scored.push({ key: d.key, s });
    }
    scored.sort((a, b) => b.s - a.s || a.key.localeCompare(b.key));
    return scored.map((x) => x.key);
  };
}

const rawTokens = (text: string) => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) as string[];

/** The query as a plain ranker sees it: words only, excluded words left out. */
function plainQuery(q: string): string {
  return q
    .replace(/(^|\s)-"[^"]*"/g, ' ')
    .replace(/(^|\s)-\S+/g, ' ')
    .replace(/"/g, ' ');
}

function ndcg10(ranking: string[], judgments: Record<string, number>): number {
  const gain = (g: number) => 2 ** g - 1;
  let dcg = 0;
  ranking.slice(0, 10).forEach((k, i) => {
    dcg += gain(judgments[k] ?? 0) / Math.log2(i + 2);
  });
  const ideal = Object.values(judgments)
    .sort((a, b) => b - a)
    .slice(0, 10)
    .reduce((a, g, i) => a + gain(g) / Math.log2(i + 2), 0);
  return ideal ? dcg / ideal : 0;
}

export async function seedCorpus(database: Database, docs: CorpusDoc[]) {
  const db = database.db;
  const userId = newId();
  const workspaceId = newId();
  const spaceId = newId();
  await sql`insert into users (id, email, name) values (${userId}, ${`bench-${userId}@example.com`}, 'Bench')`.execute(db);
  await sql`insert into workspaces (id, name, hostname, settings) values (${workspaceId}, 'Bench', ${`bench-${workspaceId.slice(-8)}`}, '{}')`.execute(db);
  await sql`insert into workspace_members (workspace_id, user_id, role) values (${workspaceId}, ${userId}, 'editor')`.execute(db);
  await sql`insert into spaces (id, workspace_id, name, slug) values (${spaceId}, ${workspaceId}, 'Handbook', 'handbook')`.execute(db);
  const idOf = new Map<string, string>();
  let pos = 0;
  for (const d of docs) {
    const id = newId();
    idOf.set(id, d.key);
    if (d.type === 'page') {
      const content = JSON.stringify({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: d.body }] }] });
      await sql`insert into pages (id, workspace_id, space_id, title, slug, content, text_content, position)
        values (${id}, ${workspaceId}, ${spaceId}, ${d.title}, ${d.key}, ${content}::jsonb, ${d.body}, ${`a${String(pos++).padStart(6, '0')}`})`.execute(db);
    } else {
      await sql`insert into tasks (id, workspace_id, space_id, title, description) values (${id}, ${workspaceId}, ${spaceId}, ${d.title}, ${d.body})`.execute(
        db,
      );
    }
  }
  return { userId, workspaceId, spaceId, keyOf: (id: string) => idOf.get(id) as string };
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
  const enDocs: { key: string; tokens: Tf }[] = [];
  for (const d of docs) {
    const { rows } = await sql<{ lexeme: string; n: number }>`
      select lexeme, array_length(positions, 1) as n from unnest(to_tsvector('english', ${`${d.title} ${d.body}`}))`.execute(db);
    enDocs.push({ key: d.key, tokens: new Map(rows.map((r) => [r.lexeme, Number(r.n)])) });
  }
  const en = bm25Index(enDocs);

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
    ['plain BM25 core (all three off)', { titleWeight: 1, coverage: 0, proximity: 0 }],
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

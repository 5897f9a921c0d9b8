/**
 * Relevance on four classic judged collections (CACM, Cranfield, CISI, NPL; 17,490 documents, 446 judged queries):
 *   npx tsx bench/search-collections/run.ts [--collections cacm,npl] [--exact] [--hybrid] [--verbose] [--json <file>]
 * Each collection goes into its own workspace and space (as pages) of one fresh database: in-memory PGlite, or with
 * DATABASE_URL a new database `kb_bench_…` on that server, dropped after. Every judged query is asked in three forms:
 *   - questions: the query text as written, lower-cased (with a trailing space: every word is complete);
 *   - keywords:  its first 4 content words: words of 3+ characters (with a letter) that the `english` analyser does
 *                not drop as stop words, one per lexeme, in query order (with a trailing space);
 *   - prefix:    the keywords with the last word cut to its first 4 letters when longer than 5, without a trailing
 *                space, so our prefix matching applies (BM25 gets the same cut word).
 * Phrase and exclusion queries cannot be derived fairly from the judged queries: not measured here.
 * Reference: BM25 computed in JS ("BM25 en" of bench/search-relevance: k1 1.2, b 0.75, Lucene idf, the lexemes of
 * `to_tsvector('english', title || ' ' || body)`), over the same documents. Figures per collection and form: nDCG@10
 * (gain as judged, 2^g - 1; Cranfield graded 4..1, the others binary), MAP@100 (average precision over the first 100
 * results, divided by min(relevant, 100)) and Recall@100, for ours (`rankedSearch(…, 100)`), with --exact also ours
 * with the candidate budgets lifted ("ours exact"), and BM25; the mean over the collections (macro); the mean time of
 * our search per query. The collections' files are checked against their sha256 (see collections.ts).
 * --hybrid: also ours fused with the offline encoder's vectors ("hybrid", search.hybrid.ts, as `SEARCH_HYBRID=on`
 * runs it): the pages are indexed by the knowledge indexer first; vectors are cached under SEARCH_BENCH_VECTORS
 * (default .tmp/search-vectors/), since embedding the four collections takes the offline encoder 10–30 minutes.
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { sql } from 'kysely';
import { runIndexer } from '../../src/areas/knowledge/knowledge.indexer.js';
import { HYBRID, type HybridSearch } from '../../src/areas/search/search.hybrid.js';
import { CANDIDATES } from '../../src/areas/search/search.plan.js';
import { rankedSearch } from '../../src/areas/search/search.service.js';
import { loadConfig } from '../../src/config.js';
import { type Database, migrateToLatest, openDatabase } from '../../src/db/index.js';
import { UniversalSentenceEncoder } from '../../src/embeddings/use.js';
import { rankingFromEnv } from '../lib/ranking-override.js';
import { freshDatabase } from '../lib/target.js';
import { bm25Index, englishTf, ndcg10, type Seeded, seedCorpus } from '../search-relevance/bm25.js';
import { CachedEmbedder } from './cached-embedder.js';
import { COLLECTION_NAMES, type Collection, type CollectionName, loadCollection } from './collections.js';

const argv = process.argv.slice(2);
const arg = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const verbose = argv.includes('--verbose');
const exact = argv.includes('--exact');
const hybrid = argv.includes('--hybrid');
// SEARCH_BENCH_HYBRID='{"floor":0}' tries other fusion settings.
if (process.env.SEARCH_BENCH_HYBRID) Object.assign(HYBRID, JSON.parse(process.env.SEARCH_BENCH_HYBRID));
// SEARCH_BENCH_RANKING='{"feedback":{"weight":0}}' tries other ranking constants (bench/lib/ranking-override.ts).
const overridden = rankingFromEnv();
const jsonFile = arg('--json');
const names = (arg('--collections')
  ?.split(',')
  .map((s) => s.trim().toLowerCase()) ?? [...COLLECTION_NAMES]) as CollectionName[];
/** A clear message and exit 1 (no stack): for a wrong argument or missing collection files. */
function fail(message: string): never {
  console.error(message);
  process.exit(1);
}
for (const n of names) if (!COLLECTION_NAMES.includes(n)) fail(`unknown collection ${n} (known: ${COLLECTION_NAMES.join(', ')})`);

const CLASSES = ['questions', 'keywords', 'prefix'] as const;
type QueryClass = (typeof CLASSES)[number];
const RANKERS = ['ours', 'exact', 'hybrid', 'bm25'] as const;
type Ranker = (typeof RANKERS)[number];
const LABEL: Record<Ranker, string> = { ours: 'ours', exact: 'ours exact', hybrid: 'hybrid', bm25: 'BM25' };

interface Metrics {
  ndcg: number;
  map: number;
  recall: number;
}

/** Average precision over the first 100 results, divided by min(relevant, 100); and recall at 100. */
function apRecall100(ranking: string[], judgments: Record<string, number>): { map: number; recall: number } {
  const relevant = Object.values(judgments).filter((g) => g > 0).length;
  let hits = 0;
  let sum = 0;
  ranking.slice(0, 100).forEach((k, i) => {
    if ((judgments[k] ?? 0) > 0) {
      hits++;
      sum += hits / (i + 1);
    }
  });
  return { map: relevant ? sum / Math.min(relevant, 100) : 0, recall: relevant ? hits / relevant : 0 };
}

const metrics = (ranking: string[], judgments: Record<string, number>): Metrics => ({ ndcg: ndcg10(ranking, judgments), ...apRecall100(ranking, judgments) });

interface Asked {
  id: string;
  cls: QueryClass;
  text: string;
  judgments: Record<string, number>;
}

/** The three forms of each judged query (see the header). */
async function deriveQueries(database: Database, c: Collection): Promise<Asked[]> {
  const wordsOf = (t: string) => (t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= 3 && /\p{L}/u.test(w));
  const vocabulary = [...new Set(c.queries.flatMap((q) => wordsOf(q.text)))];
  // The english lexeme of each word (none: a stop word).
  const { rows } = await sql<{ w: string; l: string | null }>`
    select w, (select min(lexeme) from unnest(to_tsvector('english', w))) as l from unnest(${vocabulary}::text[]) as x(w)`.execute(database.db);
  const lexeme = new Map(rows.map((r) => [r.w, r.l]));
  const out: Asked[] = [];
  for (const q of c.queries) {
    const keywords: string[] = [];
    const seen = new Set<string>();
    for (const w of wordsOf(q.text)) {
      const l = lexeme.get(w);
      if (!l || seen.has(l)) continue;
      seen.add(l);
      keywords.push(w);
      if (keywords.length === 4) break;
    }
    out.push({ id: q.id, cls: 'questions', text: `${q.text.toLowerCase()} `, judgments: q.judgments });
    if (!keywords.length) continue;
    out.push({ id: q.id, cls: 'keywords', text: `${keywords.join(' ')} `, judgments: q.judgments });
    const last = keywords.at(-1) as string;
    const cut = [...keywords.slice(0, -1), last.length > 5 ? last.slice(0, 4) : last];
    out.push({ id: q.id, cls: 'prefix', text: cut.join(' '), judgments: q.judgments });
  }
  return out;
}

interface Row {
  collection: CollectionName;
  cls: QueryClass;
  n: number;
  /** Mean metrics per ranker, and the mean time of our search per query (ms). */
  means: Partial<Record<Ranker, Metrics & { ms?: number }>>;
}

const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / (xs.length || 1);

async function main() {
  const t0 = performance.now();
  let collections: Collection[] = [];
  try {
    collections = names.map(loadCollection);
  } catch (err) {
    fail((err as Error).message);
  }
  const dir = tmpdir();
  const target = process.env.DATABASE_URL ? await freshDatabase('postgres', dir) : { database: await openDatabase({}), url: undefined, drop: async () => {} };
  const { database } = target;
  const db = database.db;
  const rows: Row[] = [];
  const perQuery: { collection: string; cls: QueryClass; id: string; text: string; scores: Partial<Record<Ranker, Metrics>> }[] = [];
  const phases: Record<string, number> = {};
  try {
    await migrateToLatest(db);
    let t = performance.now();
    const seeded = new Map<CollectionName, Seeded>();
    for (const c of collections) {
      seeded.set(c.name, await seedCorpus(database, c.docs, c.name));
      process.stdout.write(`seeded ${c.name}: ${c.docs.length} documents (${((performance.now() - t) / 1000).toFixed(1)} s)\n`);
    }
    await sql`analyze`.execute(db);
    phases.seed = performance.now() - t;
    let vectors: HybridSearch | undefined;
    if (hybrid) {
      t = performance.now();
      const config = loadConfig({ JWT_SECRET: 'bench'.repeat(8), CPU_WORKER_NICE: '0' });
      const embedder = new CachedEmbedder(new UniversalSentenceEncoder(config), process.env.SEARCH_BENCH_VECTORS ?? '.tmp/search-vectors');
      const settings = { ...config, KNOWLEDGE_INDEX_BUDGET_MS: 24 * 3_600_000, KNOWLEDGE_INDEX_MAX_PAGES: 1_000_000 };
      // An interrupted run keeps the vectors it computed for the next one.
      for (const signal of ['SIGINT', 'SIGTERM'] as const)
        process.once(signal, () => {
          embedder.save();
          process.exit(130);
        });
      try {
        const outcome = await runIndexer(db, embedder, settings);
        process.stdout.write(`indexed ${outcome.pages} pages, ${outcome.passages} passages (${((performance.now() - t) / 1000).toFixed(0)} s)\n`);
      } finally {
        embedder.save();
      }
      vectors = { embedder, timeoutMs: 600_000 };
      phases.index = performance.now() - t;
    }

    for (const c of collections) {
      t = performance.now();
      const s = seeded.get(c.name) as Seeded;
      const bm25 = bm25Index(await englishTf(database, c.docs));
      const asked = await deriveQueries(database, c);
      const queryLexemes = await englishTf(
        database,
        asked.map((a, i) => ({ key: String(i), title: '', body: a.text })),
      );
      const scope = { workspaceId: s.workspaceId, userId: s.userId, types: ['page' as const] };
      const scores = asked.map(() => ({}) as Partial<Record<Ranker, Metrics>>);
      const times: Partial<Record<Ranker, number[]>> = {};
      const runOurs = async (ranker: 'ours' | 'exact' | 'hybrid') => {
        const ms: number[] = [];
        for (const [i, a] of asked.entries()) {
          const start = performance.now();
          const results = await rankedSearch(db, scope, a.text, 100, ranker === 'hybrid' ? vectors : undefined);
          ms.push(performance.now() - start);
          scores[i][ranker] = metrics(
            results.map((r) => s.keyOf(r.id)),
            a.judgments,
          );
        }
        times[ranker] = ms;
      };
      await runOurs('ours');
      if (exact) {
        const saved = { ...CANDIDATES };
        Object.assign(CANDIDATES, { budget: Number.POSITIVE_INFINITY, tier: Number.POSITIVE_INFINITY });
        try {
          await runOurs('exact');
        } finally {
          Object.assign(CANDIDATES, saved);
        }
      }
      if (vectors) {
        await runOurs('hybrid');
        (vectors.embedder as CachedEmbedder).save();
      }
      for (const [i, a] of asked.entries()) scores[i].bm25 = metrics(bm25([...queryLexemes[i].tokens.keys()]), a.judgments);

      for (const cls of CLASSES) {
        const idx = asked.map((a, i) => (a.cls === cls ? i : -1)).filter((i) => i >= 0);
        const means: Row['means'] = {};
        for (const r of RANKERS) {
          if (!scores[idx[0]]?.[r]) continue;
          const pick = (k: keyof Metrics) => mean(idx.map((i) => (scores[i][r] as Metrics)[k]));
          means[r] = { ndcg: pick('ndcg'), map: pick('map'), recall: pick('recall') };
          const ms = times[r];
          if (ms) means[r].ms = mean(idx.map((i) => ms[i]));
        }
        rows.push({ collection: c.name, cls, n: idx.length, means });
      }
      for (const [i, a] of asked.entries()) perQuery.push({ collection: c.name, cls: a.cls, id: a.id, text: a.text, scores: scores[i] });
      phases[c.name] = performance.now() - t;
      process.stdout.write(`ranked ${c.name}: ${asked.length} queries (${((performance.now() - t) / 1000).toFixed(1)} s)\n`);
    }
  } finally {
    await database.close();
    await target.drop();
  }
  const seconds = (performance.now() - t0) / 1000;

  // Macro means: per class and over all classes, the mean of the collections' means.
  const macro: Row[] = [];
  for (const cls of [...CLASSES, 'all'] as const) {
    const rs = rows.filter((r) => cls === 'all' || r.cls === cls);
    const means: Row['means'] = {};
    for (const r of RANKERS) {
      const have = rs.filter((x) => x.means[r]);
      if (!have.length) continue;
      means[r] = {
        ndcg: mean(have.map((x) => (x.means[r] as Metrics).ndcg)),
        map: mean(have.map((x) => (x.means[r] as Metrics).map)),
        recall: mean(have.map((x) => (x.means[r] as Metrics).recall)),
      };
      const ms = have.map((x) => x.means[r]?.ms).filter((x): x is number => x !== undefined);
      if (ms.length) means[r].ms = mean(ms);
    }
    macro.push({ collection: 'macro' as CollectionName, cls: cls as QueryClass, n: rs.reduce((a, x) => a + x.n, 0), means });
  }

  if (verbose) {
    console.log('\nper query (nDCG@10: ours / ours exact / BM25)');
    for (const q of perQuery)
      console.log(
        `${q.collection.padEnd(9)} ${q.cls.padEnd(9)} ${q.id.padStart(3)}  ${RANKERS.map((r) => (q.scores[r] ? q.scores[r].ndcg.toFixed(3) : '  -  ')).join(' ')}  ${q.text.slice(0, 70)}`,
      );
  }

  const f = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(3));
  const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || !b ? '-' : (a / b).toFixed(2));
  const docsTotal = collections.reduce((a, c) => a + c.docs.length, 0);
  const queriesTotal = collections.reduce((a, c) => a + c.queries.length, 0);
  console.log(
    `\n${collections.map((c) => `${c.name} ${c.docs.length} docs / ${c.queries.length} queries`).join(', ')}; total ${docsTotal} documents, ${queriesTotal} judged queries (x 3 forms)`,
  );
  console.log(
    `database: ${process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'PGlite (in memory)'}; candidates ${JSON.stringify(CANDIDATES)}${overridden ? `; ranking ${overridden}` : ''}${exact ? ', ours exact: budgets lifted' : ''}${hybrid ? `, hybrid: ${JSON.stringify(HYBRID)} with the offline encoder` : ''}; phrase and exclusion queries: not derivable, not measured`,
  );
  const rankers = RANKERS.filter((r) => (r !== 'exact' || exact) && (r !== 'hybrid' || hybrid));
  for (const [key, title] of [
    ['ndcg', 'nDCG@10'],
    ['map', 'MAP@100'],
    ['recall', 'Recall@100'],
  ] as [keyof Metrics, string][]) {
    console.log(`\n${title}`);
    const head = [
      'collection'.padEnd(10),
      'form'.padEnd(9),
      'n'.padStart(4),
      ...rankers.map((r) => LABEL[r].padStart(10)),
      'ours/BM25'.padStart(10),
      ...(exact ? ['exact/BM25'.padStart(10)] : []),
      ...(hybrid ? ['hybrid/BM25'.padStart(11)] : []),
    ];
    console.log(head.join(' '));
    for (const r of [...rows, ...macro]) {
      const m = (k: Ranker) => r.means[k]?.[key];
      console.log(
        [
          r.collection.padEnd(10),
          r.cls.padEnd(9),
          String(r.n).padStart(4),
          ...rankers.map((k) => f(m(k)).padStart(10)),
          ratio(m('ours'), m('bm25')).padStart(10),
          ...(exact ? [ratio(m('exact'), m('bm25')).padStart(10)] : []),
          ...(hybrid ? [ratio(m('hybrid'), m('bm25')).padStart(11)] : []),
        ].join(' '),
      );
    }
  }
  console.log('\nmean time of our search per query (ms)');
  console.log(
    [
      'collection'.padEnd(10),
      'form'.padEnd(9),
      'ours'.padStart(8),
      ...(exact ? ['ours exact'.padStart(11)] : []),
      ...(hybrid ? ['hybrid'.padStart(8)] : []),
    ].join(' '),
  );
  for (const r of [...rows, ...macro])
    console.log(
      [
        r.collection.padEnd(10),
        r.cls.padEnd(9),
        (r.means.ours?.ms?.toFixed(1) ?? '-').padStart(8),
        ...(exact ? [(r.means.exact?.ms?.toFixed(1) ?? '-').padStart(11)] : []),
        ...(hybrid ? [(r.means.hybrid?.ms?.toFixed(1) ?? '-').padStart(8)] : []),
      ].join(' '),
    );
  console.log(
    `\nrun: ${seconds.toFixed(0)} s (seeding ${(phases.seed / 1000).toFixed(0)} s; ${collections.map((c) => `${c.name} ${(phases[c.name] / 1000).toFixed(0)} s`).join(', ')})`,
  );

  if (jsonFile) {
    writeFileSync(
      jsonFile,
      `${JSON.stringify(
        {
          date: new Date().toISOString(),
          database: process.env.DATABASE_URL ? 'postgres' : 'pglite',
          candidates: { ...CANDIDATES },
          exact,
          collections: collections.map((c) => ({ name: c.name, docs: c.docs.length, queries: c.queries.length })),
          rows,
          macro,
          seconds,
          perQuery,
        },
        (_k, v) => (v === Number.POSITIVE_INFINITY ? 'Infinity' : v),
        2,
      )}\n`,
    );
    console.log(`figures written to ${jsonFile}`);
  }
}

await main();

import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/index.js';
import { readableSpaceIds } from '../spaces/spaces.policy.js';
import { tsLexeme } from './search.parse.js';

export type DocType = 'page' | 'task';

/** What a caller may search: the workspace, the spaces they may read (resolved inside the SQL), optional filters. */
export interface SearchScope {
  workspaceId: string;
  userId: string;
  spaceId?: string;
  types: DocType[];
}

/** The analysed query: lexemes from PostgreSQL's `english` configuration, in query order. */
export interface Analysis {
  /** Free-text and phrase lexemes, first position first, without duplicates. */
  lexemes: string[];
  /** The stem of the unfinished last word (null when it is a stop word or there is none). */
  prefixStem: string | null;
  /** True when the unfinished word is a stop word ("the"): it is then left out entirely. */
  prefixIsStopWord: boolean;
  /** Each required phrase as a tsquery text (`'point' <-> 'time' <-> 'recoveri'`). */
  phrases: string[];
  /** Excluded words and phrases as tsquery texts. */
  excluded: string[];
}

/** One ranked term: a tsquery text (one lexeme, or alternatives for an unfinished word). */
export interface RankTerm {
  query: string;
  /** Number of operands in `query` (ts_rank divides by it; we multiply back). */
  operands: number;
}

export interface RankPlan {
  terms: RankTerm[];
  phrases: string[];
  excluded: string[];
}

export interface CollectionStats {
  docs: number;
  avgLength: number;
  df: number[];
}

export interface RankedRow {
  type: DocType;
  id: string;
  title: string;
  spaceId: string | null;
  updatedAt: Date;
  score: number;
  snippet: string | null;
}

/** Ranking constants: BM25's k1 and b, and how much a title occurrence counts against a body one (BM25F). */
export const RANKING = {
  k1: 1.2,
  b: 0.75,
  titleWeight: 2.5,
  /** Share of the score that depends on covering the query's (idf-weighted) words: coordination. */
  coverage: 0.3,
  /** Weight of a pair of neighbouring query words found close together (cover density), per pair. */
  proximity: 0.25,
};

/** Most documents scored per query (per table): bounds the cost of a query made of common words. */
export const CANDIDATE_BUDGET = 2000;

const wantPages = (s: SearchScope) => s.types.includes('page');
const wantTasks = (s: SearchScope) => s.types.includes('task');

/** Readable, live pages of the scope (alias `p`): access filtering inside the SQL. */
function pageFilter(db: Db, s: SearchScope): RawBuilder<unknown> {
  return sql`p.workspace_id = ${s.workspaceId} and p.deleted_at is null
    and p.space_id in (${readableSpaceIds(db, s.workspaceId, s.userId)})${s.spaceId ? sql` and p.space_id = ${s.spaceId}` : sql``}`;
}

/** Readable tasks of the scope (alias `t`): tasks without a space belong to the whole workspace. */
function taskFilter(db: Db, s: SearchScope): RawBuilder<unknown> {
  const readable = sql`(t.space_id is null or t.space_id in (${readableSpaceIds(db, s.workspaceId, s.userId)}))`;
  return sql`t.workspace_id = ${s.workspaceId} and ${readable}${s.spaceId ? sql` and t.space_id = ${s.spaceId}` : sql``}`;
}

const tsq = (q: string) => sql`${q}::tsquery`;

export const searchRepo = {
  /** Runs the query's words through PostgreSQL's `english` analyser (the same one that built the index). */
  async analyse(db: Db, free: string, prefix: string | null, phrases: string[], excluded: string[]): Promise<Analysis> {
    const { rows } = await sql<{ lexemes: string[] | null; prefixStem: string | null; phrases: string[] | null; excluded: string[] | null }>`
      select
        (select array_agg(x.lexeme order by x.pos) from (
           select u.lexeme, min(u.positions[1]) as pos from (
             select lexeme, positions from unnest(to_tsvector('english', ${free}))
             union all
             select lexeme, array[1000 + positions[1]] from unnest(to_tsvector('english', ${phrases.join(' , ')}))
           ) u group by u.lexeme
         ) x) as lexemes,
        (select min(lexeme) from unnest(to_tsvector('english', coalesce(${prefix}::text, '')))) as prefix_stem,
        (select array_agg(q::text) from unnest(${phrases}::text[]) ph, phraseto_tsquery('english', ph) q where numnode(q) > 0) as phrases,
        (select array_agg(q::text) from unnest(${excluded}::text[]) ex, phraseto_tsquery('english', ex) q where numnode(q) > 0) as excluded
    `.execute(db);
    const r = rows[0];
    return {
      lexemes: r.lexemes ?? [],
      prefixStem: r.prefixStem,
      prefixIsStopWord: prefix !== null && r.prefixStem === null,
      phrases: r.phrases ?? [],
      excluded: r.excluded ?? [],
    };
  },

  /**
   * Collection statistics for BM25 over what the caller can read: the number of documents, their average length
   * (distinct lexemes, from a sample), and each term's document frequency (counted through the GIN index).
   */
  async stats(db: Db, s: SearchScope, terms: RankTerm[]): Promise<CollectionStats> {
    const pf = pageFilter(db, s);
    const tf = taskFilter(db, s);
    const zero = sql`0`;
    const countPages = (extra: RawBuilder<unknown>) => (wantPages(s) ? sql`(select count(*) from pages p where ${pf}${extra})` : zero);
    const countTasks = (extra: RawBuilder<unknown>) => (wantTasks(s) ? sql`(select count(*) from tasks t where ${tf}${extra})` : zero);
    const avg = (table: 'pages' | 'tasks', alias: 'p' | 't', filter: RawBuilder<unknown>) =>
      sql`(select coalesce(avg(length(x.search_vector)), 0)::float8 from (select ${sql.ref(`${alias}.search_vector`)} from ${sql.table(table)} ${sql.raw(alias)} where ${filter} limit 500) x)`;
    const dfs = terms.map(
      (t, i) =>
        sql`${countPages(sql` and p.search_vector @@ ${tsq(t.query)}`)} + ${countTasks(sql` and t.search_vector @@ ${tsq(t.query)}`)} as ${sql.ref(`df${i}`)}`,
    );
    const { rows } = await sql<Record<string, number>>`
      select ${countPages(sql``)}::int as np, ${countTasks(sql``)}::int as nt,
        ${wantPages(s) ? avg('pages', 'p', pf) : zero}::float8 as ap, ${wantTasks(s) ? avg('tasks', 't', tf) : zero}::float8 as at
        ${dfs.length ? sql`, ${sql.join(dfs)}` : sql``}
    `.execute(db);
    const r = rows[0];
    const docs = Number(r.np) + Number(r.nt);
    const avgLength = docs ? (Number(r.np) * Number(r.ap) + Number(r.nt) * Number(r.at)) / docs : 1;
    return { docs, avgLength: Math.max(avgLength, 1), df: terms.map((_, i) => Number(r[`df${i}`])) };
  },

  /**
   * The ranked results: documents matching any term (and every phrase, and no exclusion), scored BM25F-style in
   * SQL, merged across pages and tasks by score, with a highlighted snippet for the returned rows only.
   */
  async rank(db: Db, s: SearchScope, plan: RankPlan, stats: CollectionStats, limit: number): Promise<RankedRow[]> {
    const { k1, b, titleWeight, coverage, proximity } = RANKING;
    // Candidates come from the rarest terms only, up to a budget of documents (the "common terms" strategy): a
    // common word still adds to the score of every candidate but does not make thousands of documents candidates.
    const order = plan.terms.map((_, i) => i).sort((x, y) => stats.df[x] - stats.df[y]);
    const drivers: number[] = [];
    let budget = 0;
    for (const i of order) {
      if (drivers.length && budget + stats.df[i] > CANDIDATE_BUDGET) break;
      drivers.push(i);
      budget += stats.df[i];
    }
    const any = drivers.map((i) => `(${plan.terms[i].query})`).join(' | ');
    const excluded = plan.excluded.map((e) => `(${e})`).join(' | ');
    // Every condition on the document vector (column `col`): a driving term, every phrase, no exclusion.
    const matchOn = (col: string) =>
      sql`${sql.raw(col)} @@ ${tsq(any)}${sql.join(
        plan.phrases.map((p) => sql` and ${sql.raw(col)} @@ ${tsq(p)}`),
        sql``,
      )}${excluded ? sql` and not (${sql.raw(col)} @@ ${tsq(excluded)})` : sql``}`;
    // Past the budget (the rarest term alone is that common), the most recently edited candidates are kept.
    const cap = budget > CANDIDATE_BUDGET ? sql` order by updated_at desc limit ${CANDIDATE_BUDGET}` : sql``;
    const parts: RawBuilder<unknown>[] = [];
    if (wantPages(s))
      parts.push(sql`(select 'page' as type, p.id, p.title, p.space_id, p.updated_at, p.search_vector as v
        from pages p where ${pageFilter(db, s)} and ${matchOn('p.search_vector')}${cap})`);
    if (wantTasks(s))
      parts.push(sql`(select 'task' as type, t.id, t.title, t.space_id, t.updated_at, t.search_vector as v
        from tasks t where ${taskFilter(db, s)} and ${matchOn('t.search_vector')}${cap})`);

    const N = Math.max(stats.docs, 1);
    const idf = stats.df.map((df) => Math.log(1 + (N - df + 0.5) / (df + 0.5)));
    const idfSum = idf.reduce((a, x) => a + x, 0) || 1;
    // ts_rank of a one-term query with equal weights is H2(tf)/1.645 (H2 the sum of 1/j², j ≤ tf): inverted here
    // into the term frequency. With weight 1 on A only it counts title occurrences (they come first in the vector).
    const inv = (r: RawBuilder<unknown>) => sql`(case when ${r} > 0 then 1.0 / (1.6449341 * (1.0 - least(${r}, 0.995))) - 0.5 else 0 end)`;
    const feats = plan.terms.map((t, i) => {
      const q = tsq(t.query);
      const all = sql`(ts_rank('{1,1,1,1}', v, ${q}, 0) * ${sql.lit(t.operands)})`;
      const title = sql`(ts_rank('{0,0,0,1}', v, ${q}, 0) * ${sql.lit(t.operands)})`;
      return sql`${inv(all)} as ${sql.ref(`fa${i}`)}, ${inv(title)} as ${sql.ref(`ft${i}`)}`;
    });
    const K = sql`(${sql.lit(k1)} * (1 - ${sql.lit(b)} + ${sql.lit(b)} * dl / ${sql.lit(stats.avgLength)}))`;
    const termScores = plan.terms.map((_, i) => {
      const fa = sql.ref(`fa${i}`);
      const ft = sql.ref(`ft${i}`);
      const w = sql`(${sql.lit(titleWeight)} * ${ft} + greatest(${fa} - ${ft}, 0))`;
      return sql`${sql.lit(idf[i])} * ${w} * ${sql.lit(k1 + 1)} / (${w} + ${K})`;
    });
    const covered = plan.terms.map((_, i) => sql`(case when ${sql.ref(`fa${i}`)} > 0 then ${sql.lit(idf[i] / idfSum)} else 0 end)`);
    // Neighbouring query words close together: cover density of the pair, saturated, weighted by the rarer word.
    const pairs = plan.terms.slice(1).map((t, j) => {
      const cd = sql`ts_rank_cd('{1,1,1,1}', v, ${tsq(`(${plan.terms[j].query}) & (${t.query})`)}, 0)`;
      return sql`${sql.lit(proximity * Math.min(idf[j], idf[j + 1]))} * ${cd} / (${cd} + 1)`;
    });
    const bm25 = termScores.length ? sql.join(termScores, sql` + `) : sql`0`;
    const cov = covered.length ? sql.join(covered, sql` + `) : sql`1`;
    const prox = pairs.length ? sql.join(pairs, sql` + `) : sql`0`;
    const headlineQuery = tsq([...plan.terms.map((t) => `(${t.query})`), ...plan.phrases.map((p) => `(${p})`)].join(' | '));
    const opts = 'StartSel=\u0001, StopSel=\u0002, MaxWords=28, MinWords=10, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "';
    const { rows } = await sql<RankedRow>`
      with cand as (${sql.join(parts, sql` union all `)}),
      feats as (select type, id, title, space_id, updated_at, v, length(v) as dl ${feats.length ? sql`, ${sql.join(feats)}` : sql``} from cand),
      scored as (
        select type, id, title, space_id, updated_at,
          ((${bm25}) * (1 - ${sql.lit(coverage)} + ${sql.lit(coverage)} * (${cov})) + ${prox})::float8 as score
        from feats order by score desc, updated_at desc, id limit ${limit}
      )
      select s.type, s.id, s.title, s.space_id, s.updated_at, s.score,
        ts_headline('english', translate(translate(left(coalesce(
          case s.type when 'page' then (select p.text_content from pages p where p.id = s.id and p.workspace_id = ${s.workspaceId})
            else (select t.description from tasks t where t.id = s.id and t.workspace_id = ${s.workspaceId}) end, ''), 200000), E'\\x01\\x02\\x03\\x04', ''), '<>', E'\\x03\\x04'),
          ${headlineQuery}, ${opts}) as snippet
      from scored s order by s.score desc, s.updated_at desc, s.id
    `.execute(db);
    return rows;
  },

  /**
   * Page titles that complete the typed words: every earlier word whole, the last one as a prefix, over unstemmed
   * title words. Titles that start with the typed text first, then the most recently edited.
   */
  async suggestPages(db: Db, s: SearchScope, words: string[], limit: number): Promise<{ id: string; title: string }[]> {
    const q = words.map((w, i) => tsLexeme(w, i === words.length - 1)).join(' & ');
    const starts = `${words.join(' ').replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const { rows } = await sql<{ id: string; title: string }>`
      select p.id, p.title from pages p
      where ${pageFilter(db, s)} and p.title_words @@ ${tsq(q)}
      order by (lower(p.title) like ${starts}) desc, p.updated_at desc, p.id
      limit ${limit}`.execute(db);
    return rows;
  },

  /**
   * Words of the vocabulary the caller can read that complete `prefix`: taken from the most recently edited
   * readable documents containing such a word, ranked by how many of those documents use it, then by recency.
   * Stop words and the bare prefix's shorter forms are left out.
   */
  async suggestKeywords(db: Db, s: SearchScope, prefix: string, limit: number): Promise<string[]> {
    // The raw prefix or its stem ("polic" and "policy" both reach the indexed "polici"); a stop word adds nothing.
    const raw = tsLexeme(prefix, true);
    const q = sql`(${raw}::tsquery || to_tsquery('english', ${raw}))`;
    // `prefix` holds letters and digits only, so it is safe inside the pattern.
    const pattern = `(\\m${prefix}\\w*)`;
    const { rows } = await sql<{ word: string }>`
      with docs as (
        (select p.id, p.title || ' ' || left(p.text_content, 4000) as body, p.updated_at from pages p
          where ${pageFilter(db, s)} and p.search_vector @@ ${q} order by p.updated_at desc limit 40)
        union all
        (select t.id, t.title || ' ' || left(coalesce(t.description, ''), 4000), t.updated_at from tasks t
          where ${taskFilter(db, s)} and t.search_vector @@ ${q} order by t.updated_at desc limit 20)
      ),
      words as (select lower(m[1]) as word, d.id, d.updated_at from docs d, regexp_matches(d.body, ${pattern}, 'gi') m)
      select word from words
      where length(word) between 3 and 40 and to_tsvector('english', word) <> ''::tsvector
      group by word
      order by count(distinct id) desc, max(updated_at) desc, word
      limit ${limit}`.execute(db);
    return rows.map((r) => r.word);
  },
};

import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/index.js';
import { pageOpenToSql } from '../pages/page-access.sql.js';
import { readableSpaceIds } from '../spaces/spaces.access.js';
import { tsLexeme } from './search.parse.js';
import { type Analysis, type CandidateTier, type CollectionStats, candidatePlan, RANKING, type RankPlan, type RankTerm, RECENT_TITLES } from './search.plan.js';

export type DocType = 'page' | 'task';

/** What a caller may search: the workspace, the spaces they may read (resolved inside the SQL), optional filters. */
export interface SearchScope {
  workspaceId: string;
  userId: string;
  spaceId?: string;
  types: DocType[];
}

export interface RankedRow {
  type: DocType;
  id: string;
  title: string;
  spaceId: string | null;
  updatedAt: Date;
  score: number;
  snippet: string | null;
  /** The page's icon (an emoji); null for tasks and pages without one. */
  icon: string | null;
}

const wantPages = (s: SearchScope) => s.types.includes('page');
const wantTasks = (s: SearchScope) => s.types.includes('task');

/** A subquery of the ids of the spaces the caller may read. */
type Readable = RawBuilder<unknown> | ReturnType<typeof readableSpaceIds>;

/** `with rs as (…)`: the readable spaces once per statement (and `inRs` to refer to them), keeping statements short. */
const withReadable = (db: Db, s: SearchScope) => sql`rs as (${readableSpaceIds(db, s.workspaceId, s.userId)})`;
const inRs = sql`select id from rs`;

/** Readable, live pages of the scope (alias `p`) that no restriction closes to the caller: access filtering inside the SQL. */
function pageFilter(s: SearchScope, readable: Readable): RawBuilder<unknown> {
  return sql`p.workspace_id = ${s.workspaceId} and p.deleted_at is null
    and p.space_id in (${readable})${s.spaceId ? sql` and p.space_id = ${s.spaceId}` : sql``}
    and ${pageOpenToSql(sql.ref('p.id'), s.workspaceId, s.userId)}`;
}

/**
 * How many live pages in readable spaces but closed to the caller by a restriction use each word starting with
 * `prefix` (`word`, `n`): what keyword suggestions take away from the vocabulary's counts, so a word only closed pages
 * use is never offered. Driven from the workspace's restrictions the caller holds no grant on (usually none).
 */
function closedPageWords(db: Db, s: SearchScope, prefix: string): RawBuilder<unknown> {
  return sql`select u.lexeme as word, count(*) as n from (
      select distinct prb.page_id from page_restrictions r
      join page_restricted_by prb on prb.restriction_page_id = r.page_id
      where r.workspace_id = ${s.workspaceId}
        and not exists (select 1 from page_restriction_grants prg where prg.page_id = r.page_id
          and (prg.user_id = ${s.userId}
            or prg.group_id in (select gm.group_id from group_members gm where gm.user_id = ${s.userId} and gm.workspace_id = ${s.workspaceId})))
    ) c
    join pages p on p.id = c.page_id and p.workspace_id = ${s.workspaceId} and p.deleted_at is null
      and p.space_id in (${readableSpaceIds(db, s.workspaceId, s.userId)})
    cross join lateral unnest(to_tsvector('simple', p.title || ' ' || p.text_content)) u
    where u.lexeme >= ${prefix}::text collate "C" and u.lexeme <= (${prefix} || chr(1114111)) collate "C"
    group by u.lexeme`;
}

/** Readable tasks of the scope (alias `t`): tasks without a space belong to the whole workspace. */
function taskFilter(s: SearchScope, readable: Readable): RawBuilder<unknown> {
  return sql`t.workspace_id = ${s.workspaceId} and (t.space_id is null or t.space_id in (${readable}))${s.spaceId ? sql` and t.space_id = ${s.spaceId}` : sql``}`;
}

/**
 * Statistic rows (alias `x`) of the scope: the readable spaces, and '' (tasks without a space) unless one space is
 * asked for.
 */
function statSpaces(s: SearchScope, readable: Readable): RawBuilder<unknown> {
  return s.spaceId ? sql`x.space_id = ${s.spaceId} and x.space_id in (${readable})` : sql`(x.space_id = '' or x.space_id in (${readable}))`;
}

const tsq = (q: string) => sql`${q}::tsquery`;

/** Whether pseudo-relevance feedback re-ranks this query (on, and a query of `minTerms` terms or more). */
function feedbackApplies(plan: RankPlan): boolean {
  const { weight, minTerms } = RANKING.feedback;
  return weight > 0 && weight < 1 && plan.terms.length >= minTerms;
}

/**
 * `base as (…)`: the best `depth` × `limit` candidates of `first` (the columns of `cand`, and `base`: the score of the
 * query's own terms) with pseudo-relevance feedback added to `base`: RM3 (Lavrenko and Croft's relevance model) as a
 * re-ranking of the candidates, so no document is read twice. The `docs` best first-pass documents are the feedback
 * set; each lexeme of their vectors (each vector read once, its length a window sum over the same read; one of
 * more than `maxLexemes` lexemes is not read) weighs p = Σ exp(score − best score) · tf / length over them; the
 * `terms` heaviest (usually the query's own words among them) form an expansion query. Each of its terms scores like
 * a query term (BM25F, with its idf from the statistics the caller may read), weighted
 * `uses · weight / (1 − weight) · p / Σp` (`uses`: the query's word count), so the query keeps `1 − weight` of the
 * mix, as RM3 interpolates. Expansion words come only from documents the caller may read.
 */
function feedbackSql(s: SearchScope, stats: CollectionStats, plan: RankPlan, limit: number): RawBuilder<unknown> {
  const { docs, terms, weight, depth, maxLexemes } = RANKING.feedback;
  if (!feedbackApplies(plan)) return sql`base as (select * from first)`;
  const uses = plan.terms.reduce((a, t) => a + t.uses, 0);
  const N = Math.max(stats.docs, 1);
  const f8 = (x: number) => sql`${x}::float8`;
  const df = sql`least(r.df, ${f8(N)})`;
  return sql`top as materialized (select * from first f order by f.base desc, f.updated_at desc, f.id collate "C" limit ${Math.max(depth * limit, 30, docs)}),
      fb as (select f.id, f.v, f.base from top f order by f.base desc, f.updated_at desc, f.id collate "C" limit ${docs}),
      rel as (
        select u.lexeme, sum(exp(fb.base - (select max(base) from fb)) * u.n / u.len order by fb.id collate "C") as p
        from fb cross join lateral (
          select w.lexeme, array_length(w.positions, 1) as n, (sum(array_length(w.positions, 1)) over ())::float8 as len from unnest(fb.v) w
        ) u
        where length(fb.v) <= ${maxLexemes}
        group by u.lexeme order by p desc, u.lexeme collate "C" limit ${terms}
      ),
      expansion as materialized (
        select array_agg(('''' || replace(replace(r.lexeme, '\\', '\\\\'), '''', '''''') || '''')::tsquery) as qs,
          array_agg(${f8((uses * weight) / (1 - weight))} * r.p / (select sum(p order by lexeme collate "C") from rel) * ln(1 + (${f8(N)} - ${df} + 0.5) / (${df} + 0.5))) as ws
        from (
          select r.lexeme, r.p, coalesce((select sum(x.ndoc) from search_terms_all x where x.workspace_id = ${s.workspaceId} and x.lexeme = r.lexeme
            and x.doc_type = any(${s.types}::text[]) and ${statSpaces(s, inRs)}), 0)::float8 as df
          from rel r
        ) r
      ),
      base as materialized (
        select f.type, f.id, f.title, f.space_id, f.updated_at, f.v, f.base + case when e.qs is null then 0 else search_score(f.v, e.qs, e.ws,
          array_fill(1::float8, array[cardinality(e.qs)]), ${f8(RANKING.k1)}, ${f8(RANKING.b)}, ${f8(stats.avgLength)}, ${f8(RANKING.titleWeight)}, 0::float8, 1::float8) end as base
        from top f, expansion e
      )`;
}

/**
 * Runs a statement with its whitespace collapsed (none of ours has whitespace inside a literal: values are
 * parameters). Shorter text is cheaper to parse, and a statement up to 8,000 characters is prepared once (db/prepared-statements.ts).
 */
async function run<R>(db: Db, query: RawBuilder<R>): Promise<R[]> {
  const compiled = query.compile(db);
  const { rows } = await db.executeQuery<R>({ ...compiled, sql: compiled.sql.replace(/\s+/g, ' ').trim() });
  return rows;
}

/** Everything a snippet highlights: every ranked term and every phrase. */
const headlineQuery = (plan: RankPlan) => [...plan.terms.map((t) => `(${t.query})`), ...plan.phrases.map((p) => `(${p})`)].join(' | ');
const HEADLINE_OPTIONS = 'StartSel=\u0001, StopSel=\u0002, MaxWords=28, MinWords=10, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "';

/**
 * The snippet of the result row `s` (columns `type`, `id`): the best passages of its body with the query's words
 * between \u0001 and \u0002 (search.present.ts turns them into `<mark>`), from the first 30,000 characters.
 */
export function snippetSql(s: SearchScope, plan: RankPlan): RawBuilder<string> {
  return sql<string>`ts_headline('english', translate(translate(left(coalesce(
          case s.type when 'page' then (select p.text_content from pages p where p.id = s.id and p.workspace_id = ${s.workspaceId})
            else (select t.description from tasks t where t.id = s.id and t.workspace_id = ${s.workspaceId}) end, ''), 30000), E'\\x01\\x02\\x03\\x04', ''), '<>', E'\\x03\\x04'),
          ${headlineQuery(plan)}::tsquery, ${HEADLINE_OPTIONS})`;
}

/**
 * Runs `fn` on one connection in a transaction whose prepared statements use their generic plan. PostgreSQL would
 * plan the statistics, ranking and title-suggestion statements anew on every run (a custom plan looks cheaper to it,
 * since it then knows the arrays of terms), and planning them costs more than running some of them (PGlite, 100,000
 * pages, median: statistics 2.8 → 1.0 ms, ranking 19.0 → 17.5 ms, title suggestions 6.6 → 2.8 ms). Their plans do
 * not depend on the values: each tier's tsquery reaches its index scan as a lateral parameter anyway, and candidates
 * are read in table order whatever the plan, so results are the same. Two settings keep that order whatever the
 * statistics make the planner choose: no parallel workers (a Gather returns its workers' rows in the order they come)
 * and no synchronized sequential scans (a big table's scan may start where another session's is). `begin` and the
 * settings travel as one simple query. Keyword suggestions stay out: their generic plan is no faster.
 */
export async function withGenericPlans<T>(db: Db, fn: (conn: Db) => Promise<T>): Promise<T> {
  // Inside a caller's transaction: its connection is already one, and a transaction cannot nest here.
  if (db.isTransaction) return fn(db);
  return db.connection().execute(async (conn) => {
    await sql
      .raw('begin; set local plan_cache_mode = force_generic_plan; set local max_parallel_workers_per_gather = 0; set local synchronize_seqscans = off')
      .execute(conn);
    try {
      const out = await fn(conn);
      await sql.raw('commit').execute(conn);
      return out;
    } catch (err) {
      await sql.raw('rollback').execute(conn);
      throw err;
    }
  });
}

export const searchRepo = {
  /** Runs the query's words through PostgreSQL's `english` analyser (the same one that built the index). */
  async analyse(db: Db, free: string, prefix: string | null, phrases: string[], excluded: string[]): Promise<Analysis> {
    const { rows } = await sql<{
      lexemes: string[] | null;
      counts: number[] | null;
      prefixStem: string | null;
      phrases: string[] | null;
      excluded: string[] | null;
    }>`
      with x as (
        select u.lexeme, min(u.pos) as pos, sum(u.n)::int as n from (
          select lexeme, positions[1] as pos, array_length(positions, 1) as n from unnest(to_tsvector('english', ${free}))
          union all
          select lexeme, 1000 + positions[1], array_length(positions, 1) from unnest(to_tsvector('english', ${phrases.join(' , ')}))
        ) u group by u.lexeme
      )
      select
        (select array_agg(x.lexeme order by x.pos) from x) as lexemes,
        (select array_agg(x.n order by x.pos) from x) as counts,
        (select min(lexeme) from unnest(to_tsvector('english', coalesce(${prefix}::text, '')))) as prefix_stem,
        (select array_agg(q::text) from unnest(${phrases}::text[]) ph, phraseto_tsquery('english', ph) q where numnode(q) > 0) as phrases,
        (select array_agg(q::text) from unnest(${excluded}::text[]) ex, phraseto_tsquery('english', ex) q where numnode(q) > 0) as excluded
    `.execute(db);
    const r = rows[0];
    return {
      lexemes: r.lexemes ?? [],
      counts: (r.counts ?? []).map(Number),
      prefixStem: r.prefixStem,
      prefixIsStopWord: prefix !== null && r.prefixStem === null,
      phrases: r.phrases ?? [],
      excluded: r.excluded ?? [],
    };
  },

  /**
   * Collection statistics for BM25 over what the caller can read, from the tables the triggers of migration 0012
   * keep current, plus the deltas concurrent writers left for the next fold (migration 0016; the `_all` views): the number of documents and their average length (distinct lexemes) summed over the readable
   * spaces, and each term's document frequency. A prefix term's frequency is that of any of its lexemes, assuming
   * they occur independently: N·(1 − Π(1 − df/N)).
   */
  async stats(db: Db, s: SearchScope, terms: RankTerm[]): Promise<CollectionStats> {
    const no: number[] = [];
    const lex: string[] = [];
    // Each prefix is its own range of the key (a join on ranges would be planned as a scan of the whole table).
    const prefixes: [number, string][] = [];
    terms.forEach((t, i) => {
      for (const l of t.lexemes) {
        no.push(i);
        lex.push(l);
      }
      for (const p of t.prefixes) prefixes.push([i, p]);
    });
    const types = sql`${s.types}::text[]`;
    const spaces = statSpaces(s, inRs);
    const rows = await run(
      db,
      sql<{ docs: number; len: number; df: number[] | null }>`
      with ${withReadable(db, s)}, n as (
        select coalesce(sum(ndocs), 0)::float8 as docs, coalesce(sum(total_length), 0)::float8 as len from search_space_stats_all x
        where x.workspace_id = ${s.workspaceId} and x.doc_type = any(${types}) and ${spaces}
      ), q as (select * from unnest(${no}::int[], ${lex}::text[]) as q(no, lex)),
      m as (
        select q.no, x.lexeme, sum(x.ndoc)::float8 as df from q join search_terms_all x on x.workspace_id = ${s.workspaceId} and x.lexeme = q.lex
        where x.doc_type = any(${types}) and ${spaces}
        group by q.no, x.lexeme
${sql.join(
  prefixes.map(
    ([i, p]) => sql`
        union all
        select ${i}::int, x.lexeme, sum(x.ndoc)::float8 from search_terms_all x
        where x.workspace_id = ${s.workspaceId} and x.lexeme >= ${p}::text collate "C" and x.lexeme <= (${p} || chr(1114111)) collate "C"
          and x.doc_type = any(${types}) and ${spaces}
        group by x.lexeme`,
  ),
  sql``,
)}
      ), t as (
        select m.no, least(n.docs, n.docs * (1 - exp(sum(ln(greatest(1 - m.df / greatest(n.docs, 1), 1e-9)) order by m.lexeme)))) as df
        from (select no, lexeme, max(df) as df from m group by no, lexeme) m, n group by m.no, n.docs
      )
      select n.docs, n.len, (select array_agg(coalesce(t.df, 0) order by i.no) from generate_series(0, ${terms.length - 1}) i(no) left join t on t.no = i.no) as df
      from n`,
    );
    const r = rows[0];
    const docs = Number(r.docs);
    return {
      docs,
      avgLength: Math.max(docs ? Number(r.len) / docs : 1, 1),
      df: terms.map((_, i) => Math.round(Number(r.df?.[i] ?? 0))),
    };
  },

  /**
   * The ranked results: candidates (see `candidatePlan`) that contain every phrase and no exclusion, scored
   * BM25F-style in SQL, merged across pages and tasks by score, with a highlighted snippet for the returned rows.
   * Every value is a parameter (terms as arrays), so the statement text depends only on the query's shape and is
   * prepared once. The proximity bonus (the costliest feature) is computed only for candidates it could lift into
   * the results: it is less than `maxProx`, so a document whose score without it is below the `limit`-th best minus
   * `maxProx` cannot make it.
   */
  async rank(db: Db, s: SearchScope, plan: RankPlan, stats: CollectionStats, limit: number, { snippets = true } = {}): Promise<RankedRow[]> {
    const { k1, b, titleWeight, coverage, proximity } = RANKING;
    const N = Math.max(stats.docs, 1);
    const idf = stats.df.map((df) => Math.log(1 + (N - Math.min(df, N) + 0.5) / (Math.min(df, N) + 0.5)));
    // Each term weighs its idf times the number of times the query uses it.
    const weights = idf.map((x, i) => x * plan.terms[i].uses);
    const weightSum = weights.reduce((a, x) => a + x, 0) || 1;
    const pairQueries = plan.terms.slice(1).map((t, j) => `(${plan.terms[j].query}) & (${t.query})`);
    const pairWeights = plan.terms.slice(1).map((_, j) => proximity * Math.min(idf[j], idf[j + 1]));
    const maxProx = pairWeights.reduce((a, x) => a + x, 0);
    const { tiers, limit: candidates } = candidatePlan(plan, stats.df);
    const excluded = plan.excluded.map((e) => `(${e})`).join(' | ') || null;
    // Every condition on a document vector `v`: a tier's query, every phrase, no exclusion.
    const filters = (v: RawBuilder<unknown>) => sql`${v} @@ all(${plan.phrases}::tsquery[]) and not coalesce(${v} @@ ${excluded}::tsquery, false)`;
    // Tiers are read in order, each through the GIN index (a tier's query reaches the scan as a parameter of a lateral
    // join, so the planner cannot know that it is common and never prefers a sequential scan), until the budget is
    // filled. Title tiers come first (few documents, the best ones for a common word), then body tiers.
    const bodyTiers = tiers.filter((t) => !t.title);
    const titleTiers = tiers.filter((t) => t.title);
    const fromTiers = (table: 'pages' | 'tasks', a: 'p' | 't', type: DocType, filter: RawBuilder<unknown>) => {
      const lateral = (list: CandidateTier[], title: boolean) =>
        sql`select z.* from unnest(${list.map((t) => t.query)}::tsquery[], ${list.map((t) => t.limit)}::int[]) k(q, n) cross join lateral (
          select ${type}::text type, ${sql.raw(`${a}.id, ${a}.title, ${a}.space_id, ${a}.updated_at, ${a}.search_vector v`)} from ${sql.raw(`${table} ${a}`)}
          where ${filter} and ${sql.raw(title ? `to_tsvector('english', ${a}.title)` : `${a}.search_vector`)} @@ k.q and ${filters(sql.raw(`${a}.search_vector`))} limit k.n) z`;
      // Tasks have no title tier: their titles are most of their text.
      const title = titleTiers.length && table === 'pages';
      return sql`(select * from (${title ? sql`(${lateral(titleTiers, true)}) union all ` : sql``}(${lateral(bodyTiers, false)})) z limit ${candidates})`;
    };
    const parts: RawBuilder<unknown>[] = [];
    if (wantPages(s)) parts.push(fromTiers('pages', 'p', 'page', pageFilter(s, inRs)));
    if (wantTasks(s)) parts.push(fromTiers('tasks', 't', 'task', taskFilter(s, inRs)));
    const f8 = (x: number) => sql`${x}::float8`;
    return run(
      db,
      sql<RankedRow>`
      with ${withReadable(db, s)}, cand as materialized (
        select distinct on (id collate "C") type, id, title, space_id, updated_at, v || ''::tsvector as v
        from (${sql.join(parts, sql` union all `)}) z
      ),
      first as materialized (
        select c.*, search_score(c.v, ${plan.terms.map((t) => t.query)}::tsquery[], ${weights}::float8[], ${plan.terms.map((t) => t.operands)}::float8[],
          ${f8(k1)}, ${f8(b)}, ${f8(stats.avgLength)}, ${f8(titleWeight)}, ${f8(coverage)}, ${f8(weightSum)}) as base
        from cand c
      ),
      ${feedbackSql(s, stats, plan, limit)},
      threshold as materialized (select coalesce(min(z.base), 0) as t from (select base from base order by base desc limit ${limit}) z),
      scored as (
        select c.type, c.id, c.title, c.space_id, c.updated_at,
          (c.base + case when c.base >= th.t - ${f8(maxProx)} then search_proximity(c.v, ${pairQueries}::tsquery[], ${pairWeights}::float8[]) else 0 end)::float8 as score
        from base c, threshold th
        order by score desc, c.updated_at desc, c.id collate "C" limit ${limit}
      )
      select s.type, s.id, s.title, s.space_id, s.updated_at, s.score, ${snippets ? snippetSql(s, plan) : sql`null::text`} as snippet,
        case when s.type = 'page' then (select p.icon from pages p where p.id = s.id) end as icon
      from scored s order by s.score desc, s.updated_at desc, s.id collate "C"`,
    );
  },

  /**
   * Result rows for documents ranked elsewhere (a fused list), in the order given, with `score` and a snippet: only
   * those the caller may still read (the access filters again).
   */
  async resultRows(db: Db, s: SearchScope, plan: RankPlan, ranked: { type: DocType; id: string; score: number }[]): Promise<RankedRow[]> {
    if (!ranked.length) return [];
    return run(
      db,
      sql<RankedRow>`
      with ${withReadable(db, s)}, x as (select * from unnest(${ranked.map((r) => r.type)}::text[], ${ranked.map((r) => r.id)}::text[], ${ranked.map((r) => r.score)}::float8[]) with ordinality x(type, id, score, n)),
      s as (
        select x.type, x.id, x.score, x.n, coalesce(p.title, t.title) as title, coalesce(p.space_id, t.space_id) as space_id, coalesce(p.updated_at, t.updated_at) as updated_at, p.icon
        from x left join pages p on x.type = 'page' and p.id = x.id and ${pageFilter(s, inRs)}
          left join tasks t on x.type = 'task' and t.id = x.id and ${taskFilter(s, inRs)}
        where p.id is not null or t.id is not null
      )
      select s.type, s.id, s.title, s.space_id, s.updated_at, s.score, ${snippetSql(s, plan)} as snippet, s.icon from s order by s.n`,
    );
  },

  /**
   * Page titles that complete the typed words: every earlier word whole, the last one as a prefix, over unstemmed
   * title words. Bounded work whatever the prefix: first among the `RECENT_TITLES` most recently edited readable
   * pages (titles that start with the typed text first, then the most recent); only when those give too few, any
   * other matching titles the index finds.
   */
  async suggestPages(db: Db, s: SearchScope, words: string[], limit: number): Promise<{ id: string; title: string; icon: string | null }[]> {
    const q = words.map((w, i) => tsLexeme(w, i === words.length - 1)).join(' & ');
    const starts = `${words.join(' ').replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return run(
      db,
      sql<{ id: string; title: string; icon: string | null }>`
      with ${withReadable(db, s)}, recent as materialized (
        select r.id, r.title, r.icon from (
          select p.id, p.title, p.icon, p.title_words, p.updated_at from pages p where ${pageFilter(s, inRs)}
          order by p.updated_at desc, p.id desc limit ${RECENT_TITLES}
        ) r
        where r.title_words @@ ${tsq(q)}
        order by (lower(r.title) like ${starts}) desc, r.updated_at desc, r.id
        limit ${limit}
      )
      select id, title, icon from recent
      union all
      (select p.id, p.title, p.icon from pages p
        where ${pageFilter(s, inRs)} and p.title_words @@ (select ${tsq(q)}) and p.id not in (select id from recent) limit ${limit})
      limit ${limit}`,
    );
  },

  /**
   * Words of the vocabulary the caller can read that complete `prefix` (from `search_words` and its pending deltas,
   * kept by the triggers of migrations 0012 and 0016; stop words and words under 3 characters are not in it): the most used first (documents using
   * them, summed over the readable spaces), then the most recently written. Words used only by pages a restriction
   * closes to the caller are left out (their uses are counted out, see `closedPageWords`).
   */
  async suggestKeywords(db: Db, s: SearchScope, prefix: string, limit: number): Promise<string[]> {
    const { rows } = await sql<{ word: string }>`
      with closed as materialized (${closedPageWords(db, s, prefix)})
      select x.word from search_words_all x
      where x.workspace_id = ${s.workspaceId} and x.word >= ${prefix}::text collate "C" and x.word <= (${prefix} || chr(1114111)) collate "C"
        and ${statSpaces(s, readableSpaceIds(db, s.workspaceId, s.userId))}
      group by x.word having sum(x.ndoc) - coalesce((select c.n from closed c where c.word = x.word), 0) > 0
      order by sum(x.ndoc) desc, max(x.last_seen) desc, x.word
      limit ${limit}`.execute(db);
    return rows.map((r) => r.word);
  },
};

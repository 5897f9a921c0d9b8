import { type Kysely, sql } from 'kysely';
import { DOC_TABLES, type DocTable, down as downSearchStats, up as upSearchStats } from './0012_search_stats.js';

/**
 * Search statistics without write contention. Under migration 0012 every write to a space upserted the same
 * statistic rows (the space's document count, the rows of its common words), so concurrent creates in one space
 * waited for each other's commit: about 50 creates/s on PostgreSQL however many connections.
 *
 * Now one transaction at a time per workspace writes the statistic tables in place: the one that wins a try-lock
 * (`pg_try_advisory_xact_lock`, which never waits). Any other writer appends its change to delta tables (plain
 * inserts: no row is shared, nothing waits). The winner first folds every committed delta of the workspace into the
 * statistic tables, then applies its own change. Readers sum the statistic rows and the pending deltas (the `*_all`
 * views), so every read is exact whether or not a fold has happened: search results do not change.
 * On PGlite (one connection) the lock is always free: nothing is ever deferred.
 *
 * Why the fold goes first: a change that removes a document is applied in place by a winner, and the delta that
 * counted that document in (if still pending) is committed before the removal could see the document, so the fold
 * sees it. A statistic row is deleted only when it is exactly zero (a negative row would be a count in transit).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table search_space_stats_delta (
      workspace_id text not null, space_id text not null, doc_type text not null, ndocs bigint not null, total_length bigint not null
    )`.execute(db);
  await sql`create index search_space_stats_delta_workspace on search_space_stats_delta (workspace_id)`.execute(db);
  await sql`create table search_terms_delta (
      workspace_id text not null, lexeme text collate "C" not null, space_id text not null, doc_type text not null, ndoc integer not null
    )`.execute(db);
  await sql`create index search_terms_delta_key on search_terms_delta (workspace_id, lexeme)`.execute(db);
  await sql`create table search_words_delta (
      workspace_id text not null, word text collate "C" not null, space_id text not null, doc_type text not null, ndoc integer not null,
      last_seen timestamptz not null
    )`.execute(db);
  await sql`create index search_words_delta_key on search_words_delta (workspace_id, word)`.execute(db);

  for (const [view, cols] of VIEWS)
    await sql.raw(`create view ${view}_all as select ${cols} from ${view} union all select ${cols} from ${view}_delta`).execute(db);

  await sql.raw(FOLD_FUNCTION).execute(db);
  // The triggers of 0012 stay; their functions are replaced.
  for (const d of DOC_TABLES) for (const op of ['insert', 'update', 'delete'] as const) await sql.raw(triggerFunction(d, op)).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [view] of VIEWS) await sql.raw(`drop view if exists ${view}_all`).execute(db);
  for (const [view] of VIEWS) await sql.raw(`drop table if exists ${view}_delta`).execute(db);
  await sql`drop function if exists search_stats_fold(text)`.execute(db);
  // Back to 0012's triggers, with its statistics rebuilt from the documents (pending deltas are gone with their tables).
  await downSearchStats(db);
  await upSearchStats(db);
}

const VIEWS: [string, string][] = [
  ['search_space_stats', 'workspace_id, space_id, doc_type, ndocs, total_length'],
  ['search_terms', 'workspace_id, lexeme, space_id, doc_type, ndoc'],
  ['search_words', 'workspace_id, word, space_id, doc_type, ndoc, last_seen'],
];

/**
 * A change as aggregated statistic rows: from `rows` (document rows with `n` = +1 counted in, -1 counted out), CTEs
 * `s` (per space: n, len), `t` (per lexeme: n) and `w` (per suggestible word: n, seen).
 */
function changeCtes(d: DocTable, rows: string): string {
  const t = `'${d.type}'`;
  // Words offered as completions: 3 to 40 characters, no punctuation (hyphenated words, addresses, paths), not a stop
  // word of the english configuration (checked once per distinct word, after grouping).
  return `d as materialized (${rows}), s as (
      select workspace_id, ${d.space('d')} as space_id, ${t} as doc_type, sum(n) as n, sum(n * length(search_vector)) as len
      from d where ${d.live('d')} group by 1, 2 having sum(n) <> 0 or sum(n * length(search_vector)) <> 0
    ), t as (
      select d.workspace_id, u.lexeme, ${d.space('d')} as space_id, ${t} as doc_type, sum(d.n) as n from d, unnest(d.search_vector) u
      where ${d.live('d')} group by 1, 2, 3 having sum(d.n) <> 0
    ), w as (
      select * from (
        select d.workspace_id, u.lexeme as word, ${d.space('d')} as space_id, ${t} as doc_type, sum(d.n) as n,
          coalesce(max(d.updated_at) filter (where d.n > 0), now()) as seen
        from d, unnest(to_tsvector('simple', ${d.text('d')})) u
        where ${d.live('d')} and length(u.lexeme) between 3 and 40 group by 1, 2, 3 having sum(d.n) <> 0
      ) w0 where word !~ '[[:punct:][:space:]]' and ts_lexize('english_stem', word) <> '{}'
    )`;
}

/** Variables holding the keys of statistic rows an upsert brought to zero. */
const GONE = ['gs_w', 'gs_s', 'gs_t', 'gt_w', 'gt_l', 'gt_s', 'gt_t', 'gw_w', 'gw_l', 'gw_s', 'gw_t'];
const declareGone = GONE.map((v) => `${v} text[];`).join(' ');

/**
 * Upserts CTEs `s`, `t`, `w` into the statistic tables (in key order), then deletes the rows that became zero (only
 * the next statement sees the upserts' results).
 */
const UPSERT_AND_CLEAN = `
    , up_s as (
      insert into search_space_stats as x (workspace_id, space_id, doc_type, ndocs, total_length)
      select workspace_id, space_id, doc_type, n, len from s order by 1, 2, 3
      on conflict (workspace_id, space_id, doc_type) do update set ndocs = x.ndocs + excluded.ndocs, total_length = x.total_length + excluded.total_length
      returning x.workspace_id, x.space_id, x.doc_type, x.ndocs, x.total_length
    ), up_t as (
      insert into search_terms as x (workspace_id, lexeme, space_id, doc_type, ndoc)
      select workspace_id, lexeme, space_id, doc_type, n from t order by 1, 2, 3, 4
      on conflict (workspace_id, lexeme, space_id, doc_type) do update set ndoc = x.ndoc + excluded.ndoc
      returning x.workspace_id, x.lexeme, x.space_id, x.doc_type, x.ndoc
    ), up_w as (
      insert into search_words as x (workspace_id, word, space_id, doc_type, ndoc, last_seen)
      select workspace_id, word, space_id, doc_type, n, seen from w order by 1, 2, 3, 4
      on conflict (workspace_id, word, space_id, doc_type) do update set ndoc = x.ndoc + excluded.ndoc, last_seen = greatest(x.last_seen, excluded.last_seen)
      returning x.workspace_id, x.word, x.space_id, x.doc_type, x.ndoc
    ), zs as (select * from up_s where ndocs = 0 and total_length = 0), zt as (select * from up_t where ndoc = 0), zw as (select * from up_w where ndoc = 0)
    select
      (select array_agg(workspace_id) from zs), (select array_agg(space_id) from zs), (select array_agg(doc_type) from zs),
      (select array_agg(workspace_id) from zt), (select array_agg(lexeme) from zt), (select array_agg(space_id) from zt), (select array_agg(doc_type) from zt),
      (select array_agg(workspace_id) from zw), (select array_agg(word) from zw), (select array_agg(space_id) from zw), (select array_agg(doc_type) from zw)
    into ${GONE.join(', ')};
    if gs_w is not null then
      delete from search_space_stats x using unnest(gs_w, gs_s, gs_t) z(w, s, t)
      where x.workspace_id = z.w and x.space_id = z.s and x.doc_type = z.t and x.ndocs = 0 and x.total_length = 0;
    end if;
    if gt_w is not null then
      delete from search_terms x using unnest(gt_w, gt_l, gt_s, gt_t) z(w, l, s, t)
      where x.workspace_id = z.w and x.lexeme = z.l and x.space_id = z.s and x.doc_type = z.t and x.ndoc = 0;
    end if;
    if gw_w is not null then
      delete from search_words x using unnest(gw_w, gw_l, gw_s, gw_t) z(w, l, s, t)
      where x.workspace_id = z.w and x.word = z.l and x.space_id = z.s and x.doc_type = z.t and x.ndoc = 0;
    end if;`;

/** Folds a workspace's committed deltas into the statistic tables; the caller holds the workspace's fold lock. */
const FOLD_FUNCTION = `create or replace function search_stats_fold(ws text) returns void language plpgsql as $fn$
    declare ${declareGone}
    begin
      if not exists (select 1 from search_space_stats_delta where workspace_id = ws) and not exists (select 1 from search_terms_delta where workspace_id = ws)
        and not exists (select 1 from search_words_delta where workspace_id = ws) then
        return;
      end if;
      with ds as (delete from search_space_stats_delta x where x.workspace_id = ws returning x.*),
      dt as (delete from search_terms_delta x where x.workspace_id = ws returning x.*),
      dw as (delete from search_words_delta x where x.workspace_id = ws returning x.*),
      s as (select workspace_id, space_id, doc_type, sum(ndocs) as n, sum(total_length) as len from ds group by 1, 2, 3),
      t as (select workspace_id, lexeme, space_id, doc_type, sum(ndoc) as n from dt group by 1, 2, 3, 4),
      w as (select workspace_id, word, space_id, doc_type, sum(ndoc) as n, max(last_seen) as seen from dw group by 1, 2, 3, 4)
      ${UPSERT_AND_CLEAN}
    end $fn$`;

/** Rows of a statement's change, per trigger operation (transition tables `new_rows`, `old_rows`). */
function changedRows(d: DocTable, op: 'insert' | 'update' | 'delete'): { rows: string; workspaces: string } {
  if (op === 'insert') return { rows: 'select *, 1 as n from new_rows', workspaces: 'select workspace_id from new_rows' };
  if (op === 'delete') return { rows: 'select *, -1 as n from old_rows', workspaces: 'select workspace_id from old_rows' };
  return {
    rows: `select o.*, -1 as n from old_rows o join new_rows c on c.id = o.id where ${d.changed('o', 'c')}
      union all select c.*, 1 as n from new_rows c join old_rows o on o.id = c.id where ${d.changed('o', 'c')}`,
    workspaces: 'select workspace_id from new_rows union select workspace_id from old_rows',
  };
}

function triggerFunction(d: DocTable, op: 'insert' | 'update' | 'delete'): string {
  const { rows, workspaces } = changedRows(d, op);
  const mine = `select * from (${rows}) r where r.workspace_id = any(locked)`;
  const deferred = `select * from (${rows}) r where r.workspace_id <> all(locked)`;
  return `create or replace function ${d.table}_search_stats_${op}() returns trigger language plpgsql as $fn$
    declare ${declareGone} touched text[]; locked text[]; one text;
    begin
      select coalesce(array_agg(distinct workspace_id), '{}') into touched from (${workspaces}) x;
      -- One writer per workspace in place (a try-lock: it never waits); the others append deltas.
      select coalesce(array_agg(z.ws), '{}') into locked from unnest(touched) z(ws) where pg_try_advisory_xact_lock(hashtext('search-stats:' || z.ws));
      foreach one in array locked loop
        perform search_stats_fold(one);
      end loop;
      if cardinality(locked) > 0 then
        with ${changeCtes(d, mine)}
        ${UPSERT_AND_CLEAN}
      end if;
      if cardinality(locked) < cardinality(touched) then
        with ${changeCtes(d, deferred)},
        ins_s as (insert into search_space_stats_delta select workspace_id, space_id, doc_type, n, len from s),
        ins_t as (insert into search_terms_delta select workspace_id, lexeme, space_id, doc_type, n from t)
        insert into search_words_delta select workspace_id, word, space_id, doc_type, n, seen from w;
      end if;
      return null;
    end $fn$`;
}

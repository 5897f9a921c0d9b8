import { type Kysely, sql } from 'kysely';
import { DOC_TABLES, type DocTable } from './0012_search_stats.js';
import { down as down0016, up as up0016 } from './0016_search_stats_deltas.js';

/**
 * Search statistics without a dead-row storm (issue 29 §5). Under migration 0016 a writer that won the workspace's
 * try-lock folded every pending delta and upserted each of its page's terms and words in place: a page of 300
 * distinct words left ~600 dead row versions behind it, and with autovacuum off 10,000 pages left 185 + 168 MB of dead
 * rows in `search_terms` and `search_words`.
 *
 * Now every write only appends its change, aggregated per statement, to the delta tables (plain inserts: nothing
 * waits, nothing is updated). Readers sum the statistic rows and the pending deltas (the `*_all` views of 0016), so
 * every figure is exact whether or not a fold has run: results never depend on when folds happen.
 * `search_stats_fold_all()` folds all committed deltas in one statement (deleted and aggregated per key, so a common
 * word's row is updated once per fold, not once per page), under one advisory lock. The fold runs as a job
 * (`search.stats.fold`, search.jobs.ts), enqueued by a writer every `FOLD_EVERY` changes (a sequence counts them:
 * no shared row) and every minute; after folding it vacuums the delta tables, so their space is reused and they stay
 * the size of one batch.
 * The statistic tables keep room on each page (fillfactor): a fold's update of a counter stays on its page (a HOT
 * update, no new index entry), and the page's older versions are pruned by the next access, without VACUUM.
 */
export const FOLD_EVERY = 64;
export const FOLD_JOB = 'search.stats.fold';
const STAT_TABLES = ['search_space_stats', 'search_terms', 'search_words'];
const FILLFACTOR = 70;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create sequence if not exists search_stats_changes`.execute(db);
  for (const t of STAT_TABLES) {
    await sql.raw(`alter table ${t} set (fillfactor = ${FILLFACTOR})`).execute(db);
    await sql.raw(`alter table ${t}_delta set (fillfactor = 100)`).execute(db);
  }
  await sql.raw(FOLD_ALL_FUNCTION).execute(db);
  for (const d of DOC_TABLES) for (const op of ['insert', 'update', 'delete'] as const) await sql.raw(triggerFunction(d, op)).execute(db);
  // Fold what 0016 left pending, so the tables start clean.
  await sql`select search_stats_fold_all()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`select search_stats_fold_all()`.execute(db);
  await sql`drop function if exists search_stats_fold_all()`.execute(db);
  await sql`drop sequence if exists search_stats_changes`.execute(db);
  for (const t of STAT_TABLES) await sql.raw(`alter table ${t} reset (fillfactor)`).execute(db);
  // 0016's trigger functions and fold function again (its down/up rebuilds the statistics from the documents).
  await down0016(db);
  await up0016(db);
}

/**
 * A change as aggregated statistic rows (the same as 0016's): from `rows` (document rows with `n` = +1 counted in,
 * -1 counted out), CTEs `s` (per space: n, len), `t` (per lexeme: n) and `w` (per suggestible word: n, seen).
 */
function changeCtes(d: DocTable, rows: string): string {
  const t = `'${d.type}'`;
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

/**
 * Folds every committed delta into the statistic tables in one statement, then deletes the statistic rows that
 * became exactly zero. Returns the number of delta rows folded. Folds are serialised by an advisory lock (a second
 * one waits, then finds what is left); a delta row is deleted, hence counted, exactly once.
 */
const FOLD_ALL_FUNCTION = `create or replace function search_stats_fold_all() returns bigint language plpgsql as $fn$
    declare folded bigint;
    begin
      perform pg_advisory_xact_lock(hashtext('search-stats-fold'));
      with ds as (delete from search_space_stats_delta x returning x.*),
      dt as (delete from search_terms_delta x returning x.*),
      dw as (delete from search_words_delta x returning x.*),
      s as (select workspace_id, space_id, doc_type, sum(ndocs) as n, sum(total_length) as len from ds group by 1, 2, 3),
      t as (select workspace_id, lexeme, space_id, doc_type, sum(ndoc) as n from dt group by 1, 2, 3, 4 having sum(ndoc) <> 0),
      w as (select workspace_id, word, space_id, doc_type, sum(ndoc) as n, max(last_seen) as seen from dw group by 1, 2, 3, 4),
      up_s as (
        insert into search_space_stats as x (workspace_id, space_id, doc_type, ndocs, total_length)
        select workspace_id, space_id, doc_type, n, len from s where n <> 0 or len <> 0 order by 1, 2, 3
        on conflict (workspace_id, space_id, doc_type) do update set ndocs = x.ndocs + excluded.ndocs, total_length = x.total_length + excluded.total_length
        returning 1
      ), up_t as (
        insert into search_terms as x (workspace_id, lexeme, space_id, doc_type, ndoc)
        select workspace_id, lexeme, space_id, doc_type, n from t order by 1, 2, 3, 4
        on conflict (workspace_id, lexeme, space_id, doc_type) do update set ndoc = x.ndoc + excluded.ndoc
        returning 1
      ), up_w as (
        insert into search_words as x (workspace_id, word, space_id, doc_type, ndoc, last_seen)
        select workspace_id, word, space_id, doc_type, n, seen from w where n <> 0 order by 1, 2, 3, 4
        on conflict (workspace_id, word, space_id, doc_type) do update set ndoc = x.ndoc + excluded.ndoc, last_seen = greatest(x.last_seen, excluded.last_seen)
        returning 1
      )
      select (select count(*) from ds) + (select count(*) from dt) + (select count(*) from dw) into folded;
      if folded > 0 then
        -- Only rows a fold can have brought to zero exist at zero; the next statement sees the upserts' results.
        delete from search_space_stats where ndocs = 0 and total_length = 0;
        delete from search_terms where ndoc = 0;
        delete from search_words where ndoc = 0;
      end if;
      return folded;
    end $fn$`;

/** Rows of a statement's change, per trigger operation (transition tables `new_rows`, `old_rows`). */
function changedRows(d: DocTable, op: 'insert' | 'update' | 'delete'): string {
  if (op === 'insert') return 'select *, 1 as n from new_rows';
  if (op === 'delete') return 'select *, -1 as n from old_rows';
  return `select o.*, -1 as n from old_rows o join new_rows c on c.id = o.id where ${d.changed('o', 'c')}
      union all select c.*, 1 as n from new_rows c join old_rows o on o.id = c.id where ${d.changed('o', 'c')}`;
}

/**
 * Appends the statement's change to the deltas; every FOLD_EVERY-th change also enqueues the fold job (one live job
 * at most: the queue's dedupe key).
 */
function triggerFunction(d: DocTable, op: 'insert' | 'update' | 'delete'): string {
  return `create or replace function ${d.table}_search_stats_${op}() returns trigger language plpgsql as $fn$
    declare added bigint;
    begin
      with ${changeCtes(d, changedRows(d, op))},
      ins_s as (insert into search_space_stats_delta select workspace_id, space_id, doc_type, n, len from s returning 1),
      ins_t as (insert into search_terms_delta select workspace_id, lexeme, space_id, doc_type, n from t returning 1),
      ins_w as (insert into search_words_delta select workspace_id, word, space_id, doc_type, n, seen from w returning 1)
      select (select count(*) from ins_s) + (select count(*) from ins_t) + (select count(*) from ins_w) into added;
      if added > 0 and nextval('search_stats_changes') % ${FOLD_EVERY} = 0 then
        insert into jobs (id, kind, max_attempts, dedupe_key) values (gen_random_uuid()::text, '${FOLD_JOB}', 3, '${FOLD_JOB}')
        on conflict (dedupe_key) where dedupe_key is not null and status in ('queued', 'running') do nothing;
      end if;
      return null;
    end $fn$`;
}

import { type Kysely, sql } from 'kysely';

/**
 * Search statistics kept current by triggers, in the same transaction as every write to `pages` or `tasks`:
 * - `search_space_stats`: per (workspace, space, type) the number of searchable documents and the sum of their
 *   lengths (distinct lexemes), for BM25's N and avgdl;
 * - `search_terms`: per (workspace, space, type, lexeme of `search_vector`) the number of documents containing it
 *   (BM25's document frequency);
 * - `search_words`: per (workspace, space, type, unstemmed word) the number of documents using it and when one was
 *   last written: the vocabulary that suggestions complete.
 * Queries sum these rows over the spaces the caller may read, so a private space never shapes what others see.
 * `space_id` is '' for a task without a space. Trashed pages (`deleted_at`) count for nothing.
 * The triggers are statement-level with transition tables: a bulk insert of thousands of pages updates each
 * statistic row once, and an update that changes neither text, space nor trash state does no work.
 * Rows that drop to zero are deleted by the same trigger.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table search_space_stats (
      workspace_id text not null,
      space_id text not null,
      doc_type text not null,
      ndocs bigint not null,
      total_length bigint not null,
      primary key (workspace_id, space_id, doc_type)
    )`.execute(db);
  // Lexemes and words compare bytewise ("C"), so a prefix is a range of the primary key.
  await sql`create table search_terms (
      workspace_id text not null,
      lexeme text collate "C" not null,
      space_id text not null,
      doc_type text not null,
      ndoc integer not null,
      primary key (workspace_id, lexeme, space_id, doc_type)
    )`.execute(db);
  await sql`create table search_words (
      workspace_id text not null,
      word text collate "C" not null,
      space_id text not null,
      doc_type text not null,
      ndoc integer not null,
      last_seen timestamptz not null,
      primary key (workspace_id, word, space_id, doc_type)
    )`.execute(db);

  // Ranking per candidate document: a loop in PL/pgSQL costs a third of the same arithmetic as SQL joins and sums.
  // BM25F with the coverage factor (search.repo.ts explains the terms), and the proximity bonus.
  await sql`create or replace function search_score(v tsvector, qs tsquery[], idf float8[], ops float8[], k1 float8, b float8,
      avgdl float8, title_weight float8, coverage float8, idf_sum float8) returns float8 language plpgsql immutable parallel safe as $fn$
    declare i int; ra float8; rt float8; fa float8; ft float8; w float8; s float8 := 0; c float8 := 0; k float8;
    begin
      k := k1 * (1 - b + b * length(v) / avgdl);
      for i in 1 .. coalesce(array_length(qs, 1), 0) loop
        -- ts_rank of one term with equal weights is H2(tf)/1.645; inverted into tf (all, then title positions only).
        ra := ts_rank('{1,1,1,1}', v, qs[i], 0) * ops[i];
        if ra > 0 then
          rt := ts_rank('{0,0,0,1}', v, qs[i], 0) * ops[i];
          fa := 1.0 / (1.6449341 * (1.0 - least(ra, 0.995))) - 0.5;
          ft := case when rt > 0 then 1.0 / (1.6449341 * (1.0 - least(rt, 0.995))) - 0.5 else 0 end;
          w := title_weight * ft + greatest(fa - ft, 0);
          s := s + idf[i] * w * (k1 + 1) / (w + k);
          c := c + idf[i];
        end if;
      end loop;
      return s * (1 - coverage + coverage * c / idf_sum);
    end $fn$`.execute(db);
  await sql`create or replace function search_proximity(v tsvector, qs tsquery[], weights float8[]) returns float8
      language plpgsql immutable parallel safe as $fn$
    declare i int; cd float8; s float8 := 0;
    begin
      for i in 1 .. coalesce(array_length(qs, 1), 0) loop
        cd := ts_rank_cd('{1,1,1,1}', v, qs[i], 0);
        s := s + weights[i] * cd / (cd + 1);
      end loop;
      return s;
    end $fn$`.execute(db);

  // Title matches of a common word, without reading every matching document (ranking's candidate tiers).
  await sql`create index pages_title_search on pages using gin (to_tsvector('english', title)) where deleted_at is null`.execute(db);
  await sql`create index tasks_title_search on tasks using gin (to_tsvector('english', title))`.execute(db);

  for (const d of DOC_TABLES) {
    for (const op of ['insert', 'update', 'delete'] as const) {
      await sql.raw(triggerFunction(d, op)).execute(db);
      const referencing = op === 'insert' ? 'new table as new_rows' : op === 'delete' ? 'old table as old_rows' : 'old table as old_rows new table as new_rows';
      await sql
        .raw(
          `create trigger ${d.table}_search_stats_${op} after ${op} on ${d.table} referencing ${referencing} for each statement execute function ${d.table}_search_stats_${op}()`,
        )
        .execute(db);
    }
  }

  // Backfill from the documents already there.
  for (const d of DOC_TABLES) await sql.raw(applySql(d, `select *, 1 as n from ${d.table} r where ${d.live('r')}`)).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const d of DOC_TABLES)
    for (const op of ['insert', 'update', 'delete']) {
      await sql.raw(`drop trigger if exists ${d.table}_search_stats_${op} on ${d.table}`).execute(db);
      await sql.raw(`drop function if exists ${d.table}_search_stats_${op}()`).execute(db);
    }
  await sql`drop function if exists search_score(tsvector, tsquery[], float8[], float8[], float8, float8, float8, float8, float8, float8)`.execute(db);
  await sql`drop function if exists search_proximity(tsvector, tsquery[], float8[])`.execute(db);
  await sql`drop index if exists pages_title_search`.execute(db);
  await sql`drop index if exists tasks_title_search`.execute(db);
  await sql`drop table if exists search_words`.execute(db);
  await sql`drop table if exists search_terms`.execute(db);
  await sql`drop table if exists search_space_stats`.execute(db);
}

export interface DocTable {
  table: 'pages' | 'tasks';
  type: 'page' | 'task';
  /** SQL: the space key of row alias `r`. */
  space: (r: string) => string;
  /** SQL: whether row `r` is searchable. */
  live: (r: string) => string;
  /** SQL: the text of row `r` whose words suggestions complete. */
  text: (r: string) => string;
  /** SQL: row `a` and row `b` differ in anything the statistics depend on. */
  changed: (a: string, b: string) => string;
}

export const DOC_TABLES: DocTable[] = [
  {
    table: 'pages',
    type: 'page',
    space: (r) => `${r}.space_id`,
    live: (r) => `${r}.deleted_at is null`,
    text: (r) => `${r}.title || ' ' || ${r}.text_content`,
    changed: (a, b) =>
      `(${a}.search_vector is distinct from ${b}.search_vector or ${a}.title is distinct from ${b}.title or ${a}.text_content is distinct from ${b}.text_content
        or ${a}.space_id is distinct from ${b}.space_id or ${a}.workspace_id is distinct from ${b}.workspace_id or (${a}.deleted_at is null) <> (${b}.deleted_at is null))`,
  },
  {
    table: 'tasks',
    type: 'task',
    space: (r) => `coalesce(${r}.space_id, '')`,
    live: () => 'true',
    text: (r) => `${r}.title || ' ' || coalesce(${r}.description, '')`,
    changed: (a, b) =>
      `(${a}.search_vector is distinct from ${b}.search_vector or ${a}.title is distinct from ${b}.title or ${a}.description is distinct from ${b}.description
        or ${a}.space_id is distinct from ${b}.space_id or ${a}.workspace_id is distinct from ${b}.workspace_id)`,
  },
];

/**
 * One statement that applies a change: `rows` is a query of document rows (table columns) with `n` = +1 (counted
 * in) or -1 (counted out). Upserts run in key order (two concurrent writers lock shared rows in the same order).
 * It returns the keys of the rows the change brought to zero, as parallel arrays, for `cleanupSql`.
 */
function applySql(d: DocTable, rows: string): string {
  const t = `'${d.type}'`;
  // Words offered as completions: 3 to 40 characters, no punctuation (hyphenated words, addresses, paths), not a stop word of the english configuration (checked
  // once per distinct word of the statement, after grouping).
  return `
    with d as materialized (${rows}), s as (
      select workspace_id, ${d.space('d')} as space_id, sum(n) as n, sum(n * length(search_vector)) as len
      from d where ${d.live('d')} group by 1, 2 having sum(n) <> 0 or sum(n * length(search_vector)) <> 0
    ), up_s as (
      insert into search_space_stats as x (workspace_id, space_id, doc_type, ndocs, total_length)
      select workspace_id, space_id, ${t}, n, len from s order by 1, 2
      on conflict (workspace_id, space_id, doc_type) do update set ndocs = x.ndocs + excluded.ndocs, total_length = x.total_length + excluded.total_length
      returning x.workspace_id, x.space_id, x.ndocs
    ), up_t as (
      insert into search_terms as x (workspace_id, lexeme, space_id, doc_type, ndoc)
      select d.workspace_id, u.lexeme, ${d.space('d')}, ${t}, sum(d.n) from d, unnest(d.search_vector) u
      where ${d.live('d')} group by 1, 2, 3 having sum(d.n) <> 0 order by 1, 2, 3
      on conflict (workspace_id, lexeme, space_id, doc_type) do update set ndoc = x.ndoc + excluded.ndoc
      returning x.workspace_id, x.lexeme, x.space_id, x.ndoc
    ), w as (
      select d.workspace_id, u.lexeme as word, ${d.space('d')} as space_id, sum(d.n) as n,
        coalesce(max(d.updated_at) filter (where d.n > 0), now()) as seen
      from d, unnest(to_tsvector('simple', ${d.text('d')})) u
      where ${d.live('d')} and length(u.lexeme) between 3 and 40 group by 1, 2, 3 having sum(d.n) <> 0
    ), up_w as (
      insert into search_words as x (workspace_id, word, space_id, doc_type, ndoc, last_seen)
      select workspace_id, word, space_id, ${t}, n, seen from w
      where word !~ '[[:punct:][:space:]]' and ts_lexize('english_stem', word) <> '{}' order by 1, 2, 3
      on conflict (workspace_id, word, space_id, doc_type) do update set ndoc = x.ndoc + excluded.ndoc, last_seen = greatest(x.last_seen, excluded.last_seen)
      returning x.workspace_id, x.word, x.space_id, x.ndoc
    )
    select
      (select array_agg(workspace_id) from up_s where ndocs <= 0), (select array_agg(space_id) from up_s where ndocs <= 0),
      (select array_agg(workspace_id) from up_t where ndoc <= 0), (select array_agg(lexeme) from up_t where ndoc <= 0),
      (select array_agg(space_id) from up_t where ndoc <= 0),
      (select array_agg(workspace_id) from up_w where ndoc <= 0), (select array_agg(word) from up_w where ndoc <= 0),
      (select array_agg(space_id) from up_w where ndoc <= 0)`;
}

const GONE = 'gs_w, gs_s, gt_w, gt_l, gt_s, gw_w, gw_l, gw_s';

/** Deletes the rows that the change brought to zero (only the next statement sees the upserts' results). */
function cleanupSql(d: DocTable): string {
  const t = `'${d.type}'`;
  return `
    if gs_w is not null then
      delete from search_space_stats x using unnest(gs_w, gs_s) z(w, s)
      where x.workspace_id = z.w and x.space_id = z.s and x.doc_type = ${t} and x.ndocs <= 0;
    end if;
    if gt_w is not null then
      delete from search_terms x using unnest(gt_w, gt_l, gt_s) z(w, l, s)
      where x.workspace_id = z.w and x.lexeme = z.l and x.space_id = z.s and x.doc_type = ${t} and x.ndoc <= 0;
    end if;
    if gw_w is not null then
      delete from search_words x using unnest(gw_w, gw_l, gw_s) z(w, l, s)
      where x.workspace_id = z.w and x.word = z.l and x.space_id = z.s and x.doc_type = ${t} and x.ndoc <= 0;
    end if;`;
}

function triggerFunction(d: DocTable, op: 'insert' | 'update' | 'delete'): string {
  let rows: string;
  if (op === 'insert') rows = 'select *, 1 as n from new_rows';
  else if (op === 'delete') rows = 'select *, -1 as n from old_rows';
  else
    rows = `select o.*, -1 as n from old_rows o join new_rows c on c.id = o.id where ${d.changed('o', 'c')}
      union all select c.*, 1 as n from new_rows c join old_rows o on o.id = c.id where ${d.changed('o', 'c')}`;
  return `create or replace function ${d.table}_search_stats_${op}() returns trigger language plpgsql as $fn$
    declare ${GONE.split(', ')
      .map((v) => `${v} text[];`)
      .join(' ')}
    begin
      ${applySql(d, rows)} into ${GONE};
      ${cleanupSql(d)}
      return null;
    end $fn$`;
}

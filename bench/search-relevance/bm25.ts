/**
 * Shared by the relevance benches (bench/search-relevance, bench/search-collections): a plain BM25 ranker computed in
 * JS (the reference our ranking is compared to), nDCG@10, and seeding a judged corpus into a workspace.
 */
import { sql } from 'kysely';
import type { Database } from '../../src/db/index.js';
import { newId } from '../../src/ids.js';

/** BM25 constants of the reference rankers (Lucene's defaults). */
export const K1 = 1.2;
export const B = 0.75;

/** Term frequencies of one document. */
export type Tf = Map<string, number>;

interface Indexed {
  key: string;
  tf: Tf;
  len: number;
}

/**
 * A BM25 ranker (k1 = 1.2, b = 0.75, Lucene idf, any-word match) over documents given as tokens or term frequencies
 * (their sum is the length). Returns a function ranking every matching document for query terms, best first.
 */
export function bm25Index(docs: { key: string; tokens: string[] | Tf }[]) {
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

/** nDCG@10 with exponential gain (2^grade - 1); documents not judged count as 0. */
export function ndcg10(ranking: string[], judgments: Record<string, number>): number {
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

/** A document to seed: a page (title, body as one paragraph) or a task (title, description). */
export interface SeedDoc {
  key: string;
  type?: 'page' | 'task';
  title: string;
  body: string;
}

export interface Seeded {
  userId: string;
  workspaceId: string;
  spaceId: string;
  keyOf: (id: string) => string;
}

/** Rows a seeding statement inserts at most. */
export const SEED_BATCH = 500;

/**
 * A new user, workspace (the user an editor of it) and space holding `docs`, inserted by batches of one multi-row
 * statement each (`insert … select from unnest(arrays)`: the statistics triggers run once a batch). Documents get
 * `updated_at` a millisecond apart in the given order (as if inserted one at a time), so ties rank the same on
 * every run: the later document first.
 */
export async function seedCorpus(database: Database, docs: SeedDoc[], name = 'Bench'): Promise<Seeded> {
  const db = database.db;
  const userId = newId();
  const workspaceId = newId();
  const spaceId = newId();
  await sql`insert into users (id, email, name) values (${userId}, ${`bench-${userId}@example.com`}, 'Bench')`.execute(db);
  await sql`insert into workspaces (id, name, hostname, settings) values (${workspaceId}, ${name}, ${`bench-${workspaceId.slice(-8)}`}, '{}')`.execute(db);
  await sql`insert into workspace_members (workspace_id, user_id, role) values (${workspaceId}, ${userId}, 'editor')`.execute(db);
  await sql`insert into spaces (id, workspace_id, name, slug) values (${spaceId}, ${workspaceId}, 'Handbook', 'handbook')`.execute(db);
  const idOf = new Map<string, string>();
  const { rows } = await sql<{ t: string }>`select (now() - interval '1 day')::text as t`.execute(db);
  const t0 = rows[0].t;
  const items = docs.map((d, i) => ({ ...d, id: newId(), n: i }));
  for (const d of items) idOf.set(d.id, d.key);
  const pages = items.filter((d) => (d.type ?? 'page') === 'page');
  const tasks = items.filter((d) => d.type === 'task');
  for (let start = 0; start < pages.length; start += SEED_BATCH) {
    const b = pages.slice(start, start + SEED_BATCH);
    await sql`insert into pages (id, workspace_id, space_id, title, slug, content, text_content, position, created_at, updated_at)
      select id, ${workspaceId}, ${spaceId}, title, slug, jsonb_build_object('type', 'doc', 'content', jsonb_build_array(jsonb_build_object('type', 'paragraph',
        'content', jsonb_build_array(jsonb_build_object('type', 'text', 'text', body))))), body,
        'a' || lpad((${start}::int + k - 1)::text, 6, '0'), ${t0}::timestamptz + n * interval '1 millisecond', ${t0}::timestamptz + n * interval '1 millisecond'
      from unnest(${b.map((d) => d.id)}::text[], ${b.map((d) => d.title)}::text[], ${b.map((d) => d.key)}::text[], ${b.map((d) => d.body)}::text[],
        ${b.map((d) => d.n)}::int[]) with ordinality as x(id, title, slug, body, n, k)`.execute(db);
  }
  for (let start = 0; start < tasks.length; start += SEED_BATCH) {
    const b = tasks.slice(start, start + SEED_BATCH);
    await sql`insert into tasks (id, workspace_id, space_id, title, description, created_at, updated_at)
      select id, ${workspaceId}, ${spaceId}, title, body, ${t0}::timestamptz + n * interval '1 millisecond', ${t0}::timestamptz + n * interval '1 millisecond'
      from unnest(${b.map((d) => d.id)}::text[], ${b.map((d) => d.title)}::text[], ${b.map((d) => d.body)}::text[], ${b.map((d) => d.n)}::int[]) as x(id, title, body, n)`.execute(
      db,
    );
  }
  return { userId, workspaceId, spaceId, keyOf: (id: string) => idOf.get(id) as string };
}

/**
 * Term frequencies of each document under the `english` analyser (`to_tsvector('english', title || ' ' || body)`, the
 * lexemes our index holds), computed in SQL by batches.
 */
export async function englishTf(database: Database, docs: { key: string; title: string; body: string }[]): Promise<{ key: string; tokens: Tf }[]> {
  const out: { key: string; tokens: Tf }[] = [];
  for (let start = 0; start < docs.length; start += SEED_BATCH) {
    const b = docs.slice(start, start + SEED_BATCH);
    const { rows } = await sql<{ k: number; lexemes: string[] | null; counts: number[] | null }>`
      select x.k::int as k, array_agg(u.lexeme) as lexemes, array_agg(array_length(u.positions, 1)) as counts
      from unnest(${b.map((d) => `${d.title} ${d.body}`)}::text[]) with ordinality as x(text, k)
      left join lateral unnest(to_tsvector('english', x.text)) u on true
      group by x.k order by x.k`.execute(database.db);
    for (const r of rows) {
      const tf: Tf = new Map();
      (r.lexemes ?? []).forEach((l, i) => {
        if (l !== null) tf.set(l, Number((r.counts ?? [])[i]));
      });
      out.push({ key: b[r.k - 1].key, tokens: tf });
    }
  }
  return out;
}

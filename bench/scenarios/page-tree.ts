import { generateNKeysBetween } from 'fractional-indexing';
import { sql } from 'kysely';
import type { Db } from '../../src/db/index.js';
import { vacuumAndAnalyze } from '../../src/db/upkeep.js';
import { newId } from '../../src/ids.js';
import { measureAll } from '../lib/measure.js';
import { startBare, type Target } from '../lib/target.js';
import type { Scenario } from './types.js';

const ROOTS = 100;
const CHILDREN = 99;

/** A small deterministic generator (mulberry32), so every run seeds the same text. */
export function randomSource(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const COMMON =
  'the of and to in is for that on with as it be this are by from at or an have not we will can team page project plan review release customer data service meeting notes update issue design document process support user report time week'.split(
    ' ',
  );
const SYLLABLES = 'ka lo mi ne ru sa ti vo ber gan dor fel hin jor kel mun pra sti tor wen'.split(' ');

/**
 * Text that looks like a team's notes to the search statistics: common words most of the time, and a long tail of
 * rarer made-up words (Zipf-like), so pages share some lexemes and differ in others.
 */
export function realisticText(random: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    if (random() < 0.7) out.push(COMMON[Math.floor(random() * random() * COMMON.length)]);
    else {
      const rank = Math.floor(1 / (random() * 0.999 + 0.001)); // 1 … 1000, heavy-tailed
      let w = '';
      for (let n = rank; w.length < 4 || n > 0; n = Math.floor(n / SYLLABLES.length)) w += SYLLABLES[n % SYLLABLES.length];
      out.push(w);
    }
  }
  return out.join(' ');
}

/** A document of a few paragraphs of `realisticText`, and its plain text. */
export function realisticDocument(random: () => number, paragraphs: number) {
  const texts = Array.from({ length: paragraphs }, () => `${realisticText(random, 60)}.`);
  return {
    doc: { type: 'doc', content: texts.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })) },
    text: texts.join('\n'),
  };
}

/** A user, their API key, a workspace and a space, made through the API. */
export async function seedSpace(target: Target, tag: string) {
  const signup = await target.call('POST', '/api/v1/auth/signup', undefined, { email: `bench-${tag}@example.com`, name: 'Bench', password: 'bench-password' });
  const jwt: string = signup.data.token;
  const key: string = (await target.call('POST', '/api/v1/api-keys', jwt, { name: 'bench' })).data.key;
  const workspaceId: string = (await target.call('POST', '/api/v1/workspaces', jwt, { name: 'Bench', hostname: `bench-${tag}` })).data.id;
  const spaceId: string = (await target.call('POST', '/api/v1/spaces', jwt, { workspaceId, name: 'Tree' })).data.id;
  return { jwt, key, workspaceId, spaceId, userId: signup.data.user.id as string };
}

/**
 * `ROOTS` root pages of `CHILDREN` children each, with realistic text and a first history entry each (what a create
 * through the API stores), written straight into the tables in batches: seeding through HTTP would take minutes.
 */
async function seedTree(db: Db, s: { workspaceId: string; spaceId: string; userId: string }) {
  const random = randomSource(42);
  const row = (parentId: string | null, position: string, title: string) => {
    const { doc, text } = realisticDocument(random, 4);
    const now = new Date();
    return {
      page: {
        id: newId(),
        workspaceId: s.workspaceId,
        spaceId: s.spaceId,
        parentId,
        title,
        slug: title.toLowerCase().replace(/\s+/g, '-'),
        icon: null,
        content: JSON.stringify(doc),
        textContent: text,
        position,
        version: 1,
        createdBy: s.userId,
        updatedBy: s.userId,
        createdAt: now,
        updatedAt: now,
      },
      // The current version's content lives in the page row only (migration 0017), as a create through the API stores it.
      history: {
        id: newId(),
        workspaceId: s.workspaceId,
        version: 1,
        title,
        content: null,
        summary: 'Created page',
        createdBy: s.userId,
        createdAt: now,
      },
    };
  };
  const insert = async (rows: ReturnType<typeof row>[]) => {
    await db
      .insertInto('pages')
      .values(rows.map((r) => r.page))
      .execute();
    await db
      .insertInto('pageHistory')
      .values(rows.map((r) => ({ ...r.history, pageId: r.page.id })))
      .execute();
  };
  const roots = generateNKeysBetween(null, null, ROOTS).map((p, i) => row(null, p, `Topic ${i + 1} ${realisticText(random, 3)}`));
  await insert(roots);
  const childKeys = generateNKeysBetween(null, null, CHILDREN);
  for (let i = 0; i < roots.length; i += 10) {
    const batch = roots.slice(i, i + 10).flatMap((r) => childKeys.map((p, j) => row(r.page.id, p, `Note ${j + 1} ${realisticText(random, 4)}`)));
    await insert(batch);
  }
}

/** Bytes on disk per table (heap, TOAST, indexes) and per index, largest first: where the database goes. */
export async function sizeBreakdown(db: Db) {
  const tables = await sql<{ name: string; total: number; heap: number; toast: number; indexes: number }>`
    select c.relname as name, pg_total_relation_size(c.oid)::int8 as total, pg_relation_size(c.oid)::int8 as heap,
      coalesce(pg_total_relation_size(nullif(c.reltoastrelid, 0)), 0)::int8 as toast, pg_indexes_size(c.oid)::int8 as indexes
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind = 'r' order by 2 desc limit 12`.execute(db);
  const indexes = await sql<{ name: string; tbl: string; size: number }>`
    select i.relname as name, t.relname as tbl, pg_relation_size(i.oid)::int8 as size
    from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid join pg_namespace n on n.oid = t.relnamespace
    where n.nspname = 'public' and t.relname in ('pages', 'page_history', 'search_terms', 'search_words') order by 3 desc`.execute(db);
  const columns = await sql<Record<string, number>>`
    select sum(pg_column_size(content))::int8 as content, sum(pg_column_size(text_content))::int8 as text_content,
      sum(pg_column_size(search_vector))::int8 as search_vector, sum(pg_column_size(title_words))::int8 as title_words
    from pages`.execute(db);
  return { tables: tables.rows, indexes: indexes.rows, columns: columns.rows[0] };
}

const kb = (n: number) => `${Math.round(Number(n) / 1024).toLocaleString('en-US')} KB`;

export function printSizes(sizes: Awaited<ReturnType<typeof sizeBreakdown>>) {
  console.log('  database size by table (total = heap + TOAST + indexes):');
  for (const t of sizes.tables)
    console.log(`    ${t.name.padEnd(26)} ${kb(t.total).padStart(10)}  heap ${kb(t.heap)}, TOAST ${kb(t.toast)}, indexes ${kb(t.indexes)}`);
  console.log('  indexes of pages, page_history, search_terms, search_words:');
  for (const i of sizes.indexes) console.log(`    ${i.name.padEnd(32)} ${kb(i.size).padStart(10)}`);
  console.log(
    `  pages columns (stored, compressed): ${Object.entries(sizes.columns)
      .map(([k, v]) => `${k} ${kb(v)}`)
      .join(', ')}`,
  );
}

/**
 * Issue 11's tree bench: the first level (100 roots, each with 99 children) of a 10,000-page space, listed as (a) the
 * full page list (every field, `childCount`: today's answer) and (b) the tree view (`hasChildren`), against (c) a bare
 * route selecting the tree view's columns and `hasChildren` for the same 100 roots with the same query shape and
 * nothing else (no auth, no total count, no validation, no presenter): the floor of the tree view, doing no more
 * work than the service. Answer sizes are printed beside.
 */
export const pageTree: Scenario = {
  name: 'page-tree',
  description: `list the ${ROOTS} roots of a ${ROOTS * (CHILDREN + 1)}-page tree with childCount: full list vs tree view vs a bare select`,
  async run(target, load) {
    const s = await seedSpace(target, 'tree');
    const db = target.database.db;
    await seedTree(db, s);
    await vacuumAndAnalyze(db);
    printSizes(await sizeBreakdown(db));
    const list = `${target.appUrl}/api/v1/pages?workspaceId=${s.workspaceId}&spaceId=${s.spaceId}&parentId=null&limit=${ROOTS}`;
    const full = await target.call('GET', list.slice(target.appUrl.length), s.jwt);
    if (full.meta.total !== ROOTS || full.data[0].childCount !== CHILDREN)
      throw new Error(`seeded ${full.meta.total} roots, ${full.data[0].childCount} children`);
    const tree = await target.call('GET', `${list.slice(target.appUrl.length)}&view=tree`, s.jwt).catch(() => null);
    console.log(`  answer bytes: full list ${Buffer.byteLength(JSON.stringify(full))}, tree view ${Buffer.byteLength(JSON.stringify(tree))}`);

    const bare = await startBare((app) => {
      app.get('/roots', async () => {
        const rows = await sql`
          select p.id, p.title, p.icon, p.parent_id, p.position, p.updated_at,
            exists (select 1 from pages c where c.workspace_id = p.workspace_id and c.space_id = p.space_id and c.parent_id = p.id and c.deleted_at is null) as has_children
          from pages p where p.workspace_id = ${s.workspaceId} and p.space_id = ${s.spaceId} and p.parent_id is null and p.deleted_at is null
          order by p.position, p.id limit ${ROOTS}`.execute(db);
        return { data: rows.rows };
      });
    });
    const auth = { authorization: `Bearer ${s.key}` };
    try {
      const routes = [
        { label: `(a) GET /api/v1/pages roots, limit ${ROOTS}, full list`, url: list, headers: auth },
        { label: '(b) the same with view=tree', url: `${list}&view=tree`, headers: auth },
        { label: '(c) bare route, select of the tree columns + hasChildren', url: `${bare.url}/roots` },
      ];
      const [a, b, c] = await measureAll(routes, load);
      return {
        measurements: [a, b, c],
        ratios: [
          { label: 'b/a (tree view vs the full list, today’s answer)', value: b.reqPerSec / a.reqPerSec, atLeast: 2 },
          { label: 'b/c (tree view vs bare select)', value: b.reqPerSec / c.reqPerSec },
          { label: 'a/c (full list vs bare select)', value: a.reqPerSec / c.reqPerSec },
        ],
      };
    } finally {
      await bare.close();
    }
  },
};

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_STATS_FOLD_JOB, searchJobs } from '../../src/areas/search/search.jobs.js';
import { foldSearchStats } from '../../src/areas/search/search.stats.repo.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type TestUser, workspaceWithRoles } from '../helpers/factories.js';

/** The statistics behind ranking and suggestions (migration 0012) follow every write in the same transaction. */
let t: TestApp;
let ws: string;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;
let wiki: string;
let vault: string;

async function space(name: string, visibility: 'public' | 'private') {
  const res = await t.request({ method: 'POST', url: '/api/v1/spaces', token: admin.token, body: { workspaceId: ws, name, visibility } });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

async function page(spaceId: string, title: string, markdown: string) {
  const res = await t.request({ method: 'POST', url: '/api/v1/pages', token: admin.token, body: { workspaceId: ws, spaceId, title, markdown } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id as string;
}

const search = (token: string, query: string) => t.request({ url: '/api/v1/search', token, query: { workspaceId: ws, query } });
const suggest = (token: string, query: string) => t.request({ url: '/api/v1/search/suggest', token, query: { workspaceId: ws, query } });
const keywords = async (token: string, query: string) => {
  const res = await suggest(token, query);
  expect(res.status).toBe(200);
  return res.body.data.filter((s: { type: string }) => s.type === 'keyword').map((s: { text: string }) => s.text);
};
const scoreOf = async (token: string, query: string, id: string) => {
  const res = await search(token, query);
  expect(res.status).toBe(200);
  return res.body.data.find((r: { id: string }) => r.id === id)?.score as number | undefined;
};

/** The statistics as read (stored rows plus pending deltas), per space: document counts, lexemes and words in use. */
async function stored(spaceId: string) {
  const db = t.database.db;
  const docs = await sql<{
    n: number;
  }>`select coalesce(sum(ndocs), 0)::int as n from search_space_stats_all where workspace_id = ${ws} and space_id = ${spaceId}`.execute(db);
  const terms = await sql<{
    n: number;
  }>`select count(*)::int as n from (select lexeme from search_terms_all where workspace_id = ${ws} and space_id = ${spaceId}
    group by lexeme, doc_type having sum(ndoc) <> 0) x`.execute(db);
  const words = await sql<{ n: number }>`select count(*)::int as n from (select word from search_words_all where workspace_id = ${ws} and space_id = ${spaceId}
    group by word, doc_type having sum(ndoc) <> 0) x`.execute(db);
  return { docs: docs.rows[0].n, terms: terms.rows[0].n, words: words.rows[0].n };
}

/** Moves every statistic row of the workspace into the delta tables, as writers that lost the fold lock leave them. */
async function moveStatisticsToDeltas() {
  const db = t.database.db;
  for (const table of ['search_space_stats', 'search_terms', 'search_words'])
    await sql`with moved as (delete from ${sql.table(table)} where workspace_id = ${ws} returning *) insert into ${sql.table(`${table}_delta`)} select * from moved`.execute(
      db,
    );
}

async function pendingDeltas(): Promise<number> {
  const { rows } = await sql<{ n: number }>`select (select count(*) from search_space_stats_delta where workspace_id = ${ws})
      + (select count(*) from search_terms_delta where workspace_id = ${ws}) + (select count(*) from search_words_delta where workspace_id = ${ws}) as n`.execute(
    t.database.db,
  );
  return Number(rows[0].n);
}

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, editor, viewer } = await workspaceWithRoles(t));
  ws = (await t.request({ url: '/api/v1/workspaces', token: admin.token })).body.data[0].id;
  wiki = await space('Wiki', 'public');
  vault = await space('Vault', 'private');
  const added = await t.request({
    method: 'POST',
    url: `/api/v1/spaces/${vault}/members`,
    token: admin.token,
    body: { workspaceId: ws, userIds: [editor.id], role: 'viewer' },
  });
  expect(added.status, JSON.stringify(added.body)).toBeLessThan(300);
});
afterAll(() => t.close());

describe('search statistics stay current', () => {
  it('follow a page text update: new words are found and suggested, old ones are gone', async () => {
    const id = await page(wiki, 'Greenhouse log', 'The marigold seedlings sprouted today.');
    expect((await search(viewer.token, 'marigold')).body.data.map((r: { id: string }) => r.id)).toEqual([id]);
    expect(await keywords(viewer.token, 'marig')).toEqual(['marigold']);

    const put = await t.request({
      method: 'PUT',
      url: `/api/v1/pages/${id}`,
      token: admin.token,
      body: { workspaceId: ws, markdown: 'The hibiscus cuttings rooted today.' },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect((await search(viewer.token, 'marigold')).body.data).toEqual([]);
    expect(await keywords(viewer.token, 'marig')).toEqual([]);
    expect((await search(viewer.token, 'hibiscus')).body.data.map((r: { id: string }) => r.id)).toEqual([id]);
    expect(await keywords(viewer.token, 'hibis')).toEqual(['hibiscus']);
    // A move or a title-only edit keeps the counts exact (one document, counted once).
    const retitle = await t.request({ method: 'PUT', url: `/api/v1/pages/${id}`, token: admin.token, body: { workspaceId: ws, title: 'Greenhouse journal' } });
    expect(retitle.status).toBe(200);
    const { rows } = await sql<{
      ndoc: number;
    }>`select sum(ndoc)::int as ndoc from search_terms_all where workspace_id = ${ws} and space_id = ${wiki} and lexeme = 'hibiscus'`.execute(t.database.db);
    expect(rows).toEqual([{ ndoc: 1 }]);
  });

  it('follow the trash: a trashed page stops counting and a recovered one counts again', async () => {
    const common = await page(wiki, 'Tulip bulbs', 'Plant tulip bulbs in autumn, before the frost.');
    const other = await page(wiki, 'Crocus and tulip', 'Crocus flowers early; the tulip comes later. Zinnia seeds wait for summer.');
    const before = await scoreOf(viewer.token, 'tulip', common);
    expect(await keywords(viewer.token, 'zinn')).toEqual(['zinnia']);

    const del = await t.request({ method: 'DELETE', url: `/api/v1/pages/${other}`, token: admin.token, query: { workspaceId: ws } });
    expect(del.status).toBe(200);
    expect(await keywords(viewer.token, 'zinn')).toEqual([]);
    expect(await keywords(admin.token, 'zinn')).toEqual([]);
    const trashed = await search(viewer.token, 'tulip');
    expect(trashed.body.data.map((r: { id: string }) => r.id)).toEqual([common]);
    // One document with "tulip" among fewer: the word is rarer, so the same page scores differently.
    expect(trashed.body.data[0].score).not.toBe(before);

    const rec = await t.request({ method: 'POST', url: `/api/v1/pages/${other}/recover`, token: admin.token, body: { workspaceId: ws } });
    expect(rec.status, JSON.stringify(rec.body)).toBe(200);
    expect(await keywords(viewer.token, 'zinn')).toEqual(['zinnia']);
    expect(await scoreOf(viewer.token, 'tulip', common)).toBe(before);
  });

  it('leave private spaces out of what others see, scores included', async () => {
    const open = await page(wiki, 'Orchid care', 'Water the orchid once a week.');
    const viewerBefore = await scoreOf(viewer.token, 'orchid watering', open);
    await page(vault, 'Orchid budget', 'Orchid purchases for the lobby, orchid orchid.');
    await page(vault, 'Orchid supplier', 'The orchid supplier contract, confidential wisteria terms.');
    // The viewer cannot read the vault: its documents change neither their results, their scores nor their words.
    expect((await search(viewer.token, 'orchid')).body.data.map((r: { id: string }) => r.id)).toEqual([open]);
    expect(await scoreOf(viewer.token, 'orchid watering', open)).toBe(viewerBefore);
    expect(await keywords(viewer.token, 'wister')).toEqual([]);
    // A member of the vault sees them, and the word is more common for them.
    expect((await search(editor.token, 'orchid')).body.data).toHaveLength(3);
    expect(await scoreOf(editor.token, 'orchid watering', open)).not.toBe(viewerBefore);
    expect(await keywords(editor.token, 'wister')).toEqual(['wisteria']);
  });

  it('follow tasks, with or without a space', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/tasks',
      token: admin.token,
      body: { workspaceId: ws, title: 'Order begonia pots', description: 'Terracotta, twelve of them.' },
    });
    expect(res.status).toBe(201);
    const taskId = res.body.data.id;
    expect(await keywords(viewer.token, 'bego')).toEqual(['begonia']);
    expect(await keywords(viewer.token, 'terrac')).toEqual(['terracotta']);
    const put = await t.request({ method: 'PUT', url: `/api/v1/tasks/${taskId}`, token: admin.token, body: { description: 'Clay, twelve of them.' } });
    expect(put.status).toBe(200);
    expect(await keywords(viewer.token, 'terrac')).toEqual([]);
    // Moved into the private space: gone for the viewer, there for a member.
    const moved = await t.request({ method: 'PUT', url: `/api/v1/tasks/${taskId}`, token: admin.token, body: { spaceId: vault } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(await keywords(viewer.token, 'bego')).toEqual([]);
    expect(await keywords(editor.token, 'bego')).toEqual(['begonia']);
    const del = await t.request({ method: 'DELETE', url: `/api/v1/tasks/${taskId}`, token: admin.token });
    expect(del.status).toBe(200);
    expect(await keywords(editor.token, 'bego')).toEqual([]);
  });

  it('follow the deletion of a space: its statistics are removed', async () => {
    const garden = await space('Garden', 'public');
    await page(garden, 'Lavender hedge', 'Prune the lavender hedge in spring.');
    const tk = await t.request({
      method: 'POST',
      url: '/api/v1/tasks',
      token: admin.token,
      body: { workspaceId: ws, spaceId: garden, title: 'Buy lavender shears' },
    });
    expect(tk.status).toBe(201);
    expect(await keywords(viewer.token, 'laven')).toEqual(['lavender']);
    expect(await stored(garden)).toMatchObject({ docs: 2 });
    const del = await t.request({ method: 'DELETE', url: `/api/v1/spaces/${garden}`, token: admin.token, query: { workspaceId: ws } });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect(await keywords(viewer.token, 'laven')).toEqual([]);
    expect((await search(viewer.token, 'lavender')).body.data).toEqual([]);
    expect(await stored(garden)).toEqual({ docs: 0, terms: 0, words: 0 });
  });

  it('count pending deltas exactly, and fold them into one row per key, emptying the deltas', async () => {
    const id = await page(wiki, 'Quince jelly', 'Quince jelly needs patience; the quince must simmer for hours.');
    const before = { results: (await search(viewer.token, 'quince')).body.data, keywords: await keywords(viewer.token, 'quin') };
    expect(before.results.map((r: { id: string }) => r.id)).toEqual([id]);
    // Every write appends its change; nothing is updated in place until a fold.
    expect(await pendingDeltas()).toBeGreaterThan(0);
    await moveStatisticsToDeltas();
    expect((await search(viewer.token, 'quince')).body.data).toEqual(before.results);
    expect(await keywords(viewer.token, 'quin')).toEqual(before.keywords);
    // The fold job's work: one statement, then the delta tables are empty and each key is one row.
    const folded = await searchJobs.handlers[SEARCH_STATS_FOLD_JOB]({} as never, { db: t.database.db } as never);
    expect(folded).toMatchObject({ vacuumed: true });
    expect(await pendingDeltas()).toBe(0);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from search_terms where workspace_id = ${ws} and lexeme = 'quinc'`.execute(
      t.database.db,
    );
    expect(rows[0].n).toBe(1);
    expect((await search(viewer.token, 'quince')).body.data).toEqual(before.results);
    expect(await keywords(viewer.token, 'quin')).toEqual(before.keywords);
  });

  it('have writers enqueue the fold every 64 changes, once while one is waiting', async () => {
    const queued = async () =>
      Number(
        (await sql<{ n: number }>`select count(*)::int as n from jobs where kind = ${SEARCH_STATS_FOLD_JOB} and status = 'queued'`.execute(t.database.db))
          .rows[0].n,
      );
    await sql`delete from jobs where kind = ${SEARCH_STATS_FOLD_JOB}`.execute(t.database.db);
    for (let i = 0; i < 130; i++) await page(wiki, `Medlar ${i}`, `Medlar fruit number ${i} ripens after frost.`);
    expect(await queued()).toBe(1);
    const found = (await search(viewer.token, 'medlar')).body.data;
    expect(found.length).toBeGreaterThan(0);
  });

  it('match a recount from the documents themselves, once folded', async () => {
    const db = t.database.db;
    await foldSearchStats(db);
    const { rows } = await sql<{ bad: number }>`
      with truth as (
        select p.workspace_id, p.space_id, u.lexeme, count(*)::int as n from pages p, unnest(p.search_vector) u
        where p.workspace_id = ${ws} and p.deleted_at is null group by 1, 2, 3
      )
      select count(*)::int as bad from truth full join (select * from search_terms where workspace_id = ${ws} and doc_type = 'page') s
        on s.workspace_id = truth.workspace_id and s.space_id = truth.space_id and s.lexeme = truth.lexeme
      where s.ndoc is distinct from truth.n`.execute(db);
    expect(rows[0].bad).toBe(0);
    const docs = await sql<{ bad: number }>`
      with truth as (
        select space_id, count(*)::int as n, sum(length(search_vector))::int as len from pages where workspace_id = ${ws} and deleted_at is null group by 1
      )
      select count(*)::int as bad from truth full join (select * from search_space_stats where workspace_id = ${ws} and doc_type = 'page') s
        on s.space_id = truth.space_id
      where s.ndocs is distinct from truth.n or s.total_length is distinct from truth.len`.execute(db);
    expect(docs.rows[0].bad).toBe(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseQuery } from '../../src/areas/search/search.parse.js';
import { buildPlan, CANDIDATE_BUDGET, candidatePlan } from '../../src/areas/search/search.plan.js';
import { type SearchScope, searchRepo } from '../../src/areas/search/search.repo.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { createSpace } from '../spaces/helpers.js';

/**
 * Search over a corpus where a word is in more than `CANDIDATE_BUDGET` documents, so ranking reads candidates from
 * the common-word plan (the rarest words' documents, or title/all-words/rarest-word tiers) instead of every match.
 * The small corpora of search.test.ts never reach it: there, that plan could return nothing and no test noticed.
 */

const FILLER = 300;
const WITH_LANTERN = 260;

let t: TestApp;
let ws: string;
let space: string;
let editor: TestUser;
const ids: Record<string, string> = {};

async function page(title: string, markdown: string): Promise<string> {
  const res = await t.request({ method: 'POST', url: '/api/v1/pages', token: editor.token, body: { workspaceId: ws, spaceId: space, title, markdown } });
  if (res.status !== 201) throw new Error(`page failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

async function search(query: string, limit = 10): Promise<string[]> {
  const res = await t.request({ url: '/api/v1/search', token: editor.token, query: { workspaceId: ws, query, limit: String(limit) } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((r: { id: string }) => r.id);
}

/** The candidate tiers the ranking will read for `query`, from the statistics as they stand (our own planner). */
async function tiersFor(query: string) {
  const db = t.database.db;
  const parsed = parseQuery(query);
  const plan = buildPlan(parsed, await searchRepo.analyse(db, parsed.free, parsed.prefix, parsed.phrases, parsed.excluded));
  const scope: SearchScope = { workspaceId: ws, userId: editor.id, types: ['page', 'task'] };
  const stats = await searchRepo.stats(db, scope, plan.terms);
  return { df: stats.df, tiers: candidatePlan(plan, stats.df).tiers };
}

beforeAll(async () => {
  t = await createTestApp();
  const w = await workspaceWithRoles(t);
  ws = w.workspace.id;
  editor = w.editor;
  space = (await createSpace(t, w.admin, ws, { name: 'Port' })).id;
  // Filler: "harbor" everywhere, "lantern" in most; neither in a title.
  for (let i = 0; i < FILLER; i++) {
    const lantern = i < WITH_LANTERN ? ' The lantern was checked.' : '';
    await page(`Shift log ${i}`, `Harbor shift report number ${i}.${lantern}`);
  }
  ids.harborTitle = await page('Harbor handbook', 'How the docks work, who to call, where the cranes are.');
  ids.bothTitle = await page('Harbor lantern rules', 'Every lantern on the harbor wall is lit at dusk.');
  for (let i = 0; i < 3; i++) ids[`zephyr${i}`] = await page(`Wind notes ${i}`, `A zephyr crossed the harbor on day ${i}; the zephyr was mild.`);
  ids.unrelated = await page('Cafeteria menu', 'Soup and bread on Mondays.');
}, 240_000);
afterAll(() => t.close());

describe('search where a word is in more than the candidate budget', () => {
  it('the corpus reaches the common-word plan (the premise of the tests below)', async () => {
    const common = await tiersFor('harbor');
    expect(common.df[0]).toBeGreaterThan(CANDIDATE_BUDGET);
    expect(common.tiers.length).toBeGreaterThan(1);
    expect(common.tiers[0].title).toBe(true);
    const both = await tiersFor('harbor lantern');
    expect(Math.min(...both.df)).toBeGreaterThan(CANDIDATE_BUDGET);
    const rare = await tiersFor('harbor zephyr');
    expect(rare.df).toEqual([FILLER + 5, 3]);
    // The rarest word alone drives the candidates (the last word is also read as a prefix).
    expect(rare.tiers).toHaveLength(1);
    expect(rare.tiers[0]).toMatchObject({ title: false, limit: CANDIDATE_BUDGET });
    expect(rare.tiers[0].query).toContain("'zephyr'");
    expect(rare.tiers[0].query).not.toContain('harbor');
  });

  it('ranks the pages with the common word in their title first, and fills the page with matches', async () => {
    const found = await search('harbor', 10);
    expect(found).toHaveLength(10);
    expect(new Set(found.slice(0, 2))).toEqual(new Set([ids.harborTitle, ids.bothTitle]));
    expect(found).not.toContain(ids.unrelated);
  });

  it('ranks the page with both common words in its title first', async () => {
    const found = await search('harbor lantern', 10);
    expect(found).toHaveLength(10);
    expect(found[0]).toBe(ids.bothTitle);
    expect(found).not.toContain(ids.unrelated);
  });

  it('ranks the documents of a rare word first when a common word comes with it', async () => {
    const found = await search('harbor zephyr', 10);
    expect(new Set(found.slice(0, 3))).toEqual(new Set([ids.zephyr0, ids.zephyr1, ids.zephyr2]));
  });

  it('finds every document of a common word when asked for a page of them (limit 50)', async () => {
    const found = await search('lantern', 50);
    expect(found).toHaveLength(50);
    expect(found[0]).toBe(ids.bothTitle);
    expect(new Set(found).size).toBe(50);
  });
});

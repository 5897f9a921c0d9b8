import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hybridSearch } from '../../src/areas/search/search.hybrid.js';
import { loadConfig } from '../../src/config.js';
import { OpenAiEmbedder } from '../../src/embeddings/openai.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type FakeEmbeddings, startFakeEmbeddings } from '../helpers/fake-embeddings.js';
import { type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { createPage, createSpace, indexNow } from '../knowledge/helpers.js';

/**
 * Hybrid search: `GET /v1/search` fuses full text with the pages nearest in meaning when an embeddings endpoint is
 * configured. The fake endpoint (OpenAI's protocol) treats "vehicle", "automobile" and "car" as one word, and
 * "servicing" and "maintenance" likewise, so a page can be near a query in meaning without sharing a word with it.
 */
let fake: FakeEmbeddings;
let t: TestApp;
let ws: string;
let editor: TestUser;
let viewer: TestUser;
const ids: Record<string, string> = {};

beforeAll(async () => {
  OpenAiEmbedder.PAUSE_MS = 0;
  fake = await startFakeEmbeddings({ vehicle: 'car', automobile: 'car', servicing: 'maintenance' });
  t = await createTestApp({ EMBEDDINGS_URL: fake.url, EMBEDDINGS_MODEL: 'fake-embed', KNOWLEDGE_CATCHUP_PAGES: 0 });
  const roles = await workspaceWithRoles(t);
  ({ editor, viewer } = roles);
  ws = roles.workspace.id;
  const open = await createSpace(t, roles.admin, ws, 'Fleet', 'public');
  const closed = await createSpace(t, roles.admin, ws, 'Board', 'private');
  ids.meaning = await createPage(t, roles.admin, ws, open, 'Automobile maintenance schedule', 'Change the oil of every automobile each spring.');
  ids.words = await createPage(t, roles.admin, ws, open, 'Printer servicing guide', 'Vehicle for printer servicing: the cart in room 4.');
  ids.closed = await createPage(t, roles.admin, ws, closed, 'Car maintenance budget', 'What the board spends on car maintenance.');
  ids.other = await createPage(t, roles.admin, ws, open, 'Lunch menu', 'Soup on Mondays.');
  const icon = await t.request({ method: 'PUT', url: `/api/v1/pages/${ids.meaning}`, token: roles.admin.token, body: { icon: '🚗' } });
  expect(icon.status, JSON.stringify(icon.body)).toBe(200);
  await indexNow(t);
}, 120_000);

afterAll(async () => {
  OpenAiEmbedder.PAUSE_MS = 15_000;
  await t.close();
  await fake.close();
});

async function search(user: TestUser, query: string) {
  const res = await t.request({ url: '/api/v1/search', token: user.token, query: { workspaceId: ws, query, limit: '10' } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: string; title: string; snippet: string; score: number; icon: string | null }[];
}

describe('hybrid search (full text fused with the knowledge index)', () => {
  it('finds a page that shares the meaning of a question but none of its words, after the one that shares its words', async () => {
    fake.seen.length = 0;
    const found = await search(editor, 'vehicle servicing');
    expect(found.map((r) => r.id)).toEqual([ids.words, ids.meaning]);
    expect(found[0].snippet).toContain('<mark>');
    expect(found[0].score).toBeGreaterThan(found[1].score);
    expect(found.map((r) => r.icon)).toEqual([null, '🚗']);
    // The query was embedded once, through the endpoint, with the knowledge index's model.
    expect(fake.seen).toEqual([{ auth: undefined, model: 'fake-embed', input: ['vehicle servicing'] }]);
  });

  it('never brings in a page the caller may not read (the vector list filters access in SQL too)', async () => {
    const asEditor = (await search(editor, 'car maintenance')).map((r) => r.id);
    expect(asEditor).not.toContain(ids.closed);
    expect(asEditor).toContain(ids.meaning);
    expect((await search(viewer, 'car maintenance')).map((r) => r.id)).not.toContain(ids.closed);
  });

  it('leaves phrases, exclusions and single words to full text', async () => {
    fake.seen.length = 0;
    expect((await search(editor, '"printer servicing"')).map((r) => r.id)).toEqual([ids.words]);
    expect((await search(editor, 'servicing -printer')).map((r) => r.id)).toEqual([]);
    expect((await search(editor, 'vehicle')).map((r) => r.id)).toEqual([ids.words]);
    expect(fake.seen).toEqual([]);
  });

  it('answers with full text alone when the embeddings endpoint fails', async () => {
    fake.failing = true;
    try {
      const found = await search(editor, 'vehicle servicing');
      expect(found.map((r) => r.id)).toEqual([ids.words]);
      expect(found[0].snippet).toContain('<mark>');
    } finally {
      fake.failing = false;
    }
  });

  it('is on with an embeddings endpoint (auto), with the offline encoder only when asked (on), and never when off', () => {
    const base = { JWT_SECRET: 'x'.repeat(32) };
    expect(hybridSearch(loadConfig(base, {}))).toBeUndefined();
    expect(hybridSearch(loadConfig(base, { SEARCH_HYBRID: 'on' }))).toBeDefined();
    expect(hybridSearch(loadConfig(base, { EMBEDDINGS_URL: fake.url }))).toBeDefined();
    expect(hybridSearch(loadConfig(base, { EMBEDDINGS_URL: fake.url, SEARCH_HYBRID: 'off' }))).toBeUndefined();
  });
});

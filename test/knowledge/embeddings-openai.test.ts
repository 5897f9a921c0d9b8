import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIndexer } from '../../src/areas/knowledge/knowledge.indexer.js';
import { embedderFor } from '../../src/embeddings/index.js';
import { OpenAiEmbedder } from '../../src/embeddings/openai.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { FAKE_EMBEDDING_DIMS, type FakeEmbeddings, startFakeEmbeddings } from '../helpers/fake-embeddings.js';
import { type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { callTool, createPage, createSpace, indexNow, knowledgeSearch, unbounded } from './helpers.js';

/**
 * The OpenAI-compatible path against a fake server on 127.0.0.1 that speaks the protocol (test/helpers/fake-embeddings.ts):
 * its vectors are hashed bags of words, so texts sharing words are close.
 */
let fake: FakeEmbeddings;
let base: string;
let t: TestApp;
let ws: string;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;

beforeAll(async () => {
  OpenAiEmbedder.PAUSE_MS = 0;
  fake = await startFakeEmbeddings();
  base = fake.url;
  t = await createTestApp({ EMBEDDINGS_URL: base, EMBEDDINGS_MODEL: 'fake-embed', EMBEDDINGS_API_KEY: 'sk-test', KNOWLEDGE_CATCHUP_PAGES: 0 });
  const roles = await workspaceWithRoles(t);
  ({ admin, editor, viewer } = roles);
  ws = roles.workspace.id;
});

afterAll(async () => {
  OpenAiEmbedder.PAUSE_MS = 15_000;
  await t.close();
  await fake.close();
});

const ingest = (content: string, tags: string[] = []) =>
  t.request({ method: 'POST', url: '/api/v1/memory', token: editor.token, body: { workspaceId: ws, content, tags } });

describe('OpenAI-compatible embeddings', () => {
  it('embeds a memory through POST {EMBEDDINGS_URL}/embeddings with the model and key', async () => {
    fake.seen.length = 0;
    const res = await ingest('The release train leaves every Tuesday.', ['process']);
    expect(res.status).toBe(201);
    expect(res.body.data.embeddingModel).toBe('fake-embed');
    expect(fake.seen).toEqual([{ auth: 'Bearer sk-test', model: 'fake-embed', input: ['process\nThe release train leaves every Tuesday.'] }]);
    const row = await t.database.db.selectFrom('memories').select(['embeddingDims']).where('id', '=', res.body.data.id).executeTakeFirstOrThrow();
    expect(row.embeddingDims).toBe(FAKE_EMBEDDING_DIMS);
    const found = await callTool(t, viewer, 'memory_query', { workspaceId: ws, query: 'which day does the release train leave', mode: 'vector' });
    expect(found.body.structuredContent.results[0].id).toBe(res.body.data.id);
  });

  it('indexes pages with it, in batches, and searches by meaning', async () => {
    const space = await createSpace(t, admin, ws, 'Docs', 'public');
    const id = await createPage(t, editor, ws, space, 'Release train', '## Schedule\n\nThe release train leaves every Tuesday at noon from the main branch.');
    expect(await indexNow(t)).toMatchObject({ pages: 1, embedded: true });
    const res = await knowledgeSearch(t, viewer, ws, 'release train schedule', { mode: 'vector' });
    expect(res.body.data.results.some((r: { pageId?: string }) => r.pageId === id)).toBe(true);
    const rows = await t.database.db.selectFrom('knowledgePassages').select(['embeddingModel', 'embeddingDims']).where('pageId', '=', id).execute();
    expect(rows).toEqual([{ embeddingModel: 'fake-embed', embeddingDims: FAKE_EMBEDDING_DIMS }]);
  });

  it('keeps working when the endpoint fails: stored for words, vectors later; vector-only search answers 503', async () => {
    fake.failing = true;
    const res = await ingest('Kubernetes upgrades happen in the maintenance window.', ['ops']);
    expect(res.status).toBe(201);
    expect(res.body.data.embeddingModel).toBeNull();
    const hybrid = await knowledgeSearch(t, viewer, ws, 'kubernetes maintenance window');
    expect(hybrid.status).toBe(200);
    expect(hybrid.body.data.results[0].id).toBe(res.body.data.id);
    const vectorOnly = await knowledgeSearch(t, viewer, ws, 'kubernetes', { mode: 'vector' });
    expect(vectorOnly.status).toBe(503);
    expect(vectorOnly.body.error.code).toBe('SERVICE_UNAVAILABLE');
    fake.failing = false;
    expect(await indexNow(t)).toMatchObject({ memories: 1, embedded: true });
    const row = await t.database.db.selectFrom('memories').select(['embeddingModel']).where('id', '=', res.body.data.id).executeTakeFirstOrThrow();
    expect(row.embeddingModel).toBe('fake-embed');
  });

  it('re-embeds pages and memories when the model changes', async () => {
    fake.seen.length = 0;
    const other = embedderFor({ ...t.config, EMBEDDINGS_MODEL: 'fake-embed-2' });
    const outcome = await runIndexer(t.database.db, other, unbounded(t.config));
    expect(outcome).toMatchObject({ pages: 1, memories: 2, embedded: true });
    expect(new Set(fake.seen.map((s) => s.model))).toEqual(new Set(['fake-embed-2']));
    const models = await t.database.db.selectFrom('memories').select('embeddingModel').where('workspaceId', '=', ws).execute();
    expect(models.every((m) => m.embeddingModel === 'fake-embed-2')).toBe(true);
    const passages = await t.database.db.selectFrom('knowledgePassages').select('embeddingModel').where('workspaceId', '=', ws).execute();
    expect(passages.every((m) => m.embeddingModel === 'fake-embed-2')).toBe(true);
  });
});

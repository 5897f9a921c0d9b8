import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetVectorStorage, vectorStorage } from '../../src/areas/knowledge/knowledge.storage.js';
import { createMemoryTables } from '../../src/db/migrations/0011_memory.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { callTool, createPage, createSpace, indexNow, knowledgeSearch } from './helpers.js';

/**
 * The fallback without pgvector: vectors in `real[]`, compared by an exact scan in SQL. PostgreSQL servers without
 * the extension (Debian's) always take this path; here it is forced on PGlite by building the tables as migration
 * 0011 does when the extension is missing.
 */
let t: TestApp;
let ws: string;
let editor: TestUser;
let viewer: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({ KNOWLEDGE_CATCHUP_PAGES: 0 });
  const db = t.database.db;
  await sql`drop table knowledge_pages, knowledge_passages, memories`.execute(db);
  await createMemoryTables(db as never, false);
  forgetVectorStorage(db);
  const roles = await workspaceWithRoles(t);
  ({ admin, editor, viewer } = roles);
  ws = roles.workspace.id;
});

afterAll(() => t.close());

describe('without pgvector', () => {
  it('stores vectors as real[]', async () => {
    expect(await vectorStorage(t.database.db)).toBe('array');
    const { rows } = await sql<{
      udtName: string;
    }>`select udt_name from information_schema.columns where table_name = 'memories' and column_name = 'embedding'`.execute(t.database.db);
    expect(rows[0].udtName).toBe('_float4');
  });

  it('finds memories by meaning at once and pages after indexing, with access filtering', async () => {
    const pub = await createSpace(t, admin, ws, 'Public', 'public');
    const priv = await createSpace(t, admin, ws, 'Secret', 'private');
    const guide = await createPage(t, editor, ws, pub, 'Coffee machine', 'Descale the espresso machine every two weeks with citric acid.');
    await createPage(t, admin, ws, priv, 'Salaries', 'Salary bands for engineers are reviewed every April.');
    const mem = await t.request({
      method: 'POST',
      url: '/api/v1/memory',
      token: editor.token,
      body: { workspaceId: ws, content: 'Our fiscal year starts in July.', tags: ['finance'] },
    });
    expect(mem.status).toBe(201);
    expect(mem.body.data.embeddingModel).not.toBeNull();
    const byMeaning = await callTool(t, viewer, 'memory_query', { workspaceId: ws, query: 'when does the financial year begin', mode: 'vector' });
    expect(byMeaning.body.structuredContent.results[0].id).toBe(mem.body.data.id);
    expect(byMeaning.body.structuredContent.results[0].similarity).toBe(1);

    expect(await indexNow(t)).toMatchObject({ pages: 2, embedded: true });
    const res = await knowledgeSearch(t, viewer, ws, 'how often should the coffee maker be cleaned?');
    expect(res.status).toBe(200);
    expect(res.body.data.results[0]).toMatchObject({ type: 'page', pageId: guide, spaceId: pub });
    for (const mode of ['vector', 'lexical', 'hybrid'])
      expect(JSON.stringify((await knowledgeSearch(t, viewer, ws, 'salary bands engineers', { mode })).body)).not.toContain('Salary');
    const forAdmin = await knowledgeSearch(t, admin, ws, 'salary bands engineers', { mode: 'vector' });
    expect(forAdmin.body.data.results[0].content).toContain('Salary bands');
  });
});

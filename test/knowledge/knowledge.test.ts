import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knowledgeJobs, KNOWLEDGE_INDEX_JOB } from '../../src/areas/knowledge/knowledge.jobs.js';
import type { ServiceEnv } from '../../src/context.js';
import { USE_MODEL } from '../../src/embeddings/index.js';
import { enqueue, getJob } from '../../src/jobs/queue.js';
import { collectJobs } from '../../src/jobs/registry.js';
import { Worker } from '../../src/jobs/worker.js';
import { createTestApp, siblingApp, type TestApp } from '../helpers/app.js';
import { type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { callTool, createPage, createSpace, indexNow, knowledgeSearch } from './helpers.js';

let t: TestApp;
let ws: string;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;
let outsider: TestUser;
let handbook: string;
let leadership: string;
const pages: Record<string, string> = {};

const DEPLOY = `# Deployment guide

How we ship the service to production.

## Rolling back a release

If a deploy goes wrong, run \`kb release rollback\` with the previous tag. The rollback restores the last healthy container image within two minutes, and the on-call engineer confirms the health checks are green.

## Database migrations

Migrations run automatically when the service starts. Never edit a migration that has shipped; write a new one instead.
`;

beforeAll(async () => {
  // No inline catch-up: pages are indexed by the background job only (one test turns it on in a sibling app).
  t = await createTestApp({ KNOWLEDGE_CATCHUP_PAGES: 0 });
  const roles = await workspaceWithRoles(t);
  ({ admin, editor, viewer, outsider } = roles);
  ws = roles.workspace.id;
  handbook = await createSpace(t, admin, ws, 'Handbook', 'public');
  leadership = await createSpace(t, admin, ws, 'Leadership', 'private');
  pages.deploy = await createPage(t, editor, ws, handbook, 'Deployment guide', DEPLOY);
  pages.vacation = await createPage(
    t,
    editor,
    ws,
    handbook,
    'Vacation policy',
    'Employees get 25 days of paid leave per year. Request time off in the HR portal at least two weeks ahead; your manager approves it.',
  );
  pages.snacks = await createPage(t, editor, ws, handbook, 'Office snacks', 'The kitchen stocks pistachio ice cream every Friday afternoon.');
  pages.acquisition = await createPage(
    t,
    admin,
    ws,
    leadership,
    'Acquisition plans',
    'We plan to acquire Globex Corporation in the third quarter. The board approved the budget for the acquisition.',
  );
});

afterAll(() => t.close());

const pageIds = (res: { body: { data: { results: Array<{ type: string; pageId?: string }> } } }) =>
  res.body.data.results.filter((r) => r.type === 'page').map((r) => r.pageId);

describe('indexing pages', () => {
  it('finds no passage of a page before the indexer has run', async () => {
    const res = await knowledgeSearch(t, viewer, ws, 'rollback a release');
    expect(res.status).toBe(200);
    expect(pageIds(res)).toEqual([]);
  });

  it('indexes pages through the recurring job run by a worker, storing model and dimension', async () => {
    const jobId = await enqueue(t.database.db, { kind: KNOWLEDGE_INDEX_JOB });
    const worker = new Worker({
      db: t.database.db,
      env: { config: t.config } as ServiceEnv,
      handlers: new Map(Object.entries(knowledgeJobs.handlers)),
      concurrency: 1,
      pollMs: 20,
    });
    worker.start();
    try {
      for (let i = 0; i < 600; i++) {
        const job = await getJob(t.database.db, jobId as string);
        if (job?.status === 'done' || job?.status === 'failed') break;
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await worker.stop();
    }
    const job = await getJob(t.database.db, jobId as string);
    expect(job?.status, job?.lastError ?? '').toBe('done');
    expect(job?.result).toMatchObject({ pages: 4, embedded: true });
    const rows = await t.database.db
      .selectFrom('knowledgePassages')
      .select(['pageId', 'headingPath', 'embeddingModel', 'embeddingDims', 'wordCount'])
      .where('workspaceId', '=', ws)
      .execute();
    expect(rows.length).toBeGreaterThanOrEqual(4);
    for (const r of rows) expect(r).toMatchObject({ embeddingModel: USE_MODEL, embeddingDims: 512 });
    // Its period comes from the runtime's settings, not from the process environment.
    expect(collectJobs([knowledgeJobs], t.config).recurring).toEqual([{ kind: KNOWLEDGE_INDEX_JOB, everyMs: 5000 }]);
    expect(collectJobs([knowledgeJobs], { ...t.config, KNOWLEDGE_INDEX_EVERY_MS: 1234 }).recurring).toEqual([{ kind: KNOWLEDGE_INDEX_JOB, everyMs: 1234 }]);
    // Nothing is stale now: a second run indexes nothing.
    expect(await indexNow(t)).toMatchObject({ pages: 0, passages: 0 });
  });

  it('answers a question with the passage under the right heading, best first, similarity in 0..1', async () => {
    const res = await knowledgeSearch(t, viewer, ws, 'how do I undo a bad deploy?', { limit: '5' });
    expect(res.status).toBe(200);
    const [top, ...rest] = res.body.data.results;
    expect(top).toMatchObject({ type: 'page', pageId: pages.deploy, spaceId: handbook, title: 'Deployment guide' });
    expect(top.headingPath).toContain('Rolling back a release');
    expect(top.content).toContain('kb release rollback');
    expect(top.content).not.toContain('Never edit a migration');
    expect(typeof top.id).toBe('string');
    expect(top.similarity).toBeGreaterThan(0);
    expect(top.similarity).toBeLessThanOrEqual(1);
    const sims = [top, ...rest].map((r: { similarity: number }) => r.similarity);
    expect(sims).toEqual([...sims].sort((a, b) => b - a));
    expect(res.body.data.results.length).toBeLessThanOrEqual(5);
  });

  it('finds by meaning alone (vector mode) and by words alone (lexical mode)', async () => {
    const vec = await knowledgeSearch(t, viewer, ws, 'how many holidays do staff get', { mode: 'vector' });
    expect(vec.status).toBe(200);
    expect(pageIds(vec)[0]).toBe(pages.vacation);
    const lex = await knowledgeSearch(t, viewer, ws, 'pistachio', { mode: 'lexical' });
    expect(pageIds(lex)).toEqual([pages.snacks]);
  });

  it('re-indexes a page after it changes: the new text is found, the old is gone', async () => {
    const put = await t.request({
      method: 'PUT',
      url: `/api/v1/pages/${pages.snacks}`,
      token: editor.token,
      body: { workspaceId: ws, markdown: 'The kitchen now stocks mango sorbet on Fridays.' },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(await indexNow(t)).toMatchObject({ pages: 1 });
    expect(pageIds(await knowledgeSearch(t, viewer, ws, 'pistachio', { mode: 'lexical' }))).toEqual([]);
    expect(pageIds(await knowledgeSearch(t, viewer, ws, 'mango sorbet', { mode: 'lexical' }))).toEqual([pages.snacks]);
  });

  it('leaves trashed pages out at once, and finds them again once restored from the trash', async () => {
    const del = await t.request({ method: 'DELETE', url: `/api/v1/pages/${pages.snacks}`, token: editor.token, query: { workspaceId: ws } });
    expect(del.status).toBe(200);
    const res = await knowledgeSearch(t, viewer, ws, 'mango sorbet');
    expect(pageIds(res)).not.toContain(pages.snacks);
    expect(await indexNow(t)).toMatchObject({ pages: 0 });
  });
});

describe('access', () => {
  it('never shows passages of a private space to a member without access; its members see them', async () => {
    const forEditor = await knowledgeSearch(t, editor, ws, 'acquire Globex Corporation');
    expect(forEditor.status).toBe(200);
    expect(pageIds(forEditor)).not.toContain(pages.acquisition);
    expect(JSON.stringify(forEditor.body)).not.toContain('Globex');
    const vec = await knowledgeSearch(t, viewer, ws, 'acquire Globex Corporation', { mode: 'vector', limit: '50' });
    expect(JSON.stringify(vec.body)).not.toContain('Globex');
    const forAdmin = await knowledgeSearch(t, admin, ws, 'acquire Globex Corporation');
    expect(pageIds(forAdmin)[0]).toBe(pages.acquisition);
    expect(forAdmin.body.data.results[0].spaceId).toBe(leadership);
    // Made a member of the private space, the editor sees it too.
    const grant = await t.request({
      method: 'POST',
      url: `/api/v1/spaces/${leadership}/members`,
      token: admin.token,
      body: { workspaceId: ws, userIds: [editor.id], role: 'viewer' },
    });
    expect(grant.status, JSON.stringify(grant.body)).toBeLessThan(300);
    expect(pageIds(await knowledgeSearch(t, editor, ws, 'acquire Globex Corporation'))[0]).toBe(pages.acquisition);
  });

  it('refuses outsiders (403), unknown workspaces (404) and anonymous callers (401)', async () => {
    const out = await knowledgeSearch(t, outsider, ws, 'deploy');
    expect(out.status).toBe(403);
    expect(out.body.error.code).toBe('FORBIDDEN');
    const unknown = await knowledgeSearch(t, viewer, 'no-such-workspace', 'deploy');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    const anon = await t.request({ url: '/api/v1/knowledge/search', query: { workspaceId: ws, query: 'deploy' } });
    expect(anon.status).toBe(401);
  });

  it('validates its parameters', async () => {
    const missing = await t.request({ url: '/api/v1/knowledge/search', token: viewer.token, query: { workspaceId: ws } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'MISSING_REQUIRED', details: { field: 'query' } });
    for (const query of <Array<Record<string, string>>>[
      { query: '   ' },
      { query: 'x'.repeat(2001) },
      { query: 'deploy', limit: 'abc' },
      { query: 'deploy', limit: '0' },
      { query: 'deploy', limit: '51' },
      { query: 'deploy', mode: 'fuzzy' },
    ]) {
      const res = await t.request({ url: '/api/v1/knowledge/search', token: viewer.token, query: { workspaceId: ws, ...query } });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.error.code).toBe('INVALID_PARAMETER');
    }
  });

  it('serves the same at /api/knowledge/search', async () => {
    const res = await t.request({ url: '/api/knowledge/search', token: viewer.token, query: { workspaceId: ws, query: 'paid leave' } });
    expect(res.status).toBe(200);
    expect(pageIds(res)[0]).toBe(pages.vacation);
  });
});

describe('memories in knowledge search', () => {
  it('returns memories beside passages, with their tags', async () => {
    const ingest = await t.request({
      method: 'POST',
      url: '/api/v1/memory',
      token: editor.token,
      body: { workspaceId: ws, content: 'The staging database password rotates on the first Monday of each month.', tags: ['ops', 'Security'] },
    });
    expect(ingest.status).toBe(201);
    const res = await knowledgeSearch(t, viewer, ws, 'when does the staging password rotate?');
    const top = res.body.data.results[0];
    expect(top).toMatchObject({ type: 'memory', id: ingest.body.data.id, tags: ['ops', 'security'] });
    expect(top.title).toBe('The staging database password rotates on the first Monday of each month.');
    expect(top.pageId).toBeUndefined();
  });
});

describe('catch-up', () => {
  it('indexes a just-written page of the workspace before searching when KNOWLEDGE_CATCHUP_PAGES > 0', async () => {
    const id = await createPage(t, editor, ws, handbook, 'Parking', 'Visitors park in the underground garage on level minus two.');
    // A generous wait: the pool thread may have to load the model again on a slow machine.
    const sibling = await siblingApp(t, {}, { KNOWLEDGE_CATCHUP_PAGES: 3, KNOWLEDGE_CATCHUP_WAIT_MS: 60_000 });
    try {
      const res = await sibling.request({ url: '/api/v1/knowledge/search', token: viewer.token, query: { workspaceId: ws, query: 'where do visitors park' } });
      expect(res.status).toBe(200);
      expect(res.body.data.results[0]).toMatchObject({ type: 'page', pageId: id });
    } finally {
      await sibling.app.close();
    }
  });
});

describe('knowledge.search tool', () => {
  it('answers through call_tool with { results }', async () => {
    const res = await callTool(t, viewer, 'knowledge.search', { workspaceId: ws, query: 'roll back a broken release', limit: 3 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.isError).toBe(false);
    const out = res.body.structuredContent;
    expect(out.results.length).toBeLessThanOrEqual(3);
    expect(out.results[0]).toMatchObject({ type: 'page', pageId: pages.deploy });
    expect(JSON.parse(res.body.content[0].text).results[0].id).toBe(out.results[0].id);
  });

  it('gives the REST errors: outsider 403, bad arguments 422', async () => {
    const out = await callTool(t, outsider, 'knowledge.search', { workspaceId: ws, query: 'deploy' });
    expect(out.status).toBe(403);
    expect(out.body.error.code).toBe('FORBIDDEN');
    const bad = await callTool(t, viewer, 'knowledge.search', { workspaceId: ws, query: 'deploy', limit: 0 });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    const missing = await callTool(t, viewer, 'knowledge.search', { workspaceId: ws });
    expect(missing.status).toBe(422);
  });
});

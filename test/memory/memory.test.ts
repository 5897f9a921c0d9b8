import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USE_MODEL } from '../../src/embeddings/index.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { callTool } from '../knowledge/helpers.js';

let t: TestApp;
let ws: string;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;
let outsider: TestUser;

const ingest = (user: TestUser, body: Record<string, unknown>) =>
  t.request({ method: 'POST', url: '/api/v1/memory', token: user.token, body: { workspaceId: ws, ...body } });
const list = (user: TestUser, query: Record<string, string> = {}) =>
  t.request({ url: '/api/v1/memory', token: user.token, query: { workspaceId: ws, ...query } });

beforeAll(async () => {
  t = await createTestApp({ KNOWLEDGE_CATCHUP_PAGES: 0 });
  const roles = await workspaceWithRoles(t);
  ({ admin, editor, viewer, outsider } = roles);
  ws = roles.workspace.id;
});

afterAll(() => t.close());

describe('POST /v1/memory', () => {
  it('stores a memory (editor) with tags lower-cased and de-duplicated, embedded before it answers', async () => {
    const res = await ingest(editor, {
      content: '  The customer Acme prefers invoices in euros, sent on the 1st of the month.  ',
      tags: ['Billing', 'customer:acme', 'billing'],
      source: 'call with Acme finance, 2024-05-02',
    });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toContain('application/json');
    const m = res.body.data;
    expect(m).toMatchObject({
      workspaceId: ws,
      content: 'The customer Acme prefers invoices in euros, sent on the 1st of the month.',
      tags: ['billing', 'customer:acme'],
      source: 'call with Acme finance, 2024-05-02',
      createdBy: editor.id,
      embeddingModel: USE_MODEL,
    });
    expect(new Date(m.createdAt).toISOString()).toBe(m.createdAt);
    const row = await t.database.db.selectFrom('memories').select(['embeddingModel', 'embeddingDims']).where('id', '=', m.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ embeddingModel: USE_MODEL, embeddingDims: 512 });
  });

  it('is searchable as soon as ingest answers: by meaning and by words', async () => {
    const created = await ingest(editor, { content: 'Production deploys are frozen every Friday after 3pm.', tags: ['deploy'] });
    expect(created.status).toBe(201);
    const byMeaning = await callTool(t, viewer, 'memory_query', { workspaceId: ws, query: 'can I ship a release on Friday evening?', mode: 'vector' });
    expect(byMeaning.status, JSON.stringify(byMeaning.body)).toBe(200);
    expect(byMeaning.body.structuredContent.results[0]).toMatchObject({ id: created.body.data.id, type: 'memory', tags: ['deploy'] });
    const byWords = await callTool(t, viewer, 'memory_query', { workspaceId: ws, query: 'frozen', mode: 'lexical' });
    expect(byWords.body.structuredContent.results.map((r: { id: string }) => r.id)).toEqual([created.body.data.id]);
    const hybrid = await callTool(t, viewer, 'memory_query', { workspaceId: ws, query: 'invoice currency for Acme' });
    expect(hybrid.body.structuredContent.results[0].content).toContain('euros');
    const s = hybrid.body.structuredContent.results[0].similarity;
    expect(s).toBeGreaterThan(0);
    expect(s).toBeLessThanOrEqual(1);
  });

  it('narrows memory_query by tags: finds the tagged memories, and only them, in every mode', async () => {
    // A workspace of its own, so the other tests' memories neither help nor hinder.
    const own = await workspaceWithRoles(t);
    const tagged = async (content: string, tags: string[]) => {
      const res = await t.request({ method: 'POST', url: '/api/v1/memory', token: own.editor.token, body: { workspaceId: own.workspace.id, content, tags } });
      expect(res.status).toBe(201);
      return res.body.data.id as string;
    };
    const gateway = await tagged('The payment gateway retries a failed card charge three times.', ['payments']);
    const refunds = await tagged('Card refunds reach the customer within five working days.', ['payments', 'support']);
    const oncall = await tagged('The on-call engineer answers a failed card charge alert within ten minutes.', ['oncall']);
    const untagged = await tagged('A failed card charge is retried by the payment gateway overnight.', []);
    for (const mode of ['lexical', 'vector', 'hybrid']) {
      const query = { workspaceId: own.workspace.id, query: 'failed card charge payment gateway', mode, limit: 10 };
      const payments = await callTool(t, own.viewer, 'memory_query', { ...query, tags: ['payments'] });
      expect(payments.status, JSON.stringify(payments.body)).toBe(200);
      const found = payments.body.structuredContent.results.map((r: { id: string }) => r.id);
      expect(found, mode).toContain(gateway);
      expect(found, mode).not.toContain(oncall);
      expect(found, mode).not.toContain(untagged);
      for (const r of payments.body.structuredContent.results) expect(r.tags, mode).toContain('payments');
      // Any of the tags given: one tag of each memory finds both.
      const either = await callTool(t, own.viewer, 'memory_query', { ...query, tags: ['oncall', 'support'] });
      const eitherIds = either.body.structuredContent.results.map((r: { id: string }) => r.id);
      expect(eitherIds, mode).toContain(oncall);
      expect(eitherIds, mode).not.toContain(gateway);
      expect(eitherIds, mode).not.toContain(untagged);
      if (mode !== 'lexical') expect(eitherIds, mode).toContain(refunds);
      // Without tags the untagged memory is found too: the filter, not the query, left it out above.
      const all = await callTool(t, own.viewer, 'memory_query', query);
      expect(
        all.body.structuredContent.results.map((r: { id: string }) => r.id),
        mode,
      ).toContain(untagged);
    }
  });

  it('refuses viewers (403), outsiders (403), unknown workspaces (404)', async () => {
    for (const [user, status, code] of [
      [viewer, 403, 'FORBIDDEN'],
      [outsider, 403, 'FORBIDDEN'],
    ] as const) {
      const res = await ingest(user, { content: 'x', tags: [] });
      expect(res.status).toBe(status);
      expect(res.body.error.code).toBe(code);
    }
    const unknown = await t.request({ method: 'POST', url: '/api/v1/memory', token: editor.token, body: { workspaceId: 'nope', content: 'x' } });
    expect(unknown.status).toBe(404);
    expect(await t.database.db.selectFrom('memories').select('id').where('content', '=', 'x').execute()).toEqual([]);
  });

  it('validates the body', async () => {
    const missing = await ingest(editor, { tags: ['a'] });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'MISSING_REQUIRED', details: { field: 'content' } });
    for (const body of [
      { content: '   ' },
      { content: 'x'.repeat(10_001) },
      { content: 'ok', tags: 'billing' },
      { content: 'ok', tags: [''] },
      { content: 'ok', tags: ['x'.repeat(65)] },
      { content: 'ok', tags: ['a,b'] },
      { content: 'ok', tags: Array.from({ length: 21 }, (_, i) => `t${i}`) },
      { content: 'ok', source: 'x'.repeat(501) },
      { content: 42 },
    ]) {
      const res = await ingest(editor, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('GET /v1/memory', () => {
  let tagged: string[] = [];
  beforeAll(async () => {
    tagged = [];
    for (let i = 0; i < 5; i++) {
      const res = await ingest(editor, { content: `Runbook step ${i}: check the queue depth.`, tags: ['runbook', i % 2 ? 'odd' : 'even'] });
      tagged.push(res.body.data.id);
    }
  });

  it('lists by tag, newest first, paged with meta', async () => {
    const page1 = await list(viewer, { tag: 'runbook', limit: '2' });
    expect(page1.status).toBe(200);
    expect(page1.body.meta).toEqual({ page: 1, limit: 2, total: 5 });
    expect(page1.body.data.map((m: { id: string }) => m.id)).toEqual([tagged[4], tagged[3]]);
    const page3 = await list(viewer, { tag: 'runbook', limit: '2', page: '3' });
    expect(page3.body.data.map((m: { id: string }) => m.id)).toEqual([tagged[0]]);
    const odd = await list(viewer, { tag: 'ODD' });
    expect(odd.body.data.map((m: { id: string }) => m.id)).toEqual([tagged[3], tagged[1]]);
    const all = await list(viewer);
    expect(all.body.meta.total).toBe(7);
    expect(await list(viewer, { tag: 'nothing' })).toMatchObject({ status: 200, body: { data: [], meta: { total: 0 } } });
  });

  it('refuses outsiders and bad parameters', async () => {
    const out = await list(outsider);
    expect(out.status).toBe(403);
    const noWs = await t.request({ url: '/api/v1/memory', token: viewer.token });
    expect(noWs.status).toBe(400);
    expect(noWs.body.error.code).toBe('MISSING_REQUIRED');
    for (const q of <Array<Record<string, string>>>[{ limit: 'abc' }, { limit: '101' }, { page: '0' }, { tag: 'x'.repeat(65) }]) {
      const res = await list(viewer, q);
      expect(res.status, JSON.stringify(q)).toBe(400);
      expect(res.body.error.code).toBe('INVALID_PARAMETER');
    }
  });

  it('lists through memory_list, paged', async () => {
    const res = await callTool(t, viewer, 'memory_list', { workspaceId: ws, tag: 'runbook', limit: 2, page: 2 });
    expect(res.status).toBe(200);
    expect(res.body.structuredContent).toMatchObject({ total: 5, page: 2, limit: 2, hasMore: true });
    expect(res.body.structuredContent.items.map((m: { id: string }) => m.id)).toEqual([tagged[2], tagged[1]]);
    const err = await callTool(t, outsider, 'memory_list', { workspaceId: ws });
    expect(err.status).toBe(403);
  });
});

describe('DELETE /v1/memory/:id', () => {
  it('deletes (editor): gone from lists and searches; a second delete is 404', async () => {
    const created = await ingest(editor, { content: 'The VPN gateway moved to vpn2.example.net in March.', tags: ['network'] });
    const id = created.body.data.id;
    expect((await t.request({ method: 'DELETE', url: `/api/v1/memory/${id}`, token: viewer.token })).status).toBe(403);
    const hidden = await t.request({ method: 'DELETE', url: `/api/v1/memory/${id}`, token: outsider.token });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.code).toBe('NOT_FOUND');
    const wrongWs = await t.request({ method: 'DELETE', url: `/api/v1/memory/${id}`, token: editor.token, query: { workspaceId: 'other' } });
    expect(wrongWs.status).toBe(404);
    const del = await t.request({ method: 'DELETE', url: `/api/v1/memory/${id}`, token: editor.token });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ data: { id, deleted: true } });
    expect((await list(viewer, { tag: 'network' })).body.data).toEqual([]);
    const search = await callTool(t, viewer, 'memory_query', { workspaceId: ws, query: 'VPN gateway' });
    expect(search.body.structuredContent.results.map((r: { id: string }) => r.id)).not.toContain(id);
    expect((await t.request({ method: 'DELETE', url: `/api/v1/memory/${id}`, token: editor.token })).status).toBe(404);
  });
});

describe('memory tools', () => {
  it('memory_ingest: stores for an editor; a viewer gets 403; bad arguments 422', async () => {
    const ok = await callTool(t, editor, 'memory_ingest', { workspaceId: ws, content: 'Support hours are 8:00 to 18:00 CET.', tags: ['support'] });
    expect(ok.status).toBe(200);
    expect(ok.body.isError).toBe(false);
    expect(ok.body.structuredContent).toMatchObject({ content: 'Support hours are 8:00 to 18:00 CET.', tags: ['support'], embeddingModel: USE_MODEL });
    const found = await list(viewer, { tag: 'support' });
    expect(found.body.data.map((m: { id: string }) => m.id)).toEqual([ok.body.structuredContent.id]);
    const denied = await callTool(t, viewer, 'memory_ingest', { workspaceId: ws, content: 'nope', tags: [] });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('FORBIDDEN');
    const bad = await callTool(t, editor, 'memory_ingest', { workspaceId: ws, tags: ['x'] });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('memory_query: an outsider gets 403', async () => {
    const res = await callTool(t, outsider, 'memory_query', { workspaceId: ws, query: 'support hours' });
    expect(res.status).toBe(403);
  });

  it('memory_delete: deletes; an unknown id is 404; a viewer 403', async () => {
    const created = await ingest(admin, { content: 'Temporary note.', tags: ['tmp'] });
    const denied = await callTool(t, viewer, 'memory_delete', { workspaceId: ws, id: created.body.data.id });
    expect(denied.status).toBe(403);
    const ok = await callTool(t, editor, 'memory_delete', { workspaceId: ws, id: created.body.data.id });
    expect(ok.status).toBe(200);
    expect(ok.body.structuredContent).toEqual({ id: created.body.data.id, deleted: true });
    const missing = await callTool(t, editor, 'memory_delete', { workspaceId: ws, id: created.body.data.id });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
  });
});

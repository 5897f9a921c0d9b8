import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { Database } from '../../src/db/index.js';
import { openTestDatabase, requester, TEST_JWT_SECRET, type TestApp } from '../helpers/app.js';
import { createApiKey, createWorkspace, workspaceWithRoles } from '../helpers/factories.js';

/** The real app plus routes that fail on purpose (registered before `ready`). */
let t: TestApp;
let app: FastifyInstance;
let database: Database;
let drop: () => Promise<void>;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'kb-data-'));
  const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'silent', AUTH_RATE_LIMIT_MAX: '1000' });
  ({ database, drop } = await openTestDatabase());
  app = await buildApp({ config, database, logger: false });
  app.post('/api/test/boom', async () => {
    throw new Error('Cannot read properties of undefined (reading "title")');
  });
  app.get('/api/test/workspaces/:workspaceId/boom', async () => {
    throw Object.assign(new Error('duplicate key value violates unique constraint "x"'), { code: '23505x' });
  });
  app.get('/api/test/unavailable', async () => {
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  });
  app.get('/api/test/fine', async () => ({ ok: true }));
  await app.ready();
  t = {
    app,
    database,
    config,
    request: requester(app),
    close: async () => {},
  };
});
afterAll(async () => {
  await app.close();
  await database.close();
  await drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const serverReports = () => t.database.db.selectFrom('bugReports').selectAll().where('source', '=', 'auto:server').orderBy('createdAt').execute();

describe('self-capture of 5xx answers', () => {
  it('records a flood of the same error as one auto:server report with its count, and no body, token or key', async () => {
    const { workspace, admin } = await workspaceWithRoles(t);
    const key = await createApiKey(t, admin);
    const writesBefore = app.bugReports.recorder.stats.writes;
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.request({
          method: 'POST',
          url: '/api/test/boom?apiKey=kb_leakedquerykey',
          token: i % 2 ? admin.token : key,
          body: { workspaceId: workspace.id, password: 'hunter2-secret', note: 'body-marker-xyz' },
        }),
      ),
    );
    // The response is the ordinary 500, unaffected by the recording.
    for (const r of responses) {
      expect(r.status).toBe(500);
      expect(r.body.error).toMatchObject({ code: 'INTERNAL_ERROR' });
      expect(r.body.error.message).not.toContain('Cannot read');
    }
    await app.bugReports.recorder.idle();
    // Coalesced: far fewer database writes than occurrences.
    const writes = app.bugReports.recorder.stats.writes - writesBefore;
    expect(writes).toBeGreaterThanOrEqual(1);
    expect(writes).toBeLessThan(20);
    const rows = await serverReports();
    expect(rows).toHaveLength(1);
    const row = rows[0];
    expect(row).toMatchObject({
      workspaceId: workspace.id,
      source: 'auto:server',
      severity: 'high',
      status: 'open',
      occurrenceCount: 20,
      errorCode: 'INTERNAL_ERROR',
      errorMessage: 'Cannot read properties of undefined (reading "title")',
      reporterId: null,
    });
    expect(row.errorStack).toContain('self-capture.test.ts');
    expect(row.context).toMatchObject({ method: 'POST', route: '/api/test/boom', statusCode: 500, userId: admin.id });
    expect(responses.map((r) => r.headers['x-request-id'])).toContain((row.context as { requestId: string }).requestId);
    const stored = JSON.stringify(row);
    for (const secret of ['hunter2', 'body-marker-xyz', 'kb_leakedquerykey', key, admin.token]) expect(stored).not.toContain(secret);

    // The workspace's admin sees it through the API.
    const got = await t.request({ method: 'POST', url: '/api/bug-reports/get', token: admin.token, body: { bugReportId: row.id } });
    expect(got.body.data).toMatchObject({ id: row.id, occurrenceCount: 20, reporter: null, source: 'auto:server' });

    // More of the same later: still the same record.
    await t.request({ method: 'POST', url: '/api/test/boom', token: admin.token, body: { workspaceId: workspace.id } });
    await app.bugReports.recorder.idle();
    expect((await serverReports()).map((r) => [r.id, r.occurrenceCount])).toEqual([[row.id, 21]]);
  });

  it('takes the workspace from the path or header only when it exists and the caller is a member; otherwise the report is service-level', async () => {
    const { workspace, admin } = await workspaceWithRoles(t);
    const before = new Set((await serverReports()).map((r) => r.id));
    expect((await t.request({ url: `/api/test/workspaces/${workspace.id}/boom`, token: admin.token })).status).toBe(500);
    expect((await t.request({ url: '/api/test/workspaces/no-such-workspace/boom', token: admin.token })).status).toBe(500);
    // A 401 is not captured; a 503 (an outage) is, as critical.
    expect((await t.request({ url: '/api/test/unavailable' })).status).toBe(401);
    const down = await t.request({ url: '/api/test/unavailable', token: admin.token, headers: { 'x-workspace-id': workspace.id } });
    expect(down.status).toBe(503);
    expect(down.body.error.code).toBe('SERVICE_UNAVAILABLE');
    await app.bugReports.recorder.idle();
    // Reports written in the same moment may share a timestamp: compare them in an order of our own.
    const byCode = (rows: { workspaceId: string | null; errorCode: string | null; severity: string }[]) =>
      rows.map((r) => [r.workspaceId, r.errorCode, r.severity]).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    const rows = (await serverReports()).filter((r) => !before.has(r.id));
    expect(byCode(rows)).toEqual(
      byCode([
        { workspaceId: workspace.id, errorCode: '23505x', severity: 'high' },
        { workspaceId: null, errorCode: '23505x', severity: 'high' },
        { workspaceId: workspace.id, errorCode: 'ECONNREFUSED', severity: 'critical' },
      ]),
    );
    expect(rows.find((r) => r.workspaceId === workspace.id && r.errorCode === '23505x')?.context).toMatchObject({
      route: '/api/test/workspaces/:workspaceId/boom',
      method: 'GET',
    });
  });

  it('never files a capture in a workspace the caller only named (path, query, body or header) without being a member', async () => {
    const { workspace, outsider } = await workspaceWithRoles(t);
    const reportsOf = async () => t.database.db.selectFrom('bugReports').select(['id', 'workspaceId']).where('workspaceId', '=', workspace.id).execute();
    const writesBefore = app.bugReports.recorder.stats.writes;
    expect((await t.request({ url: `/api/test/workspaces/${workspace.id}/boom`, token: outsider.token })).status).toBe(500);
    expect((await t.request({ method: 'POST', url: `/api/test/boom?workspaceId=${workspace.id}`, token: outsider.token, body: {} })).status).toBe(500);
    expect((await t.request({ method: 'POST', url: '/api/test/boom', token: outsider.token, body: { workspaceId: workspace.id } })).status).toBe(500);
    const down = await t.request({ url: '/api/test/unavailable', token: outsider.token, headers: { 'x-workspace-id': workspace.id } });
    expect(down.status).toBe(503);
    await app.bugReports.recorder.idle();
    expect(app.bugReports.recorder.stats.writes).toBeGreaterThan(writesBefore);
    expect(await reportsOf()).toEqual([]);
  });

  it('never files a capture in a workspace outside the caller’s key scope, even one its user administers', async () => {
    const { workspace, admin } = await workspaceWithRoles(t);
    const other = await createWorkspace(t, admin, 'Other');
    const key = await t.request({ method: 'POST', url: '/api/v1/api-keys', token: admin.token, body: { name: 'other-bot', workspaceId: other.id } });
    expect(key.status).toBe(201);
    const writesBefore = app.bugReports.recorder.stats.writes;
    const boom = await t.request({ url: `/api/test/workspaces/${workspace.id}/boom`, token: key.body.data.key });
    expect(boom.status).toBe(500);
    // Its own workspace still gets its captures.
    expect((await t.request({ url: `/api/test/workspaces/${other.id}/boom`, token: key.body.data.key })).status).toBe(500);
    await app.bugReports.recorder.idle();
    expect(app.bugReports.recorder.stats.writes).toBe(writesBefore + 2);
    const workspaces = (await serverReports()).map((r) => r.workspaceId);
    expect(workspaces).not.toContain(workspace.id);
    expect(workspaces).toContain(other.id);
  });

  it('does not record 4xx answers or successes', async () => {
    const { admin } = await workspaceWithRoles(t);
    const before = (await serverReports()).length;
    await t.request({ url: '/api/test/fine', token: admin.token });
    await t.request({ method: 'POST', url: '/api/bug-reports/get', token: admin.token, body: { bugReportId: 'nope' } });
    await t.request({ method: 'POST', url: '/api/bug-reports/auto', token: admin.token, body: {} });
    await app.bugReports.recorder.idle();
    expect((await serverReports()).length).toBe(before);
  });

  it('a failing recording never breaks the service', async () => {
    const { admin } = await workspaceWithRoles(t);
    const before = (await serverReports()).length;
    // A message PostgreSQL cannot store (NUL) makes the write fail: the answer is unchanged and the app goes on.
    app.bugReports.recorder.add({
      workspaceCandidate: null,
      caller: null,
      spaceId: null,
      reporterId: null,
      source: 'auto:server',
      errorMessage: 'bad \u0000 byte',
      errorStack: null,
      errorCode: 'INTERNAL_ERROR',
      context: null,
      metadata: null,
      occurredAt: new Date(),
    });
    await app.bugReports.recorder.idle();
    expect((await serverReports()).length).toBe(before);
    expect((await t.request({ url: '/api/test/fine', token: admin.token })).status).toBe(200);
  });
});

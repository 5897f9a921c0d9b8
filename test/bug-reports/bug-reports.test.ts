import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addMember, createUser, createWorkspace, type TestUser, verifyEmail, workspaceWithRoles } from '../helpers/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ BUG_REPORT_ADMINS: 'root@example.com' });
});
afterAll(() => t.close());

const post = (path: string, token: string | undefined, body?: unknown, headers?: Record<string, string>) =>
  t.request({ method: 'POST', url: `/api/bug-reports/${path}`, token, body, headers });

async function spaceIn(workspaceId: string, admin: TestUser, visibility: 'public' | 'private' = 'public') {
  const res = await t.request({
    method: 'POST',
    url: '/api/v1/spaces',
    token: admin.token,
    body: { workspaceId, name: `S ${Math.random().toString(36).slice(2, 7)}`, visibility },
  });
  if (res.status !== 201) throw new Error(`space: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

describe('bug reports: envelope and the six operations', () => {
  it('creates a user report (201) with defaults, gets it in full, lists it, updates and deletes it', async () => {
    const { workspace, admin } = await workspaceWithRoles(t);
    const created = await post('create', admin.token, { title: 'Save button does nothing', source: 'user:command', workspaceId: workspace.id });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ success: true, status: 201 });
    const report = created.body.data;
    expect(report).toMatchObject({
      title: 'Save button does nothing',
      source: 'user:command',
      severity: 'medium',
      status: 'open',
      occurrenceCount: 1,
      workspaceId: workspace.id,
      reporterId: admin.id,
      resolvedAt: null,
      reporter: { id: admin.id, name: 'Admin', avatarUrl: null },
    });
    expect(typeof report.id).toBe('string');
    expect(new Date(report.createdAt).toISOString()).toBe(report.createdAt);

    const got = await post('get', admin.token, { bugReportId: report.id });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      success: true,
      status: 200,
      data: { id: report.id, title: report.title, userJourney: { recentActions: expect.any(Array) } },
    });

    const list = await post('list', admin.token, { workspaceId: workspace.id });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ success: true, status: 200, data: { meta: { page: 1, limit: 20, hasNextPage: false, hasPrevPage: false } } });
    expect(list.body.data.items).toEqual([
      {
        id: report.id,
        title: report.title,
        source: 'user:command',
        severity: 'medium',
        status: 'open',
        occurrenceCount: 1,
        occurredAt: report.occurredAt,
        lastOccurredAt: report.lastOccurredAt,
        createdAt: report.createdAt,
      },
    ]);

    const updated = await post('update', admin.token, { bugReportId: report.id, title: 'Save is broken', severity: 'high', description: 'Steps: …' });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ title: 'Save is broken', severity: 'high', description: 'Steps: …', status: 'open' });

    const deleted = await post('delete', admin.token, { bugReportId: report.id });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ data: { id: report.id, deleted: true }, success: true, status: 200 });
    const gone = await post('get', admin.token, { bugReportId: report.id });
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ success: false, status: 404, error: { code: 'NOT_FOUND' } });
    expect((await post('list', admin.token, { workspaceId: workspace.id })).body.data.items).toEqual([]);
    expect((await post('delete', admin.token, { bugReportId: report.id })).status).toBe(404);
    expect((await post('update', admin.token, { bugReportId: report.id, status: 'closed' })).status).toBe(404);
    // Still in the table: a soft delete.
    const row = await t.database.db.selectFrom('bugReports').select(['deletedAt', 'deletedBy']).where('id', '=', report.id).executeTakeFirstOrThrow();
    expect(row.deletedAt).toBeInstanceOf(Date);
    expect(row.deletedBy).toBe(admin.id);
  });

  it('sets resolvedAt on resolved, keeps it when closed, clears it when reopened', async () => {
    const { workspace, admin } = await workspaceWithRoles(t);
    const id = (await post('create', admin.token, { title: 'x', source: 'user:command', workspaceId: workspace.id })).body.data.id;
    const resolved = await post('update', admin.token, { bugReportId: id, status: 'resolved' });
    expect(resolved.body.data.status).toBe('resolved');
    const at = resolved.body.data.resolvedAt;
    expect(Date.now() - Date.parse(at)).toBeLessThan(60_000);
    const again = await post('update', admin.token, { bugReportId: id, status: 'resolved' });
    expect(again.body.data.resolvedAt).toBe(at);
    const closed = await post('update', admin.token, { bugReportId: id, status: 'closed' });
    expect(closed.body.data).toMatchObject({ status: 'closed', resolvedAt: at });
    const reopened = await post('update', admin.token, { bugReportId: id, status: 'open' });
    expect(reopened.body.data).toMatchObject({ status: 'open', resolvedAt: null });
    for (const status of ['triaged', 'in_progress', 'resolved', 'open']) {
      const res = await post('update', admin.token, { bugReportId: id, status });
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe(status);
      expect(res.body.data.resolvedAt === null).toBe(status !== 'resolved');
    }
  });

  it('takes the workspace from workspaceId, else spaceId, else the x-workspace-id header, else the only workspace', async () => {
    const { workspace, admin } = await workspaceWithRoles(t);
    const spaceId = await spaceIn(workspace.id, admin);
    const bySpace = await post('create', admin.token, { title: 'in a space', source: 'user:command', spaceId });
    expect(bySpace.status).toBe(201);
    expect(bySpace.body.data).toMatchObject({ workspaceId: workspace.id, spaceId });
    // The admin's only workspace.
    const only = await post('create', admin.token, { title: 'only one', source: 'user:command' });
    expect(only.body.data.workspaceId).toBe(workspace.id);
    // With two workspaces and none named: 400 MISSING_REQUIRED; the header names one.
    const second = await createWorkspace(t, admin, 'Second');
    const ambiguous = await post('create', admin.token, { title: 'which?', source: 'user:command' });
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.body).toMatchObject({ success: false, status: 400, error: { code: 'MISSING_REQUIRED', details: { field: 'workspaceId' } } });
    const byHeader = await post('create', admin.token, { title: 'header', source: 'user:command' }, { 'x-workspace-id': second.id });
    expect(byHeader.body.data.workspaceId).toBe(second.id);
    // A space of another workspace than the one named: 404.
    const mismatch = await post('create', admin.token, { title: 'mismatch', source: 'user:command', workspaceId: second.id, spaceId });
    expect(mismatch.status).toBe(404);
    const noSpace = await post('create', admin.token, { title: 'x', source: 'user:command', spaceId: 'nope' });
    expect(noSpace.status).toBe(404);
    expect(noSpace.body.error.code).toBe('NOT_FOUND');
  });
});

describe('bug reports: who may do what', () => {
  it('admin does everything; editor, viewer and outsider get 403 except on /auto (members only)', async () => {
    const { workspace, admin, editor, viewer, outsider } = await workspaceWithRoles(t);
    const id = (await post('create', admin.token, { title: 'admin made', source: 'user:command', workspaceId: workspace.id })).body.data.id;
    for (const user of [editor, viewer, outsider]) {
      for (const [op, body] of [
        ['create', { title: 'nope', source: 'user:command', workspaceId: workspace.id }],
        ['get', { bugReportId: id }],
        ['update', { bugReportId: id, status: 'closed' }],
        ['delete', { bugReportId: id }],
        ['list', { workspaceId: workspace.id }],
      ] as const) {
        const res = await post(op, user.token, body);
        expect(res.status, `${user.name} ${op}`).toBe(403);
        expect(res.body).toMatchObject({ success: false, status: 403, error: { code: 'FORBIDDEN' } });
      }
    }
    // The editor and viewer administer nothing: a list without a workspace is 403 too.
    expect((await post('list', editor.token, {})).status).toBe(403);
    // /auto: any member.
    for (const user of [admin, editor, viewer]) {
      const res = await post('auto', user.token, { source: 'auto:client', errorMessage: `client failure ${user.name}`, workspaceId: workspace.id });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ success: true, status: 201, data: { status: 'open', occurrenceCount: 1, deduplicated: false } });
    }
    const outsiderAuto = await post('auto', outsider.token, { source: 'auto:client', errorMessage: 'x', workspaceId: workspace.id });
    expect(outsiderAuto.status).toBe(403);
    // Unknown workspace: 404; no credentials: 401 in the envelope.
    expect((await post('auto', admin.token, { source: 'auto:client', errorMessage: 'x', workspaceId: 'nope' })).status).toBe(404);
    const anon = await post('auto', undefined, { source: 'auto:client', errorMessage: 'x' });
    expect(anon.status).toBe(401);
    expect(anon.body).toMatchObject({ success: false, status: 401, error: { code: 'UNAUTHORIZED' } });
    expect(anon.headers['x-request-id']).toBeTruthy();
    // The record is unchanged.
    expect((await post('get', admin.token, { bugReportId: id })).body.data.status).toBe('open');
  });

  it('a private space the caller cannot see is a 404 on /auto; list covers every administered workspace', async () => {
    const { workspace, admin, editor } = await workspaceWithRoles(t);
    const hidden = await spaceIn(workspace.id, admin, 'private');
    const res = await post('auto', editor.token, { source: 'auto:client', errorMessage: 'in hidden space', spaceId: hidden });
    expect(res.status).toBe(404);
    // An admin of two workspaces sees both; a member of a third (not admin) does not see its reports.
    const other = await createWorkspace(t, admin, 'Other');
    const foreignOwner = await createUser(t, 'Foreign');
    const foreign = await createWorkspace(t, foreignOwner, 'Foreign');
    await addMember(t, foreign.id, foreignOwner, admin, 'editor');
    await post('create', admin.token, { title: 'A', source: 'user:command', workspaceId: workspace.id });
    await post('create', admin.token, { title: 'B', source: 'user:command', workspaceId: other.id });
    await post('create', foreignOwner.token, { title: 'C', source: 'user:command', workspaceId: foreign.id });
    const list = await post('list', admin.token, {});
    const titles = list.body.data.items.map((i: { title: string }) => i.title);
    expect(titles).toEqual(expect.arrayContaining(['A', 'B']));
    expect(titles).not.toContain('C');
    // Named workspace where the caller is only an editor: 403.
    expect((await post('list', admin.token, { workspaceId: foreign.id })).status).toBe(403);
  });

  it('service-level auto reports (no workspace) are for BUG_REPORT_ADMINS only, once kb has verified their email', async () => {
    const lonely = await createUser(t, 'Lonely'); // in no workspace
    const res = await post('auto', lonely.token, { source: 'auto:agent', errorMessage: 'agent lost its tool list' });
    expect(res.status).toBe(201);
    const id = res.body.data.id;
    const row = await t.database.db.selectFrom('bugReports').select('workspaceId').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.workspaceId).toBeNull();
    expect((await post('get', lonely.token, { bugReportId: id })).status).toBe(403);
    const rootRes = await t.request({
      method: 'POST',
      url: '/api/v1/auth/signup',
      body: { email: 'Root@Example.com', password: 'correct-horse', name: 'Root' },
    });
    const root = rootRes.body.data.token;
    // Named, but nobody has proven the address yet: anyone could have signed up with it first.
    expect((await post('get', root, { bugReportId: id })).status).toBe(403);
    await verifyEmail(t, { ...rootRes.body.data.user, token: root });
    expect((await post('get', root, { bugReportId: id })).body.data).toMatchObject({ id, workspaceId: null, source: 'auto:agent' });
    expect((await post('list', root, {})).body.data.items.map((i: { id: string }) => i.id)).toContain(id);
    expect((await post('update', root, { bugReportId: id, status: 'triaged' })).body.data.status).toBe('triaged');
  });
});

describe('bug reports: title and severity', () => {
  it('generates a title and detects severity when absent; keeps given ones', async () => {
    const { workspace, admin } = await workspaceWithRoles(t);
    const cases = [
      [{ errorMessage: 'connect ECONNREFUSED 10.0.0.5:5432', errorCode: 'ECONNREFUSED' }, 'critical', 'ECONNREFUSED: connect ECONNREFUSED 10.0.0.5:5432'],
      [{ errorMessage: 'The database is not answering', errorCode: 'SERVICE_UNAVAILABLE' }, 'critical', 'SERVICE_UNAVAILABLE: The database is not answering'],
      [
        { errorMessage: "TypeError: Cannot read properties of undefined (reading 'id')\n at x" },
        'high',
        "TypeError: Cannot read properties of undefined (reading 'id')",
      ],
      [{ errorMessage: 'Request failed', context: { statusCode: 502 } }, 'high', 'Request failed'],
      [{ errorMessage: 'Button label overflows' }, 'medium', 'Button label overflows'],
      [{ errorMessage: 'Deprecated API used: v0 search' }, 'low', 'Deprecated API used: v0 search'],
      [{ errorCode: 'E_WIDGET' }, 'medium', 'E_WIDGET error'],
      [{}, 'medium', 'Error reported by the client'],
    ] as const;
    for (const [fields, severity, title] of cases) {
      const res = await post('auto', admin.token, { source: 'auto:client', workspaceId: workspace.id, ...fields });
      expect(res.status, JSON.stringify(fields)).toBe(201);
      expect(res.body.data, JSON.stringify(fields)).toMatchObject({ severity, title });
    }
    const server = await post('auto', admin.token, { source: 'auto:server', workspaceId: workspace.id, errorMessage: 'odd thing' });
    expect(server.body.data.severity).toBe('high');
    const given = await post('auto', admin.token, {
      source: 'auto:client',
      workspaceId: workspace.id,
      errorMessage: 'TypeError: x',
      title: 'Mine',
      severity: 'low',
    });
    expect(given.body.data).toMatchObject({ title: 'Mine', severity: 'low' });
    const long = await post('auto', admin.token, { source: 'auto:client', workspaceId: workspace.id, errorMessage: 'y'.repeat(1000) });
    expect(long.body.data.title.length).toBe(300);
    // Credentials in error text are scrubbed before they are stored.
    const secret = await post('auto', admin.token, {
      source: 'auto:client',
      workspaceId: workspace.id,
      errorMessage: 'failed with Authorization: Bearer abc.def.ghi and key kb_0123456789abcdef password=hunter2',
    });
    const full = await post('get', admin.token, { bugReportId: secret.body.data.id });
    expect(full.body.data.errorMessage).not.toMatch(/abc\.def\.ghi|kb_0123456789abcdef|hunter2/);
    expect(full.body.data.errorMessage).toContain('[redacted]');
  });
});

describe('bug reports: list filters and paging', () => {
  it('filters by source, severity, status, workspace and dates; pages newest first', async () => {
    const { workspace, admin } = await workspaceWithRoles(t);
    const ws = workspace.id;
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) {
      const res = await post('auto', admin.token, {
        source: i % 2 ? 'auto:client' : 'auto:agent',
        errorMessage: `failure ${i}`,
        severity: i < 5 ? 'low' : 'high',
        workspaceId: ws,
      });
      ids.push(res.body.data.id);
    }
    await post('update', admin.token, { bugReportId: ids[3], status: 'resolved' });
    const page1 = await post('list', admin.token, { workspaceId: ws });
    expect(page1.body.data.items).toHaveLength(20);
    expect(page1.body.data.meta).toEqual({ page: 1, limit: 20, hasNextPage: true, hasPrevPage: false });
    expect(page1.body.data.items[0].id).toBe(ids[24]);
    const page2 = await post('list', admin.token, { workspaceId: ws, page: 2 });
    expect(page2.body.data.items.map((i: { id: string }) => i.id)).toEqual(ids.slice(0, 5).reverse());
    expect(page2.body.data.meta).toEqual({ page: 2, limit: 20, hasNextPage: false, hasPrevPage: true });
    const small = await post('list', admin.token, { workspaceId: ws, limit: 10, page: 3 });
    expect(small.body.data.items).toHaveLength(5);
    expect(small.body.data.meta).toEqual({ page: 3, limit: 10, hasNextPage: false, hasPrevPage: true });

    const clients = await post('list', admin.token, { workspaceId: ws, source: 'auto:client', limit: 100 });
    expect(clients.body.data.items).toHaveLength(12);
    expect(clients.body.data.items.every((i: { source: string }) => i.source === 'auto:client')).toBe(true);
    const low = await post('list', admin.token, { workspaceId: ws, severity: 'low' });
    expect(low.body.data.items).toHaveLength(5);
    const resolved = await post('list', admin.token, { workspaceId: ws, status: 'resolved' });
    expect(resolved.body.data.items.map((i: { id: string }) => i.id)).toEqual([ids[3]]);

    // Dates filter on createdAt: move five reports back a week.
    await sql`update bug_reports set created_at = now() - interval '7 days' where id in (${sql.join(ids.slice(0, 5))})`.execute(t.database.db);
    const dayAgo = new Date(Date.now() - 24 * 3600 * 1000).toISOString();
    const recent = await post('list', admin.token, { workspaceId: ws, fromDate: dayAgo, limit: 100 });
    expect(recent.body.data.items).toHaveLength(20);
    const old = await post('list', admin.token, { workspaceId: ws, toDate: dayAgo, limit: 100 });
    expect(old.body.data.items.map((i: { id: string }) => i.id).sort()).toEqual(ids.slice(0, 5).sort());
    const weekAgoDay = new Date(Date.now() - 7 * 24 * 3600 * 1000).toISOString().slice(0, 10);
    const byDay = await post('list', admin.token, { workspaceId: ws, fromDate: weekAgoDay, toDate: weekAgoDay, limit: 100 });
    expect(byDay.body.data.items).toHaveLength(5);
    const header = await post('list', admin.token, { limit: 1 }, { 'x-workspace-id': ws });
    expect(header.body.data.items).toHaveLength(1);
  });

  it('refuses bad input with the error shape (never a 500)', async () => {
    const { workspace, admin } = await workspaceWithRoles(t);
    const bad: [string, unknown, number, string, string?][] = [
      ['list', { severity: 'urgent' }, 422, 'VALIDATION_ERROR', 'severity'],
      ['list', { status: 'blocked' }, 422, 'VALIDATION_ERROR', 'status'],
      ['list', { limit: 101 }, 422, 'VALIDATION_ERROR', 'limit'],
      ['list', { page: 0 }, 422, 'VALIDATION_ERROR', 'page'],
      ['list', { fromDate: 'yesterday' }, 422, 'VALIDATION_ERROR', 'fromDate'],
      ['list', { fromDate: '2024-05-02', toDate: '2024-05-01', workspaceId: workspace.id }, 422, 'VALIDATION_ERROR', 'toDate'],
      ['get', {}, 400, 'MISSING_REQUIRED', 'bugReportId'],
      ['get', { bugReportId: 'x'.repeat(300) }, 422, 'VALIDATION_ERROR', 'bugReportId'],
      ['get', { bugReportId: 'no-such-report' }, 404, 'NOT_FOUND'],
      ['create', { source: 'user:command', workspaceId: workspace.id }, 400, 'MISSING_REQUIRED', 'title'],
      ['create', { title: 'x', workspaceId: workspace.id }, 400, 'MISSING_REQUIRED', 'source'],
      ['create', { title: 'x', source: 'auto:server', workspaceId: workspace.id }, 422, 'VALIDATION_ERROR', 'source'],
      ['create', { title: 'x', source: 'user:command', severity: 'huge', workspaceId: workspace.id }, 422, 'VALIDATION_ERROR', 'severity'],
      ['create', { title: 'x'.repeat(301), source: 'user:command', workspaceId: workspace.id }, 422, 'VALIDATION_ERROR', 'title'],
      ['create', { title: 'x', source: 'user:command', workspaceId: workspace.id, context: 'text' }, 422, 'VALIDATION_ERROR', 'context'],
      ['create', { title: 'x', source: 'user:command', workspaceId: workspace.id, context: { big: 'y'.repeat(20_000) } }, 422, 'VALIDATION_ERROR', 'context'],
      ['auto', {}, 400, 'MISSING_REQUIRED', 'source'],
      ['auto', { source: 'user:command' }, 422, 'VALIDATION_ERROR', 'source'],
      ['auto', { source: 'auto:client', occurredAt: 'now' }, 422, 'VALIDATION_ERROR', 'occurredAt'],
      ['auto', { source: 'auto:client', occurredAt: new Date(Date.now() + 86_400_000).toISOString() }, 422, 'VALIDATION_ERROR', 'occurredAt'],
      ['auto', { source: 'auto:client', errorMessage: 'x'.repeat(5001) }, 422, 'VALIDATION_ERROR', 'errorMessage'],
      ['update', { status: 'done' }, 400, 'MISSING_REQUIRED', 'bugReportId'],
      ['update', { bugReportId: 'x', status: 'done' }, 422, 'VALIDATION_ERROR', 'status'],
      ['delete', {}, 400, 'MISSING_REQUIRED', 'bugReportId'],
    ];
    for (const [op, body, status, code, field] of bad) {
      const res = await post(op, admin.token, body);
      expect(res.status, `${op} ${JSON.stringify(body).slice(0, 80)}`).toBe(status);
      expect(res.body).toMatchObject({ success: false, status, error: { code } });
      if (field) expect(res.body.error.details.field).toBe(field);
    }
    const malformed = await t.request({
      method: 'POST',
      url: '/api/bug-reports/list',
      token: admin.token,
      body: '{nope',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ success: false, status: 400, error: { code: 'INVALID_PARAMETER' } });
    // Documented in the OpenAPI document, without a versioned alias: bug-report paths carry no version.
    const doc = await t.request({ url: '/api/openapi.json' });
    expect(doc.status).toBe(200);
    for (const op of ['list', 'get', 'create', 'auto', 'update', 'delete']) expect(doc.body.paths[`/api/bug-reports/${op}`]?.post).toBeTruthy();
    expect((await t.request({ method: 'POST', url: '/api/v1/bug-reports/list', token: admin.token, body: {} })).status).toBe(404);
  });
});

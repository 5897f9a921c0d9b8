import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createWorkspace, workspaceWithRoles } from '../helpers/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (path: string, token: string, body?: unknown) => t.request({ method: 'POST', url: `/api/bug-reports/${path}`, token, body });
const countRows = async (workspaceId: string) =>
  (await t.database.db.selectFrom('bugReports').select(sql<number>`count(*)::int`.as('n')).where('workspaceId', '=', workspaceId).executeTakeFirstOrThrow()).n;

describe('bug reports: de-duplication of auto reports', () => {
  it('an open report of the last 24 h with the same message and source absorbs the occurrence', async () => {
    const { workspace, admin, editor } = await workspaceWithRoles(t);
    const body = { source: 'auto:client', errorMessage: 'Failed to fetch /api/v1/pages', workspaceId: workspace.id };
    const first = await post('auto', editor.token, { ...body, occurredAt: '2020-01-01T00:00:00Z' });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ occurrenceCount: 1, deduplicated: false, occurredAt: '2020-01-01T00:00:00.000Z' });
    const second = await post('auto', admin.token, { ...body, errorStack: 'other stack', severity: 'critical' });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ success: true, status: 200, data: { id: first.body.data.id, occurrenceCount: 2, deduplicated: true } });
    // First occurrence kept, the last one moved on; the first report's fields stay.
    expect(second.body.data.occurredAt).toBe('2020-01-01T00:00:00.000Z');
    expect(Date.parse(second.body.data.lastOccurredAt)).toBeGreaterThan(Date.parse('2024-01-01'));
    const full = await post('get', admin.token, { bugReportId: first.body.data.id });
    expect(full.body.data).toMatchObject({ occurrenceCount: 2, severity: first.body.data.severity, reporterId: editor.id, errorStack: null });
    expect(await countRows(workspace.id)).toBe(1);

    // A different source, message or workspace is a new record.
    expect((await post('auto', admin.token, { ...body, source: 'auto:agent' })).body.data.deduplicated).toBe(false);
    expect((await post('auto', admin.token, { ...body, errorMessage: 'Failed to fetch /api/v1/tasks' })).body.data.deduplicated).toBe(false);
    const other = await createWorkspace(t, admin, 'Other');
    expect((await post('auto', admin.token, { ...body, workspaceId: other.id })).body.data.deduplicated).toBe(false);
    expect(await countRows(workspace.id)).toBe(3);
    // A user-made report never de-duplicates.
    await post('create', admin.token, { title: 'Failed to fetch /api/v1/pages', source: 'user:command', workspaceId: workspace.id });
    await post('create', admin.token, { title: 'Failed to fetch /api/v1/pages', source: 'user:command', workspaceId: workspace.id });
    expect(await countRows(workspace.id)).toBe(5);
  });

  it('a report that is not open (triaged, resolved, closed) or deleted does not absorb: a new record', async () => {
    const { workspace, admin } = await workspaceWithRoles(t);
    const body = { source: 'auto:server', errorMessage: 'pool exhausted', workspaceId: workspace.id };
    let id = (await post('auto', admin.token, body)).body.data.id;
    for (const status of ['triaged', 'resolved', 'closed']) {
      await post('update', admin.token, { bugReportId: id, status });
      const next = await post('auto', admin.token, body);
      expect(next.status).toBe(201);
      expect(next.body.data).toMatchObject({ occurrenceCount: 1, deduplicated: false });
      expect(next.body.data.id).not.toBe(id);
      id = next.body.data.id;
    }
    await post('delete', admin.token, { bugReportId: id });
    const afterDelete = await post('auto', admin.token, body);
    expect(afterDelete.body.data.deduplicated).toBe(false);
    // Reopening makes a report absorb again (the newest open one).
    const reopened = await post('auto', admin.token, body);
    expect(reopened.body.data).toMatchObject({ id: afterDelete.body.data.id, occurrenceCount: 2, deduplicated: true });
  });

  it('a report older than 24 hours does not absorb: a new record', async () => {
    const { workspace, admin } = await workspaceWithRoles(t);
    const body = { source: 'auto:client', errorMessage: 'stale error', workspaceId: workspace.id };
    const old = (await post('auto', admin.token, body)).body.data.id;
    await sql`update bug_reports set created_at = now() - interval '24 hours 1 minute', occurred_at = now() - interval '25 hours' where id = ${old}`.execute(
      t.database.db,
    );
    const fresh = await post('auto', admin.token, body);
    expect(fresh.status).toBe(201);
    expect(fresh.body.data.id).not.toBe(old);
    // Just inside the window still absorbs.
    await sql`update bug_reports set created_at = now() - interval '23 hours 59 minutes' where id = ${fresh.body.data.id}`.execute(t.database.db);
    const again = await post('auto', admin.token, body);
    expect(again.body.data).toMatchObject({ id: fresh.body.data.id, occurrenceCount: 2 });
  });

  it('ten concurrent identical reports make one record with occurrenceCount 10', async () => {
    const { workspace, admin, editor, viewer } = await workspaceWithRoles(t);
    const users = [admin, editor, viewer];
    const body = { source: 'auto:client', errorMessage: 'ResizeObserver loop limit exceeded', workspaceId: workspace.id };
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => post('auto', users[i % 3].token, body)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect(results.filter((r) => !r.body.data.deduplicated)).toHaveLength(1);
    const rows = await t.database.db.selectFrom('bugReports').select(['id', 'occurrenceCount']).where('workspaceId', '=', workspace.id).execute();
    expect(rows).toEqual([{ id: results[0].body.data.id, occurrenceCount: 10 }]);
  });

  it('without a message, the title is what de-duplicates', async () => {
    const { workspace, admin } = await workspaceWithRoles(t);
    const a = await post('auto', admin.token, { source: 'auto:agent', title: 'Tool call timed out', workspaceId: workspace.id });
    const b = await post('auto', admin.token, { source: 'auto:agent', title: 'Tool call timed out', workspaceId: workspace.id });
    expect(b.body.data).toMatchObject({ id: a.body.data.id, occurrenceCount: 2 });
  });
});

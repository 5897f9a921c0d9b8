import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createWorkspace, type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { createJob, makeSpace, researchUrl } from './helpers.js';

// No worker runs in this file: every job stays pending, which is what the limits count.
let t: TestApp;
let ws: string;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;
let outsider: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  const w = await workspaceWithRoles(t);
  ({ admin, editor, viewer, outsider } = w);
  ws = w.workspace.id;
});
afterAll(() => t?.close());

const post = (user: TestUser, body: unknown, workspaceId = ws) => t.request({ method: 'POST', url: researchUrl(workspaceId), token: user.token, body });

describe('research: create, read, list, cancel', () => {
  it('creates a pending job with the defaults and shows its status view', async () => {
    const res = await post(editor, { topic: 'How do we deploy?' });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.body).toMatchObject({
      workspaceId: ws,
      topic: 'How do we deploy?',
      status: 'pending',
      sources: ['docs', 'web', 'repository'],
      outputMode: 'longform',
      timeBudget: 60,
      targetSpaceId: null,
      repository: null,
      progress: 0,
      sourcesSearched: 0,
      documentsFound: 0,
      timeElapsed: 0,
      estimatedTimeRemaining: 3600,
      pageId: null,
      createdBy: editor.id,
      startedAt: null,
      completedAt: null,
    });
    expect(res.body.data).toBeUndefined(); // bare body
    const view = await t.request({ url: researchUrl(ws, `/${res.body.id}`), token: editor.token });
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ id: res.body.id, status: 'pending', progress: 0 });
    expect(new Date(view.body.createdAt).toISOString()).toBe(view.body.createdAt);
    // The job is on the queue, written with the row.
    const queued = await t.database.db.selectFrom('jobs').selectAll().where('kind', '=', 'research.run').where('workspaceId', '=', ws).execute();
    expect(queued.map((j) => j.payload)).toContainEqual({ researchId: res.body.id });
    await t.request({ method: 'POST', url: researchUrl(ws, `/${res.body.id}/cancel`), token: editor.token });
  });

  it('validates the body: topic required, budget bounds, sources, repository rules', async () => {
    const missing = await post(editor, { sources: ['docs'] });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'MISSING_REQUIRED', details: { field: 'topic' } });
    const low = await post(editor, { topic: 'x', timeBudget: 4 });
    expect(low.status).toBe(422);
    expect(low.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'timeBudget' } });
    const high = await post(editor, { topic: 'x', timeBudget: 100_000 });
    expect(high.status).toBe(422);
    const word = await post(editor, { topic: 'x', timeBudget: 'long' });
    expect(word.status).toBe(422);
    const badSource = await post(editor, { topic: 'x', sources: ['intranet'] });
    expect(badSource.status).toBe(422);
    expect(badSource.body.error.details.field).toMatch(/^sources/);
    const mode = await post(editor, { topic: 'x', outputMode: 'essay' });
    expect(mode.status).toBe(422);
    const long = await post(editor, { topic: 'x'.repeat(501) });
    expect(long.status).toBe(422);
    // A source that cannot be used is no error: the report will say it was skipped.
    const noRepo = await post(editor, { topic: 'x', sources: ['repository'] });
    expect(noRepo.status).toBe(201);
    expect(noRepo.body).toMatchObject({ sources: ['repository'], repository: null });
    await t.request({ method: 'POST', url: researchUrl(ws, `/${noRepo.body.id}/cancel`), token: editor.token });
    const http = await post(editor, { topic: 'x', repository: { url: 'http://example.com/r.git' } });
    expect(http.status).toBe(422);
    expect(http.body.error.details).toMatchObject({ field: 'repository.url', reason: 'unsupported_scheme' });
    const local = await post(editor, { topic: 'x', repository: { url: '/etc' } });
    expect(local.status).toBe(422);
    expect(local.body.error.details).toMatchObject({ field: 'repository.url', reason: 'local_not_allowed' });
    const fileUrl = await post(editor, { topic: 'x', repository: { url: 'file:///etc' } });
    expect(fileUrl.status).toBe(422);
    const loopback = await post(editor, { topic: 'x', repository: { url: 'https://127.0.0.1/repo.git' } });
    expect(loopback.status).toBe(422);
    expect(loopback.body.error.details).toMatchObject({ reason: 'private_address' });
    const localhost = await post(editor, { topic: 'x', repository: { url: 'ssh://git@localhost/repo.git' } });
    expect(localhost.status).toBe(422);
    expect(localhost.body.error.details).toMatchObject({ reason: 'private_address' });
    const privateNet = await post(editor, { topic: 'x', repository: { url: 'git@10.1.2.3:team/repo.git' } });
    expect(privateNet.status).toBe(422);
    expect(privateNet.body.error.details).toMatchObject({ reason: 'private_address' });
    const metadata = await post(editor, { topic: 'x', repository: { url: 'https://169.254.169.254/latest' } });
    expect(metadata.status).toBe(422);
    const option = await post(editor, { topic: 'x', repository: { url: 'https://example.com/r.git', branch: '--upload-pack=touch' } });
    expect(option.status).toBe(422);
    expect(option.body.error.details.field).toBe('repository.branch');
    const maxFiles = await post(editor, { topic: 'x', repository: { url: 'https://example.com/r.git', maxFiles: 0 } });
    expect(maxFiles.status).toBe(422);
    // Nothing was created by any of these.
    const list = await t.request({ url: researchUrl(ws), token: editor.token, query: { status: 'pending' } });
    expect(list.body.total).toBe(0);
  });

  it('checks the target space: unknown 404, read-only 403', async () => {
    const unknown = await post(editor, { topic: 'x', targetSpaceId: 'nope' });
    expect(unknown.status).toBe(404);
    const secret = await makeSpace(t, ws, admin, 'Secret', 'private');
    const hidden = await post(editor, { topic: 'x', targetSpaceId: secret });
    expect(hidden.status).toBe(404);
    const ok = await post(admin, { topic: 'into a space', targetSpaceId: secret, sources: ['docs'], outputMode: 'brief', timeBudget: 5.5 });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ targetSpaceId: secret, sources: ['docs'], outputMode: 'brief', timeBudget: 5.5 });
    await t.request({ method: 'POST', url: researchUrl(ws, `/${ok.body.id}/cancel`), token: admin.token });
  });

  it('lets viewers read and only editors create or cancel; outsiders get 403, strangers 401', async () => {
    const job = await createJob(t, ws, editor, { topic: 'roles' });
    const byViewer = await post(viewer, { topic: 'x' });
    expect(byViewer.status).toBe(403);
    expect(byViewer.body.error.code).toBe('FORBIDDEN');
    const viewerCancel = await t.request({ method: 'POST', url: researchUrl(ws, `/${job.id}/cancel`), token: viewer.token });
    expect(viewerCancel.status).toBe(403);
    for (const url of [researchUrl(ws), researchUrl(ws, `/${job.id}`), researchUrl(ws, `/${job.id}/report`)]) {
      const res = await t.request({ url, token: outsider.token });
      expect(res.status, url).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    expect((await post(outsider, { topic: 'x' })).status).toBe(403);
    expect((await t.request({ method: 'POST', url: researchUrl(ws, `/${job.id}/cancel`), token: outsider.token })).status).toBe(403);
    expect((await t.request({ url: researchUrl(ws) })).status).toBe(401);
    expect((await t.request({ url: researchUrl('no-such-workspace'), token: editor.token })).status).toBe(404);
    // Another workspace's job is not found through this one.
    const other = await createWorkspace(t, outsider, 'Other');
    const foreign = await createJob(t, other.id, outsider, { topic: 'theirs' });
    expect((await t.request({ url: researchUrl(ws, `/${foreign.id}`), token: editor.token })).status).toBe(404);
    expect((await t.request({ method: 'POST', url: researchUrl(ws, `/${foreign.id}/cancel`), token: editor.token })).status).toBe(404);
    await t.request({ method: 'POST', url: researchUrl(ws, `/${job.id}/cancel`), token: editor.token });
    await t.request({ method: 'POST', url: researchUrl(other.id, `/${foreign.id}/cancel`), token: outsider.token });
  });

  it('has no report before completion (404 with the status) and cancels a pending job, idempotently', async () => {
    const job = await createJob(t, ws, editor, { topic: 'cancel me' });
    const early = await t.request({ url: researchUrl(ws, `/${job.id}/report`), token: editor.token });
    expect(early.status).toBe(404);
    expect(early.body.error).toMatchObject({ code: 'NOT_FOUND', details: { status: 'pending', reason: 'not_ready' } });
    const cancel = await t.request({ method: 'POST', url: researchUrl(ws, `/${job.id}/cancel`), token: editor.token });
    expect(cancel.status).toBe(200);
    // The interface's state table: any → cancelled answers partialResults true.
    expect(cancel.body).toEqual({ id: job.id, status: 'cancelled', partialResults: true });
    const again = await t.request({ method: 'POST', url: researchUrl(ws, `/${job.id}/cancel`), token: admin.token });
    expect(again.body).toEqual({ id: job.id, status: 'cancelled', partialResults: true });
    const view = await t.request({ url: researchUrl(ws, `/${job.id}`), token: editor.token });
    expect(view.body).toMatchObject({ status: 'cancelled', estimatedTimeRemaining: 0 });
    expect(view.body.completedAt).not.toBeNull();
    // Nothing had been gathered: there is no report.
    const report = await t.request({ url: researchUrl(ws, `/${job.id}/report`), token: editor.token });
    expect(report.status).toBe(404);
    expect(report.body.error.details).toMatchObject({ status: 'cancelled' });
    // The queue job was cancelled with it, so no worker will ever run it.
    const row = await t.database.db.selectFrom('researchJobs').select('jobId').where('id', '=', job.id).executeTakeFirstOrThrow();
    const queued = await t.database.db.selectFrom('jobs').selectAll().where('id', '=', row.jobId!).executeTakeFirstOrThrow();
    expect(queued).toMatchObject({ status: 'cancelled', cancelRequested: true });
    expect((await t.request({ method: 'POST', url: researchUrl(ws, '/nope/cancel'), token: editor.token })).status).toBe(404);
    expect((await t.request({ url: researchUrl(ws, '/nope'), token: editor.token })).status).toBe(404);
    expect((await t.request({ url: researchUrl(ws, '/nope/report'), token: editor.token })).status).toBe(404);
  });

  it('lists newest first with total, status filter, limit (default 20) and offset', async () => {
    const { workspace, admin: a } = await workspaceWithRoles(t);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await createJob(t, workspace.id, a, { topic: `topic ${i}` })).id);
    await t.request({ method: 'POST', url: researchUrl(workspace.id, `/${ids[0]}/cancel`), token: a.token });
    const all = await t.request({ url: researchUrl(workspace.id), token: a.token });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 3, limit: 20, offset: 0 });
    expect(all.body.jobs.map((j: { id: string }) => j.id)).toEqual([...ids].reverse());
    expect(Object.keys(all.body.jobs[0]).sort()).toEqual(['completedAt', 'createdAt', 'id', 'progress', 'status', 'topic']);
    const pending = await t.request({ url: researchUrl(workspace.id), token: a.token, query: { status: 'pending', limit: '1', offset: '1' } });
    expect(pending.body).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(pending.body.jobs.map((j: { id: string }) => j.id)).toEqual([ids[1]]);
    const cancelled = await t.request({ url: researchUrl(workspace.id), token: a.token, query: { status: 'cancelled' } });
    expect(cancelled.body.jobs).toHaveLength(1);
    expect((await t.request({ url: researchUrl(workspace.id), token: a.token, query: { status: 'blocked' } })).status).toBe(400);
    expect((await t.request({ url: researchUrl(workspace.id), token: a.token, query: { limit: 'abc' } })).body.error.code).toBe('INVALID_PARAMETER');
    expect((await t.request({ url: researchUrl(workspace.id), token: a.token, query: { limit: '101' } })).status).toBe(400);
    for (const id of ids) await t.request({ method: 'POST', url: researchUrl(workspace.id, `/${id}/cancel`), token: a.token });
  });
});

describe('research limits', () => {
  it('allows 5 active jobs; the 6th gets 429 with Retry-After; cancelling frees a place', async () => {
    const { workspace, editor: e } = await workspaceWithRoles(t);
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await createJob(t, workspace.id, e, { topic: `active ${i}`, timeBudget: 5 })).id);
    const sixth = await post(e, { topic: 'one too many', timeBudget: 5 }, workspace.id);
    expect(sixth.status).toBe(429);
    expect(sixth.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { limit: 5, reason: 'active_jobs' } });
    // Pending jobs have their whole budget (5 minutes) ahead: the soonest a place frees for sure.
    expect(Number(sixth.headers['retry-after'])).toBe(300);
    expect(sixth.headers['x-ratelimit-limit']).toBe('5');
    expect(sixth.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(sixth.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
    const list = await t.request({ url: researchUrl(workspace.id), token: e.token });
    expect(list.body.total).toBe(5);
    await t.request({ method: 'POST', url: researchUrl(workspace.id, `/${ids[0]}/cancel`), token: e.token });
    expect((await post(e, { topic: 'now it fits' }, workspace.id)).status).toBe(201);
  });

  it('allows 10 jobs an hour; the 11th gets 429 with Retry-After when the oldest leaves the window', async () => {
    const { workspace, editor: e } = await workspaceWithRoles(t);
    const ids = [];
    for (let i = 0; i < 10; i++) {
      const job = await createJob(t, workspace.id, e, { topic: `hourly ${i}` });
      ids.push(job.id);
      // Cancel at once so the active limit stays out of the way: cancelled jobs still count for the hour.
      await t.request({ method: 'POST', url: researchUrl(workspace.id, `/${job.id}/cancel`), token: e.token });
    }
    const eleventh = await post(e, { topic: 'eleventh' }, workspace.id);
    expect(eleventh.status).toBe(429);
    expect(eleventh.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { limit: 10, reason: 'hourly_jobs' } });
    const retry = Number(eleventh.headers['retry-after']);
    expect(retry).toBeGreaterThan(3500);
    expect(retry).toBeLessThanOrEqual(3600);
    // Move the oldest job 50 minutes back: a place frees in 10 minutes.
    await sql`update research_jobs set created_at = now() - interval '50 minutes' where id = ${ids[0]}`.execute(t.database.db);
    const later = await post(e, { topic: 'eleventh again' }, workspace.id);
    expect(later.status).toBe(429);
    expect(Number(later.headers['retry-after'])).toBeGreaterThan(590);
    expect(Number(later.headers['retry-after'])).toBeLessThanOrEqual(600);
    // Out of the window altogether: a place is free.
    await sql`update research_jobs set created_at = now() - interval '61 minutes' where id = ${ids[0]}`.execute(t.database.db);
    expect((await post(e, { topic: 'fits again' }, workspace.id)).status).toBe(201);
  });

  it('counts concurrent creates atomically: exactly 5 of 8 at once succeed', async () => {
    const { workspace, editor: e } = await workspaceWithRoles(t);
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => post(e, { topic: `race ${i}` }, workspace.id)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    expect(results.filter((r) => r.status === 429)).toHaveLength(3);
    const list = await t.request({ url: researchUrl(workspace.id), token: e.token });
    expect(list.body.total).toBe(5);
  });
});
